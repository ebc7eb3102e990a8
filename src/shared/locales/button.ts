/**
 * The English words `<wallet-button>` shows at first paint, so an English page fetches no
 * catalogue before the first click. Other languages take them from their catalogue.
 */
export const buttonStrings = {
  connectWallet: 'Connect Wallet',
  connecting: 'Connecting…',
  account: 'Account',
} as const
