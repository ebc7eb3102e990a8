/** The few strings `<wallet-button>` shows, apart from the views' table so its first paint stays small. */
export const buttonStrings = {
  connectWallet: 'Connect Wallet',
  connecting: 'Connecting…',
  account: 'Account',
} as const
