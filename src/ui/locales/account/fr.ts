import type { AccountMessages } from './en.ts'

const fr: AccountMessages = {
  copyAddress: 'Copier l’adresse',
  addressCopied: 'Adresse copiée',
  tokens: 'Jetons',
  network: 'Réseau',
  unknownNetwork: 'Réseau {id}',
  totalValue: 'Valeur totale',
  namespaceNetworks:
    '{namespace, select, eip155 {Réseaux EVM} solana {Réseaux Solana} other {Réseaux {namespace}}}',
  currentNetwork: 'Réseau actuel',
  switching: 'Approuvez le changement de réseau dans votre portefeuille',
  unsupportedHint:
    'Votre portefeuille est sur un réseau que ce site ne prend pas en charge. Passez à l’un de ces réseaux.',
  token: 'Jeton',
  receiver: 'Adresse du destinataire',
  receiverPlaceholder: '{namespace, select, solana {Adresse Solana} other {0x…}}',
  max: 'Max',
  available: 'Disponible\u00a0: {amount}',
  sendWaiting: 'Approuvez la transaction dans votre portefeuille',
  sent: '{amount} envoyé à {receiver}',
  viewTransaction: 'Voir dans l’explorateur',
  done: 'Terminé',
  availableWithValue: 'Disponible\u00a0: {amount} (≈\u00a0{value})',
  amountValue: '≈\u00a0{value}',
  swapFrom: 'Vous payez',
  swapTo: 'Vous recevez',
  switchTokens: 'Inverser les jetons',
  quoting: 'Obtention d’un devis…',
  expectedOutput: 'Montant attendu',
  priceImpact: 'Impact sur le prix',
  minimumReceived: 'Minimum reçu (glissement de {percent})',
  networkFee: 'Frais de réseau',
  approveAndSwap: 'Approuver {symbol} et échanger',
  approveWaiting: 'Approuvez {symbol} dans votre portefeuille',
  swapWaiting: 'Confirmez l’échange dans votre portefeuille',
  swapped: '{paid} échangés contre {received}',
}

export default fr
