import * as z from 'zod/mini'
import { CaipNetworkIdSchema, ChainNamespaceSchema } from './caip.ts'
import { TokenBalanceSchema } from './entities.ts'
import { EmailSchema } from './rules.ts'

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

/**
 * The recent wallets list.
 *
 * @example
 * RecentWalletsSchema.parse([{ id: 'io.metamask', name: 'MetaMask' }])
 */
export const RecentWalletsSchema = z.array(
  z.object({ id: z.string(), name: z.string(), icon: z.optional(z.string()) }),
)
export type RecentWallet = z.infer<typeof RecentWalletsSchema>[number]

/**
 * Last connector id per namespace; only connected namespaces have one.
 *
 * @example
 * ConnectorIdsSchema.parse({ eip155: 'io.metamask' })
 */
export const ConnectorIdsSchema = z.partialRecord(ChainNamespaceSchema, z.string())

const cacheOf = <T extends z.ZodMiniType>(value: T) =>
  z.record(z.string(), z.object({ timestamp: z.number(), value }))

/**
 * Cache of native balances by CAIP-10 address.
 *
 * @example
 * BalanceCacheSchema.parse({ 'eip155:1:0xab16…': { timestamp: Date.now(), value: { balance: '1.5', symbol: 'ETH' } } })
 */
export const BalanceCacheSchema = cacheOf(z.object({ balance: z.string(), symbol: z.string() }))

/**
 * Cache of token balances by CAIP-10 address.
 *
 * @example
 * PortfolioCacheSchema.parse({ 'eip155:1:0xab16…': { timestamp: Date.now(), value: [] } })
 */
export const PortfolioCacheSchema = cacheOf(z.array(TokenBalanceSchema))

/**
 * Cache of name-service lookups: the addresses a name resolves to.
 *
 * @example
 * NameCacheSchema.parse({ 'ada.wallet': { timestamp: Date.now(), value: ['0xab16…'] } })
 */
export const NameCacheSchema = cacheOf(z.array(z.string()))

/**
 * Cache of identities (profile name and avatar) by address.
 *
 * @example
 * IdentityCacheSchema.parse({ '0xab16…': { timestamp: Date.now(), value: { name: 'ada', avatar: null } } })
 */
export const IdentityCacheSchema = cacheOf(
  z.object({ name: z.nullable(z.string()), avatar: z.nullable(z.string()) }),
)

/**
 * What each key stores, to validate values read back (another script may have written them).
 *
 * @example
 * storage.get(StorageKey.recentWallets, StorageSchemas[StorageKey.recentWallets])
 */
export const StorageSchemas = {
  [StorageKey.lastChain]: CaipNetworkIdSchema,
  [StorageKey.loginEmailUsed]: z.boolean(),
  [StorageKey.email]: EmailSchema,
  [StorageKey.socialUsername]: z.string(),
  [StorageKey.smartAccountNetworks]: z.array(CaipNetworkIdSchema),
  [StorageKey.recentWallets]: RecentWalletsSchema,
  [StorageKey.connectedNamespaces]: z.array(ChainNamespaceSchema),
  [StorageKey.connectionStatus]: ConnectionStatusSchema,
  [StorageKey.disconnected]: z.boolean(),
  [StorageKey.connector]: ConnectorIdsSchema,
  [StorageKey.siwxAuthToken]: z.string(),
  [StorageKey.siwxNonceToken]: z.string(),
  [StorageKey.balanceCache]: BalanceCacheSchema,
  [StorageKey.portfolioCache]: PortfolioCacheSchema,
  [StorageKey.nameCache]: NameCacheSchema,
  [StorageKey.identityCache]: IdentityCacheSchema,
} as const satisfies Record<StorageKey, z.ZodMiniType>

/** The type stored under a key. */
export type StorageValue<K extends StorageKey> = z.output<(typeof StorageSchemas)[K]>
