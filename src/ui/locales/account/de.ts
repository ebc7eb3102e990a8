import type { AccountMessages } from './en.ts'

const de: AccountMessages = {
  copyAddress: 'Adresse kopieren',
  addressCopied: 'Adresse kopiert',
  tokens: 'Token',
  network: 'Netzwerk',
  unknownNetwork: 'Netzwerk {id}',
  totalValue: 'Gesamtwert',
  namespaceNetworks:
    '{namespace, select, eip155 {EVM-Netzwerke} solana {Solana-Netzwerke} other {{namespace}-Netzwerke}}',
  currentNetwork: 'Aktuelles Netzwerk',
  switching: 'Bestätige den Netzwerkwechsel in deiner Wallet',
  unsupportedHint:
    'Deine Wallet ist in einem Netzwerk, das diese Seite nicht unterstützt. Wechsle zu einem dieser Netzwerke.',
  token: 'Token',
  receiver: 'Empfängeradresse',
  receiverPlaceholder: '{namespace, select, solana {Solana-Adresse} other {0x…}}',
  max: 'Max.',
  available: 'Verfügbar: {amount}',
  sendWaiting: 'Bestätige die Transaktion in deiner Wallet',
  sent: '{amount} an {receiver} gesendet',
  viewTransaction: 'Im Explorer ansehen',
  done: 'Fertig',
  availableWithValue: 'Verfügbar: {amount} (≈ {value})',
  amountValue: '≈ {value}',
  swapFrom: 'Du zahlst',
  swapTo: 'Du erhältst',
  switchTokens: 'Token vertauschen',
  quoting: 'Angebot wird eingeholt…',
  expectedOutput: 'Erwarteter Betrag',
  priceImpact: 'Preiseinfluss',
  minimumReceived: 'Mindestens erhalten ({percent} Slippage)',
  networkFee: 'Netzwerkgebühr',
  approveAndSwap: '{symbol} freigeben und tauschen',
  approveWaiting: 'Gib {symbol} in deiner Wallet frei',
  swapWaiting: 'Bestätige den Tausch in deiner Wallet',
  swapped: '{paid} gegen {received} getauscht',
}

export default de
