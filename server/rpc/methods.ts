/**
 * The RPC proxy's method allow-list: the one table of what `POST /v1/` forwards, per chain namespace.
 * What a wallet modal and a dapp need (standard reads, fee methods, sending a signed transaction) is
 * here; node administration, test-chain controls (`hardhat_*`, `anvil_*`, `evm_*`), tracing, key
 * handling on the node (`eth_sign*`, `eth_sendTransaction`, `personal_*`) and anything unknown are not,
 * and never reach the upstream. Operators add methods with `RPC_ALLOW_METHODS`.
 */

/** Methods forwarded per CAIP-2 namespace (docs/API.md lists the same). */
export const rpcMethodAllowList: Readonly<Record<string, readonly string[]>> = {
  eip155: [
    'eth_blobBaseFee',
    'eth_blockNumber',
    'eth_call',
    'eth_chainId',
    'eth_createAccessList',
    'eth_estimateGas',
    'eth_feeHistory',
    'eth_gasPrice',
    'eth_getBalance',
    'eth_getBlockByHash',
    'eth_getBlockByNumber',
    'eth_getBlockReceipts',
    'eth_getBlockTransactionCountByHash',
    'eth_getBlockTransactionCountByNumber',
    'eth_getCode',
    'eth_getLogs',
    'eth_getProof',
    'eth_getStorageAt',
    'eth_getTransactionByBlockHashAndIndex',
    'eth_getTransactionByBlockNumberAndIndex',
    'eth_getTransactionByHash',
    'eth_getTransactionCount',
    'eth_getTransactionReceipt',
    'eth_getUncleCountByBlockHash',
    'eth_getUncleCountByBlockNumber',
    'eth_maxPriorityFeePerGas',
    'eth_sendRawTransaction',
    'eth_simulateV1',
    'eth_syncing',
    'net_listening',
    'net_version',
    'web3_clientVersion',
  ],
  // Solana's public HTTP methods, without the faucet (`requestAirdrop` mints on test clusters).
  solana: [
    'getAccountInfo',
    'getBalance',
    'getBlock',
    'getBlockCommitment',
    'getBlockHeight',
    'getBlockProduction',
    'getBlockTime',
    'getBlocks',
    'getBlocksWithLimit',
    'getClusterNodes',
    'getEpochInfo',
    'getEpochSchedule',
    'getFeeForMessage',
    'getFirstAvailableBlock',
    'getGenesisHash',
    'getHealth',
    'getHighestSnapshotSlot',
    'getIdentity',
    'getInflationGovernor',
    'getInflationRate',
    'getInflationReward',
    'getLargestAccounts',
    'getLatestBlockhash',
    'getLeaderSchedule',
    'getMaxRetransmitSlot',
    'getMaxShredInsertSlot',
    'getMinimumBalanceForRentExemption',
    'getMultipleAccounts',
    'getProgramAccounts',
    'getRecentPerformanceSamples',
    'getRecentPrioritizationFees',
    'getSignatureStatuses',
    'getSignaturesForAddress',
    'getSlot',
    'getSlotLeader',
    'getSlotLeaders',
    'getStakeMinimumDelegation',
    'getSupply',
    'getTokenAccountBalance',
    'getTokenAccountsByDelegate',
    'getTokenAccountsByOwner',
    'getTokenLargestAccounts',
    'getTokenSupply',
    'getTransaction',
    'getTransactionCount',
    'getVersion',
    'getVoteAccounts',
    'isBlockhashValid',
    'minimumLedgerSlot',
    'sendTransaction',
    'simulateTransaction',
  ],
}

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
    Object.entries(rpcMethodAllowList).map(([namespace, methods]) => [namespace, new Set(methods)]),
  )
  const added = new Set(extra)
  return (chainId, method) => {
    if (added.has(method)) return true
    const namespace = chainId.slice(0, chainId.indexOf(':'))
    return byNamespace.get(namespace)?.has(method) ?? false
  }
}
