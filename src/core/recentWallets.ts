import type { RecentWallet } from '../protocol/recentWallets.ts'
import { RecentWalletsSchema } from '../protocol/recentWallets.ts'
import { StorageKey } from '../protocol/storageKeys.ts'
import type { Config } from './config.ts'

/**
 * The wallets connected last (2 kept, newest first).
 *
 * @example
 * recentWallets(config)[0]?.name
 */
export function recentWallets(config: Config): readonly RecentWallet[] {
  return config.storage.get(StorageKey.recentWallets, RecentWalletsSchema) ?? []
}
