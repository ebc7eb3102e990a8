import * as z from 'zod/mini'
import { CaipNetworkIdSchema, ChainNamespaceSchema } from './caip.ts'
import { TokenBalanceSchema } from './entities.ts'
import { RecentWalletsSchema } from './recentWallets.ts'
import { EmailSchema } from './rules.ts'
import { ConnectionStatusSchema, StorageKey } from './storageKeys.ts'

export { type RecentWallet, RecentWalletsSchema } from './recentWallets.ts'

export {
  type ConnectionStatus,
  ConnectionStatusSchema,
  STORAGE_PREFIX,
  StorageKey,
} from './storageKeys.ts'

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
