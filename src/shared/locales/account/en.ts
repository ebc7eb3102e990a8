// The words of the views after connecting (Account, Send, Swap, Networks, UnsupportedChain). A
// catalogue apart from ../en.ts, loaded with those views (`AccountScope`), so the dialog's first open
// never fetches them. English keys and message formats, as in ../en.ts.

const account = {
  copyAddress: 'Copy address',
  addressCopied: 'Address copied',
  tokens: 'Tokens',
  network: 'Network',
  unknownNetwork: 'Network {id}',
  totalValue: 'Total value',
  otherAccounts: 'Other accounts',
  namespaceNetworks:
    '{namespace, select, eip155 {EVM networks} solana {Solana networks} bip122 {Bitcoin networks} polkadot {Polkadot networks} cosmos {Cosmos networks} other {{namespace} networks}}',
  currentNetwork: 'Current network',
  switching: 'Approve the network switch in your wallet',
  unsupportedHint: 'Your wallet is on a network this site does not support. Switch to one of these networks.',
  token: 'Token',
  receiver: 'Receiver address',
  receiverPlaceholder: '{namespace, select, solana {Solana address} bip122 {Bitcoin address} other {0x…}}',
  feeSpeed: 'Network fee',
  feeSpeedChoice:
    '{speed, select, slow {Slow, about an hour} normal {Normal, about 30 minutes} other {Fast, about 10 minutes}}',
  max: 'Max',
  available: 'Available: {amount}',
  sendWaiting: 'Approve the transaction in your wallet',
  sent: 'Sent {amount} to {receiver}',
  viewTransaction: 'View on explorer',
  done: 'Done',
  availableWithValue: 'Available: {amount} (≈ {value})',
  amountValue: '≈ {value}',
  swapFrom: 'You pay',
  swapTo: 'You receive',
  switchTokens: 'Switch tokens',
  quoting: 'Getting a quote…',
  expectedOutput: 'Expected output',
  priceImpact: 'Price impact',
  minimumReceived: 'Minimum received ({percent} slippage)',
  networkFee: 'Network fee',
  approveAndSwap: 'Approve {symbol} and swap',
  approveWaiting: 'Approve {symbol} in your wallet',
  swapWaiting: 'Confirm the swap in your wallet',
  swapped: 'Swapped {paid} for {received}',
  'error.nameNotFound': '{name} is not a registered name',
  'error.WalletNoTransactionError': 'The wallet returned no transaction',
  accountType: 'Account type',
  eoaAccount: 'EOA',
  smartAccount: 'Smart account',
  smartAccountDeployed: 'Deployed',
  smartAccountNotDeployed: 'Not deployed yet: your first transaction deploys it',
  switchToSmartAccount: 'Switch to a smart account',
  switchToEoa: 'Switch to the EOA',
  smartAccountUnsupported: 'This application might not support Smart Accounts',
  passkeys: 'Passkeys',
  exportWallet: 'Export wallet',
  deleteWallet: 'Delete wallet',
  recoveryMissing: 'No recovery set up: if you lose this browser, you lose this wallet.',
  recoveryMissingFunded:
    'This wallet holds funds and has no recovery: if you lose this browser, they are lost. Set up recovery now.',
  recoveryOperatorHolds:
    'This site can still recover this wallet, and so could sign for it: set up your own recovery.',
  setUpRecovery: 'Set up recovery',
  permissionsTitle: 'Permissions',
  permissionsHint: 'What this site may do for you without asking',
  permissionsLoading: 'Loading permissions…',
  permissionAllowance:
    '{amount} {symbol} {per, select, total {in all} hour {an hour} day {a day} week {a week} month {a month} other {every {days, plural, one {# day} other {# days}}}}',
  permissionContract: 'Call {functions} on {contract}',
  permissionValueCap: 'Up to {amount} {symbol} per action',
  permissionCallLimit: 'At most {count, plural, one {# action} other {# actions}}',
  permissionUntil: 'Until {time}',
  permissionUsed: 'Used {spent} of {amount} {symbol}{per, select, period { this period} other {}}',
  permissionActions: '{count, plural, one {# action} other {# actions}}',
  permissionAllowanceUsed: 'Stopped: this period’s allowance is used up, until {time}',
  permissionAllowanceUsedNoTime: 'Stopped: this period’s allowance is used up',
  permissionRevoked: 'Revoked',
  permissionExpired: 'Expired',
  permissionCallLimitReached: 'All its actions are used',
  permissionNotStarted: 'Not started yet',
  revokePermission: 'Revoke',
  permissionRevoking: 'Revoking…',
}

export type AccountMessageKey = keyof typeof account
/** A language's catalogue of the views after connecting: exactly the keys of English. */
export type AccountMessages = Readonly<Record<AccountMessageKey, string>>

export default account as AccountMessages
