/**
 * English, the reference catalogue: every key a view shows is here, and every other language has
 * exactly these keys (checked by test/unit/ui/locales.test.ts). Messages use the ICU subset of
 * `src/shared/i18n/message.ts`: `{name}`, `{count, plural, one {…} other {…}}`, `{kind, select, …}`.
 * `error.<id>` entries are the error catalogue's messages (`messageId` of src/errors), in SPEC's
 * exact English.
 */
import type { AccountMessageKey } from './account/en.ts'
import type { ActivityMessageKey } from './activity/en.ts'
import type { EmbeddedMessageKey } from './embedded/en.ts'
import type { NamesMessageKey } from './names/en.ts'
import type { PairingMessageKey } from './pairing/en.ts'

const en = {
  // <wallet-button>
  connectWallet: 'Connect Wallet',
  connecting: 'Connecting…',
  account: 'Account',

  // The dialog
  walletDialog: 'Wallet',
  // The name the site's wallet is announced under to the page (EIP-6963, Wallet Standard): {site} is the host
  siteWallet: '{site} Wallet',
  close: 'Close',
  back: 'Back',
  loading: 'Loading…',
  signInOrDisconnectToClose: 'Sign in or disconnect to close',

  // Connect and AllWallets
  recent: 'Recent',
  browserWallets: 'Browser wallets',
  installed: 'Installed',
  noBrowserWallets: 'No browser wallet found',
  noBrowserWalletsHint: 'Install a browser wallet extension, then reload this page.',
  popularWallets: 'Popular wallets',
  allWallets: 'All wallets',
  walletCount: '{count, plural, one {# wallet} other {# wallets}}',
  catalogueFailed: 'Could not load the wallet list',
  loadingWallets: 'Loading wallets…',
  loadingMore: 'Loading more wallets…',
  searchWallets: 'Search wallets',
  noWalletsFound: 'No wallets found',
  noWalletsFoundHint: 'Try another name.',
  tryAgain: 'Try again',
  walletConnect: 'WalletConnect',
  scanWithPhone: 'Scan with your phone',

  // ConnectingExternal
  continueIn: 'Continue in {name}',
  continueInWallet: 'Continue in your wallet',
  acceptInWallet: 'Accept the connection request in your wallet',
  connectionDeclined: 'Connection declined',
  declinedHint: 'You declined the request in your wallet. You can try again.',
  connectionFailed: 'Connection failed',

  // ConnectingWalletConnect (QR code and links; the rest is in ./pairing/, loaded with those views)
  preparingLink: 'Preparing the link…',
  copyLink: 'Copy link',
  linkCopied: 'Link copied',
  openApp: 'Open {name}',

  // SIWXSignMessage
  signIn: 'Sign in',
  signInTitle: 'Sign in to {host}',
  signInHint: 'Sign a message with {address} to prove it is yours. It costs nothing.',
  signInWaiting: 'Sign the message in your wallet',
  cancel: 'Cancel',
  cancelAndDisconnect: 'Cancel and disconnect',

  // The views after connecting: their titles and what the shell and button show (the rest is in
  // ./account/, loaded with those views)
  balance: 'Balance',
  send: 'Send',
  disconnect: 'Disconnect',
  swap: 'Swap',
  registerName: 'Register a name',
  changeName: 'Change name',
  signInWithFarcaster: 'Sign in with Farcaster',
  buyCrypto: 'Buy crypto',
  dismiss: 'Dismiss',
  selectNetwork: 'Select network',
  unsupportedChain: 'Unsupported chain',
  amount: 'Amount',

  // E-mail sign-in: the views' titles (the rest is in ./embedded/, loaded with those views)
  enterCode: 'Enter the code',
  approveBrowser: 'Approve this browser',
  approveRequest: 'Approve request',
  updateEmail: 'Update e-mail',
  signOutEverywhere: 'Sign out everywhere',

  // The error catalogue (src/errors and the chains' errors), by messageId
  'error.UnknownError': 'An error occurred',
  'error.RequestAbortedError': 'Request was aborted',
  'error.SomethingWentWrongError': 'Something went wrong',
  'error.ChainNotSupportedError': 'Chain is not supported',
  'error.SwapsNetworkNotSupportedError': 'Network not supported for Swaps',
  'error.GasPriceNetworkNotSupportedError': 'Network not supported for Gas Price',
  'error.UnsupportedChainError': 'Unsupported chain',
  'error.FailedToDisconnectError': 'Failed to disconnect',
  'error.UnrecognizedChainError': 'Unrecognized chain',
  'error.InvalidChainIdError': 'Invalid chain id',
  'error.InvalidAppConfigurationError': 'Invalid App Configuration',
  'error.NetworkNotFoundError': 'Network Not Found',
  'error.InvalidProjectIdError': 'Invalid Project ID',
  'error.ProjectIdNotConfiguredError': 'Project ID Not Configured',
  'error.TransactionsFetchError': 'Failed to fetch transactions',
  'error.TokenBalanceUnavailableError': 'Token Balance Unavailable',
  'error.EmailCooldownError': 'Please try again after {seconds} seconds',
  'error.EmbeddedWalletLoadError': 'Network Error - could not load embedded wallet',
  'error.EmbeddedRequestTimeoutError': 'Embedded Wallet Request Timed Out',
  'error.EmailLoginDependencyError': 'Unable to load email login dependency',
  'error.RpcMethodNotAllowedError': 'Requested RPC call is not allowed',
  'error.ActionNotAllowedError': 'Action not allowed',
  'error.ExecutionRevertedError': 'Execution reverted',
  'error.FeeCapTooHighError': 'Max fee per gas is too high',
  'error.FeeCapTooLowError': 'Max fee per gas is below the block base fee',
  'error.NonceTooHighError': 'Nonce is too high',
  'error.NonceTooLowError': 'Nonce is too low',
  'error.NonceMaxValueError': 'Nonce has reached its maximum value',
  'error.InsufficientFundsError': 'Insufficient funds for gas and value',
  'error.IntrinsicGasTooHighError': 'Gas limit is too high',
  'error.IntrinsicGasTooLowError': 'Gas limit is too low',
  'error.TransactionTypeNotSupportedError': 'Transaction type is not supported',
  'error.TipAboveFeeCapError': 'Max priority fee is above max fee per gas',
  'error.UserRejectedRequestError': 'User rejected the request.',
  'error.RequestTimeoutError': 'Request timed out',
  'error.InvalidResponseError': 'Invalid response',
  'error.ProviderDisconnectedError': 'The provider is disconnected',
  'error.SessionExpiredError': 'Session Expired',
  'error.SignatureDeclinedError': 'Signature declined',
  'error.SmartAccountNotSupportedError': 'This application might not support Smart Accounts',
  'error.AuthenticationInitError': 'A problem occurred while trying initialize authentication',
  'error.InsufficientTokenBalanceError': 'Insufficient token balance',
  'error.TransactionFailedError': 'Transaction failed',
  'error.TransactionConfirmationTimeoutError': 'Transaction was not confirmed in time',
  'error.amountAndReceiverRequired': 'An amount and receiver address are required',
  'error.tokenRequired': 'A token is required',
  'error.connectFirst': 'Connect a wallet first',
  'error.invalidAmount': 'Invalid amount',
  'error.amountNotPositive': 'Amount must be greater than zero',
  'error.amountTooLarge': 'Amount is too large',
  'error.insufficientBalance': 'Insufficient balance',
  'error.invalidEvmAddress': 'Invalid EVM address',
  'error.invalidBitcoinAddress': 'Invalid Bitcoin address',
  'error.invalidSolanaAddress': 'Invalid Solana address',
  'error.tokenDecimalsMismatch': 'The token has {actual} decimals, not {expected}',
  'error.sendNotSupported': 'Sending on {namespace} is not supported',
  'error.transactionReverted': 'The transaction reverted',
  'error.notConfirmedYet': 'The transaction was sent but not confirmed yet',
  'error.noTransactionHash': 'The wallet returned no transaction hash',
  'error.noSignature': 'The wallet returned no signature',
  'error.noWalletService': 'No wallet service configured',
  'error.SwapQuoteExpiredError': 'The quote expired: check the new quote, then swap',
  'error.SwapNoLiquidityError': 'Not enough liquidity for this swap',
  'error.differentTokens': 'Choose two different tokens',
  'error.quoteFirst': 'Get a quote first',
}

/** A key of the modal's catalogues: this one's, or the embedded wallet's (./embedded/en.ts). */
export type MessageKey =
  | keyof typeof en
  | AccountMessageKey
  | EmbeddedMessageKey
  | NamesMessageKey
  | ActivityMessageKey
  | PairingMessageKey
/** A language's catalogue: exactly the keys of English. */
export type Messages = Readonly<Record<keyof typeof en, string>>

export default en as Messages
