import type { PairingMessages } from './en.ts'

const it: PairingMessages = {
  qrLabel: 'Codice QR per collegare {name}',
  qrLabelAnyWallet: 'Codice QR per collegare un wallet',
  scanWith: 'Scansiona con {name} oppure apri il link su questo dispositivo',
  scanWithAnyWallet: 'Scansiona con il wallet del telefono oppure apri il link su questo dispositivo',
  noApp: 'Non hai {name}?',
  getIt: 'Scaricalo',
  approveInApp: 'Approva la connessione in {name}, poi torna qui',
  appDidNotOpen: 'Non si è aperta? Forse l’app {name} non è installata.',
  getOnAppStore: 'Scarica {name} dall’App Store',
  getOnGooglePlay: 'Scarica {name} da Google Play',
}

export default it
