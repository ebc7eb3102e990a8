import * as z from 'zod/mini'

// The storage keys and the one value the first paint reads (whether to reconnect); storage.ts
// re-exports them beside the schema of every key, which stays off the first paint.

/**
 * Prefix of every browser-stored key (SPEC 3).
 *
 * @example
 * localStorage.getItem(`${STORAGE_PREFIX}${StorageKey.lastChain}`)
 */
export const STORAGE_PREFIX = '@wallet-elements/'

/**
 * Names of the browser-stored keys (SPEC 3), without {@link STORAGE_PREFIX}.
 *
 * @example
 * storage.set(StorageKey.lastChain, 'eip155:1')
 */
export const StorageKey = {
  /** Last-used network (CAIP-2). */
  lastChain: 'last-chain',
  /** Set once an e-mail login was used on this device. */
  loginEmailUsed: 'login-email-used',
  /** E-mail of the embedded-wallet user. */
  email: 'email',
  /** Username from the social provider. */
  socialUsername: 'social-username',
  /** Networks where the embedded wallet offers a smart account. */
  smartAccountNetworks: 'smart-account-networks',
  /** Wallets connected last, newest first. */
  recentWallets: 'recent-wallets',
  /** Namespaces connected when the page was left. */
  connectedNamespaces: 'connected-namespaces',
  /** Overall connection status when the page was left. */
  connectionStatus: 'connection-status',
  /** Set on an explicit disconnect, so the next visit does not reconnect. */
  disconnected: 'disconnected',
  /** Last connector id per namespace. */
  connector: 'connector',
  /** Sign-in (SIWX) session token. */
  siwxAuthToken: 'siwx-auth-token',
  /** Sign-in (SIWX) nonce token. */
  siwxNonceToken: 'siwx-nonce-token',
  /** Native balance per CAIP-10 address. */
  balanceCache: 'balance-cache',
  /** Token balances per CAIP-10 address. */
  portfolioCache: 'portfolio-cache',
  /** Name-service lookups per name. */
  nameCache: 'name-cache',
  /** Identity (name and avatar) per address. */
  identityCache: 'identity-cache',
} as const
export type StorageKey = (typeof StorageKey)[keyof typeof StorageKey]

/**
 * Connection status of a namespace (SPEC 4).
 *
 * @example
 * ConnectionStatusSchema.parse('reconnecting')
 */
export const ConnectionStatusSchema = z.enum(['disconnected', 'connecting', 'connected', 'reconnecting'])
export type ConnectionStatus = z.infer<typeof ConnectionStatusSchema>
