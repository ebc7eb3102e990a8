// The ConnectingWalletConnect views' own words (the QR code's label, what to scan with, where to get
// the app, whether it opened on a phone), a catalogue apart from ../en.ts, loaded with those views, so
// the dialog's first open carries none of it. English keys and message formats, as in ../en.ts.

const pairing = {
  qrLabel: 'QR code to connect {name}',
  qrLabelAnyWallet: 'QR code to connect a wallet',
  scanWith: 'Scan with {name}, or open the link on this device',
  scanWithAnyWallet: 'Scan with your phone wallet, or open the link on this device',
  noApp: "Don't have {name}?",
  getIt: 'Get it',
  approveInApp: 'Approve the connection in {name}, then come back here',
  appDidNotOpen: "Didn't open? {name} may not be installed.",
  getOnAppStore: 'Get {name} on the App Store',
  getOnGooglePlay: 'Get {name} on Google Play',
}

export type PairingMessageKey = keyof typeof pairing
/** A language's pairing catalogue: exactly the keys of English. */
export type PairingMessages = Readonly<Record<PairingMessageKey, string>>

export default pairing as PairingMessages
