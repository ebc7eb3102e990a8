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
  namespaceNetworks:
    '{namespace, select, eip155 {EVM networks} solana {Solana networks} other {{namespace} networks}}',
  currentNetwork: 'Current network',
  switching: 'Approve the network switch in your wallet',
  unsupportedHint: 'Your wallet is on a network this site does not support. Switch to one of these networks.',
  token: 'Token',
  receiver: 'Receiver address',
  receiverPlaceholder: '{namespace, select, solana {Solana address} other {0x…}}',
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
  setUpRecovery: 'Set up recovery',
}

export type AccountMessageKey = keyof typeof account
/** A language's catalogue of the views after connecting: exactly the keys of English. */
export type AccountMessages = Readonly<Record<AccountMessageKey, string>>

export default account as AccountMessages
