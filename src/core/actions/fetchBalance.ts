import { TokenBalanceUnavailableError } from '../../errors/index.ts'
import { rpcRequest } from '../../services/rpc.ts'
import { balanceKey } from '../balanceKey.ts'
import { BALANCE_CACHE_MS, BALANCE_RETRY_BLOCK_MS } from '../constants.ts'
import type { BalanceState, Config } from '../createConfig.ts'
import { rpcUrlFor } from '../rpcUrl.ts'

/**
 * Fetches the native balance of the connected account on its network, cached for 30 s; after a
 * failure, retries are blocked for 30 s and `Token Balance Unavailable` is reported.
 *
 * @example
 * const balance = await fetchBalance(config)
 */
export async function fetchBalance(
  config: Config,
  parameters: { force?: boolean } = {},
): Promise<BalanceState | undefined> {
  const account = config.$account.get()
  const state = config.$network.get()
  const network = state?.network
  if (!account || !network || !state.supported || network.chainNamespace !== 'eip155') return undefined
  const key = balanceKey(network.caipNetworkId, account.address)
  const now = config.platform.now()
  const cached = config.$balances.get()[key]
  if (!parameters.force && cached?.status === 'ready' && now - cached.fetchedAt < BALANCE_CACHE_MS)
    return cached
  if (!parameters.force && (config.internal.balanceBlockedUntil.get(key) ?? 0) > now) return cached
  const { decimals, symbol } = network.nativeCurrency
  config.$balances.setKey(key, {
    status: 'loading',
    value: cached?.value,
    decimals,
    symbol,
    fetchedAt: cached?.fetchedAt ?? 0,
  })
  const url = rpcUrlFor(config, network.caipNetworkId)
  try {
    if (!url) throw new Error('no RPC URL')
    const result = await rpcRequest(config.platform.fetch, url, 'eth_getBalance', [account.address, 'latest'])
    if (typeof result !== 'string' || !/^0x[0-9a-fA-F]+$/.test(result)) throw new Error('malformed balance')
    const next: BalanceState = {
      status: 'ready',
      value: BigInt(result),
      decimals,
      symbol,
      fetchedAt: config.platform.now(),
    }
    config.$balances.setKey(key, next)
    return next
  } catch (error) {
    config.internal.balanceBlockedUntil.set(key, now + BALANCE_RETRY_BLOCK_MS)
    const failed: BalanceState = { status: 'error', value: cached?.value, decimals, symbol, fetchedAt: now }
    config.$balances.setKey(key, failed)
    const base = new TokenBalanceUnavailableError({ cause: error })
    config.events.emit('error', { code: base.code, message: base.shortMessage })
    return failed
  }
}
