import type { PairingMessages } from './en.ts'

const fr: PairingMessages = {
  qrLabel: 'Code QR pour connecter {name}',
  qrLabelAnyWallet: 'Code QR pour connecter un portefeuille',
  scanWith: 'Scannez avec {name} ou ouvrez le lien sur cet appareil',
  scanWithAnyWallet: 'Scannez avec le portefeuille de votre téléphone ou ouvrez le lien sur cet appareil',
  noApp: 'Vous n’avez pas {name}\u00a0?',
  getIt: 'L’obtenir',
  approveInApp: 'Approuvez la connexion dans {name}, puis revenez ici',
  appDidNotOpen: 'Rien ne s’est ouvert\u00a0? L’application {name} n’est peut-être pas installée.',
  getOnAppStore: 'Obtenir {name} sur l’App Store',
  getOnGooglePlay: 'Obtenir {name} sur Google Play',
}

export default fr
