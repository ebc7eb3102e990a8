/**
 * The local ERC-4337 bundler: the JSON-RPC methods of ERC-4337 (ERC-7769) for EntryPoint v0.8 on a local
 * Hardhat chain, on loopback. Each accepted UserOperation is simulated, then sent at once in its own
 * `handleOps` bundle by the bundler's executor (a key outside the ten dev accounts, funded with
 * `hardhat_setBalance`); the node mines it as it arrives.
 *
 * Simulation is EntryPointSimulations' `simulateHandleOp`, run with `eth_call` and a state override that
 * puts its code at the EntryPoint's address (as bundlers do; it is never deployed). Receipts are read
 * from the chain's `UserOperationEvent` logs, so they survive a restart of the bundler.
 *
 * Written here rather than run from `@pimlico/alto`, whose GPL-3.0 licence is outside the project's
 * allow-list. Paymasters are accepted (their validation is checked like the account's); aggregators and
 * EIP-7702 authorisations are not: a UserOperation with one is refused.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  isAddressEqual,
  numberToHex,
  parseEther,
  type RpcTransactionReceipt,
  toHex,
} from 'viem'
import {
  entryPoint08Abi,
  entryPoint08Address,
  getUserOperationHash,
  type RpcUserOperation,
  toPackedUserOperation,
} from 'viem/account-abstraction'
import { devAccount } from '../chain/index.ts'
import { userOperationEvent } from './abi.ts'
import { BundlerRpcError, bundlerErrorCodes } from './errors.ts'
import { answerWith, handle } from './http.ts'
import { createSimulator, MAX_BUNDLE_GAS } from './simulation.ts'
import {
  type CheckedUserOperation,
  entryPointParam,
  hashParam,
  operationParam,
  preVerificationGasOf,
  toOperation,
  toRpc,
} from './userOperation.ts'

export { BundlerRpcError, bundlerErrorCodes } from './errors.ts'

/** The executor is this index of the dev mnemonic: not one of the ten funded dev accounts. */
const EXECUTOR_INDEX = 20
/** What a bundle costs beside its UserOperation's own limits. */
const BUNDLE_OVERHEAD_GAS = 100_000n

export type StartBundlerParameters = {
  /** The local chain's JSON-RPC URL. */
  rpcUrl: string
  chainId: number
  /** TCP port; 0 takes a free one. */
  port: number
  /** Loopback by default. */
  host?: string
}

export type LocalBundler = {
  /** `http://127.0.0.1:PORT` */
  url: string
  /** The account that sends the bundles and is paid for them. */
  executor: Address
  stop(): Promise<void>
}

type Sent = { userOperation: RpcUserOperation<'0.8'>; transactionHash: Hex }

/**
 * Starts the bundler (funding its executor on the chain first) and resolves once it listens.
 *
 * @example
 * const bundler = await startBundler({ rpcUrl: chain.url, chainId: 31337, port: 4337 })
 * const client = createBundlerClient({ transport: http(bundler.url), client: publicClient })
 */
export async function startBundler({
  rpcUrl,
  chainId,
  port,
  host = '127.0.0.1',
}: StartBundlerParameters): Promise<LocalBundler> {
  const chain = {
    id: chainId,
    name: `Local ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  } satisfies Chain
  // Reverts answer -32603 on Hardhat, which viem would retry: never retry here, except a request the
  // chain never read (resetOnce).
  const transport = http(rpcUrl, { retryCount: 0, fetchFn: resetOnce })
  const publicClient = createPublicClient({ chain, transport })
  const executor = devAccount(EXECUTOR_INDEX)
  const walletClient = createWalletClient({ chain, transport, account: executor })
  await publicClient.request({
    method: 'hardhat_setBalance' as 'eth_chainId',
    params: [executor.address, toHex(parseEther('1000'))] as never,
  })

  const { simulate, checkValidation, estimate } = createSimulator(publicClient)
  const sent = new Map<Hex, Sent>()
  // One bundle at a time: the executor's nonce is taken in order.
  let queue: Promise<unknown> = Promise.resolve()
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work)
    queue = next.catch(() => undefined)
    return next
  }

  const send = async (checked: CheckedUserOperation): Promise<Hex> => {
    const operation = toOperation(checked)
    if (operation.maxPriorityFeePerGas > operation.maxFeePerGas)
      throw new BundlerRpcError(bundlerErrorCodes.invalidParams, 'maxPriorityFeePerGas is above maxFeePerGas')
    const floor = preVerificationGasOf(operation)
    if (operation.preVerificationGas < floor)
      throw new BundlerRpcError(
        bundlerErrorCodes.invalidParams,
        `preVerificationGas ${operation.preVerificationGas} is below ${floor}`,
      )
    const total =
      operation.preVerificationGas +
      operation.verificationGasLimit +
      operation.callGasLimit +
      (operation.paymasterVerificationGasLimit ?? 0n) +
      (operation.paymasterPostOpGasLimit ?? 0n)
    if (total + BUNDLE_OVERHEAD_GAS > MAX_BUNDLE_GAS)
      throw new BundlerRpcError(
        bundlerErrorCodes.invalidParams,
        'The UserOperation asks for more gas than a bundle holds',
      )
    const userOpHash = getUserOperationHash({
      chainId,
      entryPointAddress: entryPoint08Address,
      entryPointVersion: '0.8',
      userOperation: operation,
    })
    return serially(async () => {
      if (sent.has(userOpHash))
        throw new BundlerRpcError(bundlerErrorCodes.invalidParams, 'The UserOperation was sent already')
      const result = await simulate(operation)
      checkValidation(result.accountValidationData)
      if (operation.paymaster) checkValidation(result.paymasterValidationData, 'paymaster')
      const transactionHash = await walletClient.writeContract({
        address: entryPoint08Address,
        abi: entryPoint08Abi,
        functionName: 'handleOps',
        args: [[toPackedUserOperation(operation)], executor.address],
        gas: total + BUNDLE_OVERHEAD_GAS + total / 5n,
      })
      sent.set(userOpHash, { userOperation: toRpc(checked), transactionHash })
      const receipt = await publicClient.waitForTransactionReceipt({
        hash: transactionHash,
        pollingInterval: 50,
      })
      if (receipt.status !== 'success')
        throw new BundlerRpcError(bundlerErrorCodes.internalError, 'The bundle reverted')
      return userOpHash
    })
  }

  const receiptOf = async (userOpHash: Hex) => {
    const [log] = await publicClient.getLogs({
      address: entryPoint08Address,
      event: userOperationEvent,
      args: { userOpHash },
      fromBlock: 0n,
    })
    if (!log?.transactionHash) return null
    const receipt = (await publicClient.request({
      method: 'eth_getTransactionReceipt',
      params: [log.transactionHash],
    })) as RpcTransactionReceipt | null
    if (!receipt) return null
    const eventIndex = receipt.logs.findIndex((entry) => entry.logIndex === numberToHex(log.logIndex ?? -1))
    // The logs of this operation: those between the bundle's BeforeExecution and its UserOperationEvent
    // (each bundle here holds one operation).
    const logs = receipt.logs
      .slice(0, eventIndex)
      .filter((entry) => !isAddressEqual(entry.address, entryPoint08Address))
    const { args } = log
    return {
      userOpHash,
      entryPoint: entryPoint08Address,
      sender: args.sender,
      nonce: numberToHex(args.nonce ?? 0n),
      paymaster: args.paymaster,
      actualGasCost: numberToHex(args.actualGasCost ?? 0n),
      actualGasUsed: numberToHex(args.actualGasUsed ?? 0n),
      success: args.success,
      logs,
      receipt,
    }
  }

  const byHash = async (userOpHash: Hex) => {
    const found = sent.get(userOpHash)
    if (!found) return null
    const transaction = await publicClient.getTransaction({ hash: found.transactionHash })
    return {
      userOperation: found.userOperation,
      entryPoint: entryPoint08Address,
      transactionHash: found.transactionHash,
      blockHash: transaction.blockHash,
      blockNumber: transaction.blockNumber === null ? null : numberToHex(transaction.blockNumber),
    }
  }

  const call = async (method: string, params: unknown[]): Promise<unknown> => {
    switch (method) {
      case 'eth_chainId':
        return numberToHex(chainId)
      case 'eth_supportedEntryPoints':
        return [entryPoint08Address]
      case 'eth_estimateUserOperationGas': {
        entryPointParam(params[1])
        const result = await estimate(operationParam(params[0]))
        return {
          preVerificationGas: numberToHex(result.preVerificationGas),
          verificationGasLimit: numberToHex(result.verificationGasLimit),
          callGasLimit: numberToHex(result.callGasLimit),
        }
      }
      case 'eth_sendUserOperation':
        entryPointParam(params[1])
        return send(operationParam(params[0]))
      case 'eth_getUserOperationByHash':
        return byHash(hashParam(params[0]))
      case 'eth_getUserOperationReceipt':
        return receiptOf(hashParam(params[0]))
      default:
        throw new BundlerRpcError(
          bundlerErrorCodes.methodNotFound,
          `The method ${method} does not exist on this bundler`,
        )
    }
  }

  const answer = answerWith(call)
  const server = createServer((request, response) => {
    void handle(request, response, answer)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const { port: bound } = server.address() as AddressInfo
  let stopping: Promise<void> | undefined
  return {
    url: `http://${host}:${bound}`,
    executor: executor.address,
    stop: () => {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return stopping
    },
  }
}

/** The errors of a connection the other side closed before it answered. */
const CLOSED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'])

/**
 * `fetch`, sent again once when the connection was closed under it before any answer. The local
 * chain's HTTP server closes a kept-alive connection after 5 s idle; a request written on it just then
 * is reset before the chain reads it (seen under load as "fetch failed", ECONNRESET, and a UserOperation
 * refused). The service's own forwarder resends only on a reused socket; `fetch` does not say which, but
 * the bundler's calls are reads and signed transactions, and a transaction sent twice has one hash.
 */
export async function resetOnce(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init)
  } catch (error) {
    const code = ((error as { cause?: { code?: unknown } }).cause?.code ?? '') as string
    if (!(error instanceof TypeError) || !CLOSED.has(code) || init?.signal?.aborted) throw error
    return fetch(input, init)
  }
}
