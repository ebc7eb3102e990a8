// The name and on-ramp views' words in it (keys of ./en.ts).
import type { NamesMessages } from './en.ts'

const names: NamesMessages = {
  registerNameHint: 'Scegli un nome a cui inviare al posto del tuo indirizzo.',
  nameField: 'Nome',
  checking: 'Verifica…',
  nameAvailable: '{name} è disponibile',
  nameTaken: '{name} è già preso. Nomi liberi simili:',
  register: 'Registra {name}',
  changeNameHint: 'Il tuo nome è {name}. Scegline un altro o rilascialo perché chiunque possa prenderlo.',
  releaseName: 'Rilascia {name}',
  signInWallet: 'Firma il messaggio nel tuo wallet…',
  nameRegistered: '{name} è tuo',
  nameRegisteredHint: 'Ora si può inviare a {name} invece che al tuo indirizzo.',
  buyToken: 'Token',
  payWith: 'Paga con',
  card: 'Carta',
  ach_bank_account: 'Bonifico bancario (ACH)',
  amountIn: 'Importo in {currency}',
  quoteLoading: 'Richiesta del preventivo…',
  youGet: 'Ricevi circa {amount} {symbol} (commissione {fee})',
  continueToPayment: 'Continua al pagamento',
  checkoutOpened:
    'La pagina di pagamento è aperta in una nuova scheda. I tuoi token arrivano qui dopo il pagamento.',
  checkoutBlocked:
    'Il tuo browser ha bloccato la pagina di pagamento. Aprila con il pulsante qui sotto; i tuoi token arrivano qui dopo il pagamento.',
  openCheckout: 'Apri la pagina di pagamento',
  purchaseArrived: '{amount} {symbol} sono arrivati nel tuo wallet',
  purchaseFailed: 'Il pagamento non è andato a buon fine.',
  nameRuleError: 'Nome del wallet: lettere, cifre e trattini, almeno 4 caratteri',
  amountRangeError: 'Inserisci un importo da {min} a {max} {currency}',
  onrampUnavailable: 'L’acquisto di cripto non è disponibile qui',
  failedWith: 'Non ha funzionato: {message}',
  imageField: 'Link dell’immagine del profilo (https://)',
  setImage: 'Imposta immagine',
  imageSet: 'La tua immagine del profilo è impostata',
  imageRuleError: 'Immagine del profilo: un URL https:// di al massimo 512 caratteri',
  'error.registerNameFirst': 'Prima registra un nome',
}

export default names
