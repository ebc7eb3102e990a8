import type { PairingMessages } from './en.ts'

const de: PairingMessages = {
  qrLabel: 'QR-Code zum Verbinden von {name}',
  qrLabelAnyWallet: 'QR-Code zum Verbinden einer Wallet',
  scanWith: 'Scanne mit {name} oder öffne den Link auf diesem Gerät',
  scanWithAnyWallet: 'Scanne mit der Wallet auf deinem Smartphone oder öffne den Link auf diesem Gerät',
  noApp: 'Du hast {name} noch nicht?',
  getIt: 'Jetzt holen',
  approveInApp: 'Bestätige die Verbindung in {name} und kehre dann hierher zurück',
  appDidNotOpen: 'Nicht geöffnet? {name} ist vielleicht nicht installiert.',
  getOnAppStore: '{name} im App Store laden',
  getOnGooglePlay: '{name} bei Google Play laden',
}

export default de
