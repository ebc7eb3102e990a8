import { TokenBalanceUnavailableError } from '../../errors/index.ts'
import { BALANCE_CACHE_MS, BALANCE_RETRY_BLOCK_MS, CACHE_GC_MS } from '../../protocol/constants.ts'
import type { Network } from '../../protocol/entities.ts'
import { balanceKey } from '../balanceKey.ts'
import type { BalanceState, Config, TokenHolding } from '../createConfig.ts'
import { networkRpc } from '../rpcUrl.ts'

async function readNative(config: Config, network: Network, address: string): Promise<bigint> {
  const rpc = networkRpc(config, network.caipNetworkId)
  if (network.chainNamespace === 'solana') {
    const { getSolBalance } = await import('../../chains/solana/balances.ts')
    return getSolBalance(rpc, address)
  }
  const result = await rpc('eth_getBalance', [address, 'latest'])
  if (typeof result !== 'string' || !/^0x[0-9a-fA-F]+$/.test(result)) throw new Error('malformed balance')
  return BigInt(result)
}

/** Token holdings other than the native currency: SPL tokens on Solana. */
async function readTokens(config: Config, network: Network, address: string): Promise<TokenHolding[]> {
  if (network.chainNamespace !== 'solana') return []
  const { getTokenBalances } = await import('../../chains/solana/balances.ts')
  const tokens = await getTokenBalances(
    networkRpc(config, network.caipNetworkId),
    network.caipNetworkId,
    address,
  )
  return tokens.map((token) => ({
    address: token.mint,
    symbol: token.symbol,
    name: token.name,
    decimals: token.decimals,
    amount: token.amount,
  }))
}

/**
 * Drops what no one has asked for in 5 minutes (SPEC section 9): balances of other accounts and
 * networks, and retry blocks that are over. Runs on each fetch, so a page left open holds at most
 * what the last 5 minutes fetched, and an idle page runs nothing.
 */
function collect(config: Config, keep: string, now: number): void {
  for (const [key, balance] of Object.entries(config.$balances.get()))
    if (key !== keep && now - balance.fetchedAt >= CACHE_GC_MS) config.$balances.setKey(key, undefined)
  for (const [key, until] of config.internal.balanceBlockedUntil)
    if (until <= now) config.internal.balanceBlockedUntil.delete(key)
}

/**
 * Fetches the balances of the connected account on its network: the native currency (ETH, SOL)
 * and, on Solana, its SPL tokens; cached for 30 s. After a failure, retries are blocked for 30 s
 * and `Token Balance Unavailable` is reported.
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
  if (!account || !network || !state.supported || network.chainNamespace !== account.namespace)
    return undefined
  const key = balanceKey(network.caipNetworkId, account.address)
  const now = config.platform.now()
  const cached = config.$balances.get()[key]
  if (!parameters.force && cached?.status === 'ready' && now - cached.fetchedAt < BALANCE_CACHE_MS)
    return cached
  if (!parameters.force && (config.internal.balanceBlockedUntil.get(key) ?? 0) > now) return cached
  collect(config, key, now)
  const { decimals, symbol } = network.nativeCurrency
  config.$balances.setKey(key, {
    status: 'loading',
    value: cached?.value,
    decimals,
    symbol,
    tokens: cached?.tokens ?? [],
    fetchedAt: cached?.fetchedAt ?? 0,
  })
  try {
    const [value, tokens] = await Promise.all([
      readNative(config, network, account.address),
      readTokens(config, network, account.address),
    ])
    const next: BalanceState = {
      status: 'ready',
      value,
      decimals,
      symbol,
      tokens,
      fetchedAt: config.platform.now(),
    }
    config.$balances.setKey(key, next)
    return next
  } catch (error) {
    config.internal.balanceBlockedUntil.set(key, now + BALANCE_RETRY_BLOCK_MS)
    const failed: BalanceState = {
      status: 'error',
      value: cached?.value,
      decimals,
      symbol,
      tokens: cached?.tokens ?? [],
      fetchedAt: now,
    }
    config.$balances.setKey(key, failed)
    const base = new TokenBalanceUnavailableError({ cause: error })
    config.events.emit('error', { code: base.code, message: base.shortMessage })
    return failed
  }
}
