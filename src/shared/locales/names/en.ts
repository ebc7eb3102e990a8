// The words of the name and on-ramp views (RegisterAccountName, RegisterAccountNameSuccess, OnRamp): a
// catalogue apart from ../en.ts, loaded with those views only. English keys and message formats.

const names = {
  registerNameHint: 'Choose a name people can send to instead of your address.',
  nameField: 'Name',
  checking: 'Checking…',
  nameAvailable: '{name} is available',
  nameTaken: '{name} is taken. Free names like it:',
  register: 'Register {name}',
  changeNameHint: 'Your name is {name}. Choose another one, or release it so anyone can take it.',
  releaseName: 'Release {name}',
  signInWallet: 'Sign the message in your wallet…',
  nameRegistered: '{name} is yours',
  nameRegisteredHint: 'People can now send to {name} instead of your address.',
  buyToken: 'Token',
  payWith: 'Pay with',
  card: 'Card',
  ach_bank_account: 'Bank transfer (ACH)',
  amountIn: 'Amount in {currency}',
  quoteLoading: 'Getting a quote…',
  youGet: 'You get about {amount} {symbol} (fee {fee})',
  continueToPayment: 'Continue to payment',
  checkoutOpened: 'The payment page is open in a new tab. Your tokens arrive here once you pay.',
  checkoutBlocked:
    'Your browser blocked the payment page. Open it with the button below; your tokens arrive here once you pay.',
  openCheckout: 'Open the payment page',
  purchaseArrived: '{amount} {symbol} arrived in your wallet',
  purchaseFailed: 'The payment did not go through.',
  nameRuleError: 'Wallet-side name: letters, digits and hyphens, at least 4 characters',
  amountRangeError: 'Enter an amount from {min} to {max} {currency}',
  onrampUnavailable: 'Buying crypto is not available here',
  failedWith: 'That did not work: {message}',
  imageField: 'Profile image link (https://)',
  setImage: 'Set image',
  imageSet: 'Your profile image is set',
  imageRuleError: 'Profile image: an https:// URL of at most 512 characters',
  'error.registerNameFirst': 'Register a name first',
}

export type NamesMessageKey = keyof typeof names
/** A language's catalogue of these views: exactly the keys of English. */
export type NamesMessages = Readonly<Record<NamesMessageKey, string>>

export default names as NamesMessages
