import { TokenBalanceUnavailableError } from '../../errors/index.ts'
import { NATIVE_TOKEN_ADDRESS } from '../../protocol/api/blockchain.ts'
import { BALANCE_CACHE_MS, BALANCE_RETRY_BLOCK_MS, CACHE_GC_MS } from '../../protocol/constants.ts'
import type { Network } from '../../protocol/entities.ts'
import { balanceKey } from '../balanceKey.ts'
import type { BalanceState, Config, TokenHolding } from '../config.ts'
import { networkRpc } from '../rpcUrl.ts'
import { dataApi, tokenList } from '../tokenList.ts'

interface Balances {
  value: bigint
  nativePrice: number | null
  tokens: TokenHolding[]
}

/** SOL and its SPL tokens, with the service's prices where it has them. */
async function readSolana(config: Config, network: Network, address: string): Promise<Balances> {
  const { getSolBalance, getTokenBalances } = await import('../../chains/solana/balances.ts')
  const rpc = networkRpc(config, network.caipNetworkId)
  const [value, held] = await Promise.all([
    getSolBalance(rpc, address),
    getTokenBalances(rpc, network.caipNetworkId, address),
  ])
  const mints = held.map((token) => token.mint)
  // Prices are a bonus here: balances stand without them.
  const prices = await dataApi(config)
    .then((api) => api?.tokenPrices(network.caipNetworkId, [NATIVE_TOKEN_ADDRESS, ...mints]))
    .catch(() => undefined)
  const priceOf = (address: string) =>
    prices?.prices.find((entry) => entry.address === address)?.price ?? null
  return {
    value,
    nativePrice: priceOf(NATIVE_TOKEN_ADDRESS),
    tokens: held.map((token) => ({
      address: token.mint,
      symbol: token.symbol,
      name: token.name,
      decimals: token.decimals,
      amount: token.amount,
      price: priceOf(token.mint),
    })),
  }
}

/** BTC of the account's address: confirmed and pending (the mempool's change) together, from its node. */
async function readBitcoin(config: Config, network: Network, address: string): Promise<Balances> {
  const [{ bitcoinNode }, { readBitcoinBalance }] = await Promise.all([
    import('../bitcoin/node.ts'),
    import('../../chains/bip122/node.ts'),
  ])
  const node = bitcoinNode(config, network.caipNetworkId)
  const { confirmed, pending } = await readBitcoinBalance(node.fetch, node.url, node.kind, address)
  return { value: confirmed + pending, nativePrice: null, tokens: [] }
}

const READERS = { solana: readSolana, bip122: readBitcoin } as const

/**
 * Collects cache entries after 5 minutes (SPEC section 9): balances of other accounts and networks
 * fetched 5 minutes ago or more (one in use is read again every 30 s), and retry blocks that are over. Runs on each fetch, so a page left open holds at most
 * what the last 5 minutes fetched, and an idle page runs nothing.
 */
function collect(config: Config, keep: string, now: number): void {
  for (const [key, balance] of Object.entries(config.$balances.get()))
    if (key !== keep && now - balance.fetchedAt >= CACHE_GC_MS) config.$balances.setKey(key, undefined)
  for (const [key, until] of config.internal.balanceBlockedUntil)
    if (until <= now) config.internal.balanceBlockedUntil.delete(key)
}

/**
 * ETH and the tokens of the service's list that the account holds, in one multicall through the RPC
 * proxy; ETH alone without a service.
 */
async function readEvm(config: Config, network: Network, address: string): Promise<Balances> {
  const list = await tokenList(config, network.caipNetworkId)
  const { readEvmBalances } = await import('../../chains/eip155/balances.ts')
  const listed = list?.tokens ?? []
  const balances = await readEvmBalances(networkRpc(config, network.caipNetworkId), {
    account: address,
    tokens: listed.map((token) => token.address),
    multicall: list?.multicall ?? null,
  })
  return {
    value: balances.native,
    nativePrice: list?.native.price ?? null,
    tokens: listed.flatMap((token) => {
      const amount = balances.tokens.get(token.address)
      if (!amount) return []
      return [{ ...token, amount }]
    }),
  }
}

/**
 * Fetches the balances of the connected account on its network: the native currency (ETH, SOL, BTC
 * confirmed and pending) and the tokens it holds (ERC-20s of the companion service's token list, read in
 * one multicall through the RPC proxy; SPL tokens on Solana), with USD prices where the service has
 * them; cached for 30 s.
 * After a failure, retries are blocked for 30 s and `Token Balance Unavailable` is reported (a toast).
 *
 * @example
 * const balance = await fetchBalance(config)
 */
export async function fetchBalance(
  config: Config,
  parameters: {
    /** Reads now, whatever the cache, a read in flight or a retry block (after the person's own send). */
    force?: boolean
    /** Reads now past the 30 s cache (a new block came), but shares a read in flight and keeps the retry block. */
    refresh?: boolean
  } = {},
): Promise<BalanceState | undefined> {
  const account = config.$account.get()
  const state = config.$network.get()
  const network = state?.network
  if (!account || !network || !state.supported || network.chainNamespace !== account.namespace)
    return undefined
  // Reached over WalletConnect only: the wallet signs, nothing here reads their balances.
  if (network.chainNamespace === 'polkadot' || network.chainNamespace === 'cosmos') return undefined
  const key = balanceKey(network.caipNetworkId, account.address)
  const now = config.platform.now()
  const cached = config.$balances.get()[key]
  const fresh = parameters.force || parameters.refresh
  if (!fresh && cached?.status === 'ready' && now - cached.fetchedAt < BALANCE_CACHE_MS) return cached
  if (!parameters.force && (config.internal.balanceBlockedUntil.get(key) ?? 0) > now) return cached
  collect(config, key, now)
  // One read at a time per account and network: a second caller shares it (one toast, not two).
  const loads = config.internal.balanceLoads
  const running = loads.get(key)
  if (running && !parameters.force) return running
  const load = readInto(config, key, network, account.address, cached, now)
  loads.set(key, load)
  try {
    return await load
  } finally {
    if (loads.get(key) === load) loads.delete(key)
  }
}

/** Reads the balances and stores them (or the failure, with the toast and the 30 s block). */
async function readInto(
  config: Config,
  key: string,
  network: Network,
  address: string,
  cached: BalanceState | undefined,
  now: number,
): Promise<BalanceState> {
  const { decimals, symbol } = network.nativeCurrency
  config.$balances.setKey(key, {
    status: 'loading',
    value: cached?.value,
    decimals,
    symbol,
    nativePrice: cached?.nativePrice ?? null,
    tokens: cached?.tokens ?? [],
    fetchedAt: cached?.fetchedAt ?? 0,
  })
  try {
    const readBalances = READERS[network.chainNamespace as keyof typeof READERS] ?? readEvm
    const { value, nativePrice, tokens } = await readBalances(config, network, address)
    const next: BalanceState = {
      status: 'ready',
      value,
      decimals,
      symbol,
      nativePrice,
      tokens,
      fetchedAt: config.platform.now(),
    }
    config.$balances.setKey(key, next)
    return next
  } catch (error) {
    // Blocked 30 s from the failure, not from the start of a read that took its retries.
    config.internal.balanceBlockedUntil.set(key, config.platform.now() + BALANCE_RETRY_BLOCK_MS)
    const failed: BalanceState = {
      status: 'error',
      value: cached?.value,
      decimals,
      symbol,
      nativePrice: cached?.nativePrice ?? null,
      tokens: cached?.tokens ?? [],
      fetchedAt: now,
    }
    config.$balances.setKey(key, failed)
    const base = new TokenBalanceUnavailableError({ cause: error })
    config.events.emit('error', { code: base.code, message: base.shortMessage })
    return failed
  }
}
