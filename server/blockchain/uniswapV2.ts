import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  encodePacked,
  getContractAddress,
  type Hex,
  keccak256,
  parseAbi,
} from 'viem'
import type { BuiltTransaction, SwapQuote } from '../../src/protocol/api/index.ts'
import { NATIVE_TOKEN_ADDRESS } from '../../src/protocol/api/index.ts'
import { SLIPPAGE_PERCENT, SWAP_QUOTE_TTL_MS } from '../../src/protocol/constants.ts'
import { badRequest } from '../errors.ts'
import type { ChainAnswer, ChainCall, ChainReader } from './chainReader.ts'
import { dataError } from './errors.ts'
import type { ConfiguredToken, NetworkTokenList } from './tokenLists.ts'

const routerAbi = parseAbi([
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
])
const pairAbi = parseAbi([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
])
const erc20Abi = parseAbi([
  'function allowance(address owner, address spender) view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
])

/**
 * Gas a swap is quoted with when it cannot be estimated for the user yet (no address, or the approval
 * is still to come): on the local pools `eth_estimateGas` gave 139,000 to 179,000 for one pool (less
 * is used after refunds) and 231,000 for two; rounded up.
 */
export const DEFAULT_SWAP_GAS = { onePool: 180_000n, perExtraPool: 60_000n } as const

/** How long a built swap may wait for its block before the router refuses it, in seconds. */
const DEADLINE_SECONDS = 20 * 60

/** A swap side: a listed ERC-20, or the native currency (through WETH). */
interface Side {
  /** As the client named it (`native` or the token's address). */
  name: string
  /** The ERC-20 the pools hold (WETH for the native currency). */
  token: Address
  native: boolean
}

interface Reserves {
  /** Of the pair's first token, then its second, by the path's direction. */
  reserveIn: bigint
  reserveOut: bigint
}

export interface QuoteParameters {
  from: string
  to: string
  amountIn: bigint
  userAddress?: string | undefined
}

export interface BuildSwapParameters {
  from: string
  to: string
  amountIn: bigint
  userAddress: string
  minimumReceived: bigint
}

/** Swaps on one network through a Uniswap V2 deployment. */
export interface UniswapV2Market {
  /** The router: the contract an ERC-20 must be approved for. */
  readonly spender: Address
  quote(parameters: QuoteParameters): Promise<SwapQuote>
  buildSwap(parameters: BuildSwapParameters): Promise<{ transaction: BuiltTransaction; quote: SwapQuote }>
  buildApprove(token: string, amount: bigint): BuiltTransaction
  allowance(token: string, owner: string): Promise<bigint>
  /** The pair's reserves of `a` and `b` (0 and 0 when there is no pool), for prices. */
  reserves(pairs: readonly [Address, Address][]): Promise<Reserves[]>
}

/**
 * Where a Uniswap V2 factory puts the pair of `a` and `b` (CREATE2 over the sorted pair), as its router
 * computes it: the pair may not exist yet.
 *
 * @example
 * const pair = uniswapV2PairAddress(factory, UNISWAP_V2_INIT_CODE_HASH, weth, usdc)
 */
export function uniswapV2PairAddress(factory: Address, initCodeHash: Hex, a: Address, b: Address): Address {
  const [token0, token1] = a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a]
  return getContractAddress({
    opcode: 'CREATE2',
    from: factory,
    salt: keccak256(encodePacked(['address', 'address'], [token0, token1])),
    bytecodeHash: initCodeHash,
  })
}

/** Decodes an eth_call answer, or undefined when it reverted or returned nothing. */
function decoded<T>(answer: ChainAnswer | undefined, decode: (data: Hex) => T): T | undefined {
  if (!answer?.ok || typeof answer.result !== 'string' || answer.result === '0x') return undefined
  try {
    return decode(answer.result as Hex)
  } catch {
    return undefined
  }
}

const ethCall = (to: Address, data: Hex, from?: string): ChainCall => ({
  method: 'eth_call',
  params: [{ ...(from ? { from } : {}), to, data }, 'latest'],
})

/**
 * Swaps and pool reserves of a network's Uniswap V2 market (factory, router 02, WETH): quotes from the
 * router's `getAmountsOut`, the best of the direct pool and one hop through WETH or the stablecoin.
 *
 * @example
 * const market = uniswapV2Market('eip155:31337', list, reader)
 * const quote = await market.quote({ from: 'native', to: usdc, amountIn: 10n ** 17n })
 */
export function uniswapV2Market(
  chainId: string,
  list: NetworkTokenList & { uniswapV2: NonNullable<NetworkTokenList['uniswapV2']> },
  reader: ChainReader,
  now: () => number = Date.now,
): UniswapV2Market {
  const { factory, router, weth, initCodeHash } = list.uniswapV2
  const byAddress = new Map<string, ConfiguredToken>(
    list.tokens.map((token) => [token.address.toLowerCase(), token]),
  )
  const hubs = [weth, list.stablecoin].filter((hub): hub is Address => hub !== undefined) as Address[]

  const pairAddress = (a: Address, b: Address) => uniswapV2PairAddress(factory, initCodeHash as Hex, a, b)

  const side = (name: string, field: string): Side => {
    if (name === NATIVE_TOKEN_ADDRESS) return { name, token: weth, native: true }
    const token = byAddress.get(name.toLowerCase())
    if (!token) throw badRequest(field, `Invalid query parameter ${field}: not a token of ${chainId}'s list`)
    return { name: token.address, token: token.address as Address, native: false }
  }

  const reserveCalls = (pairs: readonly [Address, Address][]) =>
    pairs.map(([a, b]) =>
      ethCall(pairAddress(a, b), encodeFunctionData({ abi: pairAbi, functionName: 'getReserves' })),
    )
  const reservesOf = (pairs: readonly [Address, Address][], answers: ChainAnswer[]): Reserves[] =>
    pairs.map(([a, b], index) => {
      const reserves = decoded(answers[index], (data) =>
        decodeFunctionResult({ abi: pairAbi, functionName: 'getReserves', data }),
      )
      if (!reserves) return { reserveIn: 0n, reserveOut: 0n }
      const [reserve0, reserve1] = reserves
      return a.toLowerCase() < b.toLowerCase()
        ? { reserveIn: reserve0, reserveOut: reserve1 }
        : { reserveIn: reserve1, reserveOut: reserve0 }
    })

  /** The routes, their amounts out and the reserves along them, in one round trip (plus `extra` calls). */
  async function route(from: Side, to: Side, amountIn: bigint, extra: readonly ChainCall[] = []) {
    if (from.token.toLowerCase() === to.token.toLowerCase())
      throw badRequest('to', 'Invalid query parameter to: the same token as from')
    if (amountIn <= 0n) throw badRequest('amount', 'Invalid query parameter amount: Expected more than 0')
    const paths: Address[][] = [[from.token, to.token]]
    for (const hub of hubs) {
      if (hub.toLowerCase() !== from.token.toLowerCase() && hub.toLowerCase() !== to.token.toLowerCase())
        paths.push([from.token, hub, to.token])
    }
    const pairs = paths.flatMap((path) =>
      path.slice(1).map((next, hop) => [path[hop], next] as [Address, Address]),
    )
    const answers = await reader.batch(chainId, [
      ...paths.map((path) =>
        ethCall(
          router,
          encodeFunctionData({ abi: routerAbi, functionName: 'getAmountsOut', args: [amountIn, path] }),
        ),
      ),
      ...reserveCalls(pairs),
      ...extra,
    ])
    const reserves = reservesOf(pairs, answers.slice(paths.length))
    let best: { path: Address[]; amountOut: bigint; reserves: Reserves[] } | undefined
    let pairIndex = 0
    paths.forEach((path, index) => {
      const hops = path.length - 1
      const along = reserves.slice(pairIndex, pairIndex + hops)
      pairIndex += hops
      const amounts = decoded(answers[index], (data) =>
        decodeFunctionResult({ abi: routerAbi, functionName: 'getAmountsOut', data }),
      )
      const amountOut = amounts?.[amounts.length - 1] ?? 0n
      if (amountOut > 0n && (!best || amountOut > best.amountOut)) best = { path, amountOut, reserves: along }
    })
    if (!best) throw dataError('SWAP_NO_LIQUIDITY', 422)
    return { ...best, extra: answers.slice(paths.length + pairs.length) }
  }

  function toQuote(
    from: Side,
    to: Side,
    amountIn: bigint,
    found: { path: Address[]; amountOut: bigint; reserves: Reserves[] },
    gas: bigint,
  ): SwapQuote {
    // What the pools would give at their mid prices, fees taken: the rest is the price impact.
    let ideal = amountIn
    for (const { reserveIn, reserveOut } of found.reserves) {
      ideal = reserveIn === 0n ? 0n : (ideal * reserveOut * 997n) / (reserveIn * 1000n)
    }
    const impact =
      ideal > found.amountOut ? Number(((ideal - found.amountOut) * 1_000_000n) / ideal) / 10_000 : 0
    return {
      chainId,
      from: from.name,
      to: to.name,
      amountIn: amountIn.toString(),
      amountOut: found.amountOut.toString(),
      minimumReceived: ((found.amountOut * BigInt(100 - SLIPPAGE_PERCENT)) / 100n).toString(),
      slippagePercent: SLIPPAGE_PERCENT,
      priceImpactPercent: impact,
      path: found.path,
      gas: gas.toString(),
      spender: router,
      expiresAt: now() + SWAP_QUOTE_TTL_MS,
    }
  }

  const defaultGas = (path: readonly Address[]) =>
    DEFAULT_SWAP_GAS.onePool + DEFAULT_SWAP_GAS.perExtraPool * BigInt(path.length - 2)

  function swapTransaction(
    from: Side,
    to: Side,
    amountIn: bigint,
    minimumReceived: bigint,
    path: Address[],
    user: string,
  ): BuiltTransaction {
    const deadline = BigInt(Math.floor(now() / 1000) + DEADLINE_SECONDS)
    const recipient = user as Address
    const data = from.native
      ? encodeFunctionData({
          abi: routerAbi,
          functionName: 'swapExactETHForTokens',
          args: [minimumReceived, path, recipient, deadline],
        })
      : to.native
        ? encodeFunctionData({
            abi: routerAbi,
            functionName: 'swapExactTokensForETH',
            args: [amountIn, minimumReceived, path, recipient, deadline],
          })
        : encodeFunctionData({
            abi: routerAbi,
            functionName: 'swapExactTokensForTokens',
            args: [amountIn, minimumReceived, path, recipient, deadline],
          })
    return { from: user, to: router, data, value: from.native ? amountIn.toString() : '0' }
  }

  /** Gas for the swap as `user` would send it, or undefined when the chain says it would fail. */
  async function estimate(transaction: BuiltTransaction): Promise<bigint | undefined> {
    const [answer] = await reader.batch(chainId, [
      {
        method: 'eth_estimateGas',
        params: [
          {
            from: transaction.from,
            to: transaction.to,
            data: transaction.data,
            value: `0x${BigInt(transaction.value).toString(16)}`,
          },
        ],
      },
    ])
    if (!answer?.ok || typeof answer.result !== 'string') return undefined
    return BigInt(answer.result)
  }

  /** Balance and allowance of `user` for a swap from `from` (native: the balance only). */
  const holdingCalls = (from: Side, user: string): ChainCall[] =>
    from.native
      ? [{ method: 'eth_getBalance', params: [user, 'latest'] }]
      : [
          ethCall(
            from.token,
            encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [user as Address] }),
          ),
          ethCall(
            from.token,
            encodeFunctionData({ abi: erc20Abi, functionName: 'allowance', args: [user as Address, router] }),
          ),
        ]
  const readHoldings = (from: Side, answers: ChainAnswer[]) => {
    const uint = (answer: ChainAnswer | undefined) =>
      answer?.ok && typeof answer.result === 'string' && /^0x[0-9a-fA-F]+$/.test(answer.result)
        ? BigInt(answer.result)
        : 0n
    return from.native
      ? { balance: uint(answers[0]), allowance: undefined }
      : { balance: uint(answers[0]), allowance: uint(answers[1]) }
  }

  return {
    spender: router,

    async quote({ from: fromName, to: toName, amountIn, userAddress }) {
      const from = side(fromName, 'from')
      const to = side(toName, 'to')
      const found = await route(from, to, amountIn, userAddress ? holdingCalls(from, userAddress) : [])
      let gas = defaultGas(found.path)
      if (userAddress) {
        const { balance, allowance } = readHoldings(from, found.extra)
        if (balance >= amountIn && (allowance === undefined || allowance >= amountIn)) {
          const minimum = (found.amountOut * BigInt(100 - SLIPPAGE_PERCENT)) / 100n
          gas = (await estimate(swapTransaction(from, to, amountIn, minimum, found.path, userAddress))) ?? gas
        }
      }
      return toQuote(from, to, amountIn, found, gas)
    },

    async buildSwap({ from: fromName, to: toName, amountIn, userAddress, minimumReceived }) {
      const from = side(fromName, 'from')
      const to = side(toName, 'to')
      const found = await route(from, to, amountIn, holdingCalls(from, userAddress))
      const { balance, allowance } = readHoldings(from, found.extra)
      if (balance < amountIn) throw dataError('SWAP_INSUFFICIENT_BALANCE', 409)
      if (allowance !== undefined && allowance < amountIn) throw dataError('SWAP_ALLOWANCE_TOO_LOW', 409)
      if (found.amountOut < minimumReceived) throw dataError('SWAP_QUOTE_EXPIRED', 409)
      const transaction = swapTransaction(from, to, amountIn, minimumReceived, found.path, userAddress)
      const gas = await estimate(transaction)
      // Balance, allowance and price were fine a moment ago: the likeliest change is the price.
      if (gas === undefined) throw dataError('SWAP_QUOTE_EXPIRED', 409)
      return {
        // A fifth more than the estimate, in case the pools move before the block.
        transaction: { ...transaction, gas: ((gas * 6n) / 5n).toString() },
        quote: toQuote(from, to, amountIn, found, gas),
      }
    },

    buildApprove(token, amount) {
      const listed = side(token, 'token')
      if (listed.native)
        throw badRequest('token', 'Invalid query parameter token: the native currency needs no approval')
      return {
        to: listed.token,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, amount] }),
        value: '0',
      }
    },

    async allowance(token, owner) {
      const listed = side(token, 'token')
      const [answer] = await reader.batch(chainId, [
        ethCall(
          listed.token,
          encodeFunctionData({ abi: erc20Abi, functionName: 'allowance', args: [owner as Address, router] }),
        ),
      ])
      const value = decoded(answer, (data) =>
        decodeFunctionResult({ abi: erc20Abi, functionName: 'allowance', data }),
      )
      if (value === undefined)
        throw dataError('UPSTREAM_ERROR', 502, `The allowance of ${token} could not be read`)
      return value
    },

    async reserves(pairs) {
      return reservesOf(pairs, await reader.batch(chainId, reserveCalls(pairs)))
    },
  }
}
