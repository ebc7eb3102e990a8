import type { TokensResponse } from '../protocol/api/blockchain.ts'
import { CACHE_GC_MS, PORTFOLIO_CACHE_MS } from '../protocol/constants.ts'
import type { BlockchainApi } from '../services/blockchain.ts'
import type { Config } from './config.ts'
import { serviceClient } from './service.ts'

/**
 * The companion service's data API for a config, or undefined when the page set no `api-url` and
 * `project-id` (then there are no token lists, prices or swaps).
 *
 * @example
 * const api = await dataApi(config)
 * const quote = await api?.quote({ chainId, from: 'native', to: usdc, amount })
 */
export async function dataApi(config: Config): Promise<BlockchainApi | undefined> {
  const http = serviceClient(config)
  if (!http || !config.$options.get().projectId) return undefined
  const { blockchainApi } = await import('../services/blockchain.ts')
  return blockchainApi(http)
}

/**
 * The keys of the token lists a config holds (service, project, network), for tests.
 *
 * @example
 * cachedTokenLists(config) // ['http://127.0.0.1:8787 dev-project eip155:31337']
 */
export function cachedTokenLists(config: Config): string[] {
  return [...config.internal.tokenLists.keys()]
}

/**
 * A network's token list with USD prices from the companion service, kept 30 s (SPEC section 9:
 * portfolio cache); undefined without a service. A failed load is not kept, and other lists (another
 * network, service or project) fetched 5 minutes ago or more are dropped on each call.
 *
 * @example
 * const list = await tokenList(config, 'eip155:31337')
 * list?.tokens.map((token) => token.symbol) // ['USDC', 'DEV', 'WETH']
 */
export async function tokenList(config: Config, chainId: string): Promise<TokensResponse | undefined> {
  const api = await dataApi(config)
  if (!api) return undefined
  const now = config.platform.now()
  const { apiUrl, projectId } = config.$options.get()
  // Another service or project is another list.
  const key = `${apiUrl} ${projectId} ${chainId}`
  const lists = config.internal.tokenLists
  for (const [other, entry] of lists)
    if (other !== key && now - entry.fetchedAt >= CACHE_GC_MS) lists.delete(other)
  const cached = lists.get(key)
  if (cached && now - cached.fetchedAt < PORTFOLIO_CACHE_MS) return cached.list
  const list = api.tokens(chainId)
  const entry = { fetchedAt: now, list }
  lists.set(key, entry)
  list.catch(() => {
    if (lists.get(key) === entry) lists.delete(key)
  })
  return list
}
