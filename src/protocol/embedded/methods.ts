import { rpcMethodAllowList } from '../rpcMethods.ts'

/**
 * The embedded wallet's request classes (SPEC section 6): safe reads run freely, signing needs the
 * person's approval in the frame, a few wallet methods are answered by the wallet itself, and anything
 * else is refused with `Requested RPC call is not allowed`. The frame and the service both apply this
 * table: the frame to decide what to show, the service to decide what it will sign or forward.
 */

/** Methods of the proxy's allow-list that send rather than read: the embedded wallet signs its own. */
const sending = new Set(['eth_sendRawTransaction', 'sendTransaction'])
const readsOf = (namespace: string): ReadonlySet<string> =>
  new Set((rpcMethodAllowList[namespace] ?? []).filter((method) => !sending.has(method)))

/** Standard EVM reads the embedded wallet forwards to the RPC proxy without asking (its allow-list's reads). */
export const evmReadMethods = readsOf('eip155')

/** Solana reads the embedded wallet forwards without asking (the proxy's allow-list less sending). */
export const solanaReadMethods = readsOf('solana')

/** The methods of WalletConnect's bip122 namespace that need the person's approval (the Bitcoin account). */
export const bitcoinApprovalMethods = ['signMessage', 'signPsbt', 'sendTransfer'] as const
/** The bip122 method the wallet answers itself. */
export const bitcoinWalletMethods = ['getAccountAddresses'] as const

/** Methods that sign or send: the frame shows them in plain words and the person approves or rejects. */
export const approvalMethods = [
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'wallet_sendCalls',
  'eth_sendUserOperation',
  'wallet_grantPermissions',
  'wallet_requestExecutionPermissions',
  'wallet_revokePermissions',
  'solana_signMessage',
  'solana_signTransaction',
  'solana_signAndSendTransaction',
  // WalletConnect's bip122 names (the Bitcoin account, BIP-84).
  ...bitcoinApprovalMethods,
] as const
export type ApprovalMethod = (typeof approvalMethods)[number]

/** Methods the wallet answers itself, without approval: accounts, chain, capabilities, call status, assets. */
export const walletMethods = [
  'eth_accounts',
  'eth_requestAccounts',
  'eth_chainId',
  'wallet_switchEthereumChain',
  'wallet_getCapabilities',
  'wallet_getCallsStatus',
  'wallet_getAssets',
  'wallet_getGrantedExecutionPermissions',
  'solana_getAccounts',
  'solana_requestAccounts',
  ...bitcoinWalletMethods,
] as const
export type WalletMethod = (typeof walletMethods)[number]

/** What the embedded wallet does with a request. */
export type RequestClass = 'read' | 'approval' | 'wallet' | 'notAvailable' | 'refused'

const approvals = new Set<string>(approvalMethods)
const wallet = new Set<string>(walletMethods)
const bitcoinMethods = new Set<string>([...bitcoinApprovalMethods, ...bitcoinWalletMethods])

/** The namespace a wallet or approval method belongs to. */
const namespaceOfMethod = (method: string) =>
  method.startsWith('solana_') ? 'solana' : bitcoinMethods.has(method) ? 'bip122' : 'eip155'

/**
 * The class of a request on a network namespace (SPEC section 6).
 *
 * @example
 * classifyRequest('eip155', 'eth_call') // 'read'
 * classifyRequest('eip155', 'personal_sign') // 'approval'
 * classifyRequest('eip155', 'debug_traceTransaction') // 'refused'
 */
export function classifyRequest(namespace: string, method: string): RequestClass {
  if (approvals.has(method)) return namespaceOfMethod(method) === namespace ? 'approval' : 'refused'
  if (wallet.has(method)) {
    // The Bitcoin account's method is answered on bip122 only, and no other wallet method there.
    const bitcoin = bitcoinMethods.has(method)
    return bitcoin === (namespace === 'bip122') ? 'wallet' : 'refused'
  }
  if (namespace === 'eip155' && evmReadMethods.has(method)) return 'read'
  if (namespace === 'solana' && solanaReadMethods.has(method)) return 'read'
  return 'refused'
}

/**
 * The exact messages of the embedded wallet's refusals (SPEC section 8).
 *
 * @example
 * throw new Error(embeddedMessages.rpcNotAllowed)
 */
export const embeddedMessages = {
  /** A method outside the classes. */
  rpcNotAllowed: 'Requested RPC call is not allowed',
  /** An app event the frame does not accept now (signed out, or out of order). */
  actionNotAllowed: 'Action not allowed',
  /** Social login, farcaster and smart accounts, until parts 2 and 3 of the embedded wallet. */
  notAvailable: 'Not available',
  /** The person rejected the request in the frame (EIP-1193 4001). */
  userRejected: 'User rejected the request.',
} as const
