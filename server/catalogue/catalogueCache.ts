import type { GetWalletsParameters, GetWalletsResponse } from '../../src/protocol/api/index.ts'
import { apiLimits } from '../../src/protocol/api/index.ts'
import { createTtlCache } from '../cache.ts'
import type { Db } from '../db/database.ts'
import { getWallets } from './getWallets.ts'

export interface CatalogueReader {
  getWallets(parameters: GetWalletsParameters): Promise<GetWalletsResponse>
}

/** The cache key of a query: defaults filled in, lists sorted (their order does not change the answer). */
function keyOf(parameters: GetWalletsParameters): string {
  const list = (values: readonly string[] | undefined) => [...new Set(values ?? [])].sort().join(',')
  return JSON.stringify([
    parameters.page ?? 1,
    parameters.entries ?? apiLimits.defaultEntries,
    list(parameters.include),
    list(parameters.exclude),
    parameters.search?.trim().toLowerCase() ?? '',
    parameters.badge_type === 'certified' ? 'certified' : '',
    list(parameters.chains),
  ])
}

/**
 * Catalogue pages through a short per-instance cache: the catalogue changes only when an admin uses the
 * CLI, and every visitor's first page is the same query.
 *
 * @example
 * const catalogue = createCatalogueReader(db, { ttlMs: 5000 })
 * const page = await catalogue.getWallets({ page: 1 })
 */
export function createCatalogueReader(db: Db, options: { ttlMs: number }): CatalogueReader {
  const cache = createTtlCache<GetWalletsResponse>({ ttlMs: options.ttlMs, maxEntries: 500 })
  return {
    getWallets: (parameters) => cache.get(keyOf(parameters), () => getWallets(db, parameters)),
  }
}
