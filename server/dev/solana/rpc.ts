/**
 * The HTTP JSON-RPC methods of the local Solana network, in the shapes a validator answers (and
 * `@solana/web3.js` 1.x `Connection` checks). Commitment levels are accepted and ignored: every landed
 * transaction is final at once.
 */
import type { MethodHandler } from './jsonrpc.ts'
import { accountMethods } from './rpcAccounts.ts'
import { clusterMethods } from './rpcCluster.ts'
import type { RpcContext } from './rpcContext.ts'
import { transactionMethods } from './rpcTransactions.ts'

/** The HTTP JSON-RPC method table. */
export const RPC_METHODS: ReadonlyMap<string, MethodHandler<RpcContext>> = new Map(
  Object.entries({ ...clusterMethods, ...accountMethods, ...transactionMethods }),
)
