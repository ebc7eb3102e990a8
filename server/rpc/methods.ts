import { rpcMethodAllowList as allowList } from '../../src/protocol/rpcMethods.ts'

/**
 * The RPC proxy's method allow-list: the one table of what `POST /v1/` forwards, per chain namespace.
 * What a wallet modal and a dapp need (standard reads, fee methods, sending a signed transaction) is
 * here; node administration, test-chain controls (`hardhat_*`, `anvil_*`, `evm_*`), tracing, key
 * handling on the node (`eth_sign*`, `eth_sendTransaction`, `personal_*`) and anything unknown are not,
 * and never reach the upstream. Operators add methods with `RPC_ALLOW_METHODS`.
 */

// The table itself lives in src/protocol (the embedded wallet's safe reads are the same methods).
export { rpcMethodAllowList } from '../../src/protocol/rpcMethods.ts'

/** Prefixes an operator should think twice about adding (logged as a warning when they do). */
export const riskyRpcMethodPrefixes = [
  'admin_',
  'anvil_',
  'debug_',
  'engine_',
  'evm_',
  'hardhat_',
  'miner_',
  'personal_',
  'trace_',
  'txpool_',
  'eth_sign',
  'eth_sendTransaction',
  'requestAirdrop',
] as const

/** What a JSON-RPC method name may look like in `RPC_ALLOW_METHODS`. */
export const rpcMethodNamePattern = /^[A-Za-z][A-Za-z0-9_]{0,127}$/

/** Decides, per network, whether the proxy forwards a method. */
export type RpcMethodPolicy = (chainId: string, method: string) => boolean

/**
 * The proxy's policy: the namespace's methods from {@link rpcMethodAllowList}, plus `extra` (the
 * operator's `RPC_ALLOW_METHODS`) on every network.
 *
 * @example
 * const allowed = rpcMethodPolicy(['debug_traceTransaction'])
 * allowed('eip155:1', 'eth_call') // true
 * allowed('eip155:1', 'hardhat_setCode') // false
 */
export function rpcMethodPolicy(extra: readonly string[] = []): RpcMethodPolicy {
  const byNamespace = new Map(
    Object.entries(allowList).map(([namespace, methods]) => [namespace, new Set(methods)]),
  )
  const added = new Set(extra)
  return (chainId, method) => {
    if (added.has(method)) return true
    const namespace = chainId.slice(0, chainId.indexOf(':'))
    return byNamespace.get(namespace)?.has(method) ?? false
  }
}
