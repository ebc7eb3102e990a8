// The name and on-ramp views' words in de (keys of ./en.ts).
import type { NamesMessages } from './en.ts'

const names: NamesMessages = {
  registerNameHint: 'Wähle einen Namen, an den andere statt an deine Adresse senden können.',
  nameField: 'Name',
  checking: 'Wird geprüft…',
  nameAvailable: '{name} ist frei',
  nameTaken: '{name} ist vergeben. Freie ähnliche Namen:',
  register: '{name} registrieren',
  changeNameHint:
    'Dein Name ist {name}. Wähle einen anderen oder gib ihn frei, damit ihn jemand anderes nehmen kann.',
  releaseName: '{name} freigeben',
  signInWallet: 'Signiere die Nachricht in deiner Wallet…',
  nameRegistered: '{name} gehört dir',
  nameRegisteredHint: 'Andere können jetzt an {name} statt an deine Adresse senden.',
  buyToken: 'Token',
  payWith: 'Bezahlen mit',
  card: 'Karte',
  ach_bank_account: 'Banküberweisung (ACH)',
  amountIn: 'Betrag in {currency}',
  quoteLoading: 'Angebot wird geladen…',
  youGet: 'Du erhältst etwa {amount} {symbol} (Gebühr {fee})',
  continueToPayment: 'Weiter zur Zahlung',
  checkoutOpened:
    'Die Zahlungsseite ist in einem neuen Tab geöffnet. Deine Token kommen hier an, sobald du bezahlt hast.',
  checkoutBlocked:
    'Dein Browser hat die Zahlungsseite blockiert. Öffne sie mit der Schaltfläche unten; deine Token kommen hier an, sobald du bezahlt hast.',
  openCheckout: 'Zahlungsseite öffnen',
  purchaseArrived: '{amount} {symbol} sind in deiner Wallet angekommen',
  purchaseFailed: 'Die Zahlung ist nicht durchgegangen.',
  nameRuleError: 'Wallet-Name: Buchstaben, Ziffern und Bindestriche, mindestens 4 Zeichen',
  amountRangeError: 'Gib einen Betrag von {min} bis {max} {currency} ein',
  onrampUnavailable: 'Krypto kaufen ist hier nicht verfügbar',
  failedWith: 'Das hat nicht geklappt: {message}',
  imageField: 'Link zum Profilbild (https://)',
  setImage: 'Bild festlegen',
  imageSet: 'Dein Profilbild ist festgelegt',
  imageRuleError: 'Profilbild: eine https://-URL mit höchstens 512 Zeichen',
  'error.registerNameFirst': 'Registriere zuerst einen Namen',
}

export default names
