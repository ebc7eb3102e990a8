import { InvalidResponseError } from '../../errors/rpc.ts'
import {
  type Call3,
  decodeAggregate3,
  decodeUint,
  encodeAggregate3,
  encodeBalanceOf,
  encodeGetEthBalance,
} from './abi.ts'

/** JSON-RPC calls to one network (the service's RPC proxy, or the page's own URL). */
export type EvmRpc = (method: string, params: readonly unknown[]) => Promise<unknown>

export interface EvmBalances {
  /** Wei. */
  native: bigint
  /** Base units by token address as given; undefined where the token did not answer. */
  tokens: Map<string, bigint | undefined>
}

export interface ReadEvmBalancesParameters {
  account: string
  /** ERC-20 contract addresses. */
  tokens: readonly string[]
  /** Multicall3 on this network; without it, one call per token. */
  multicall: string | null
}

function uintResult(value: unknown): bigint {
  const parsed = typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value) ? BigInt(value) : undefined
  if (parsed === undefined) throw new InvalidResponseError({ received: value, details: 'malformed balance' })
  return parsed
}

/**
 * The native and ERC-20 balances of an account in one `eth_call` of Multicall3's `aggregate3` (its
 * `getEthBalance` and each token's `balanceOf`), so a list of 20 tokens costs one request. A network
 * where that address holds no Multicall3 gets one call per token instead.
 *
 * @example
 * const { native, tokens } = await readEvmBalances(rpc, { account, tokens: [usdc], multicall })
 */
export async function readEvmBalances(
  rpc: EvmRpc,
  { account, tokens, multicall }: ReadEvmBalancesParameters,
): Promise<EvmBalances> {
  if (multicall && tokens.length > 0) {
    const calls: Call3[] = [
      { target: multicall, allowFailure: false, callData: encodeGetEthBalance(account) },
      ...tokens.map((token) => ({ target: token, allowFailure: true, callData: encodeBalanceOf(account) })),
    ]
    const answer = await rpc('eth_call', [{ to: multicall, data: encodeAggregate3(calls) }, 'latest'])
    let results: ReturnType<typeof decodeAggregate3> | undefined
    try {
      results = typeof answer === 'string' ? decodeAggregate3(answer) : undefined
    } catch {
      // No Multicall3 at that address (an empty answer): ask one by one below.
    }
    const native = results?.[0]?.success ? decodeUint(results[0].returnData) : undefined
    if (results && results.length === calls.length && native !== undefined) {
      return {
        native,
        tokens: new Map(
          tokens.map((token, index) => {
            const result = results[index + 1]
            return [token, result?.success ? decodeUint(result.returnData) : undefined]
          }),
        ),
      }
    }
  }
  const [native, ...amounts] = await Promise.all([
    rpc('eth_getBalance', [account, 'latest']).then(uintResult),
    ...tokens.map((token) =>
      rpc('eth_call', [{ to: token, data: encodeBalanceOf(account) }, 'latest']).then(
        (value) => (typeof value === 'string' ? decodeUint(value) : undefined),
        () => undefined,
      ),
    ),
  ])
  return { native: native as bigint, tokens: new Map(tokens.map((token, index) => [token, amounts[index]])) }
}
