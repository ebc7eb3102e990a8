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
 * allow-list. No paymasters, aggregators or EIP-7702 authorisations: a UserOperation with one is refused.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type Abi,
  type Address,
  BaseError,
  type Chain,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  decodeErrorResult,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
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
  formatUserOperation,
  getUserOperationHash,
  type RpcUserOperation,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import * as z from 'zod/mini'
import { entryPointSimulationsCode } from '../chain/erc4337.ts'
import { devAccount } from '../chain/index.ts'

/** ERC-4337 bundler JSON-RPC error codes (ERC-7769) and JSON-RPC's own. */
export const bundlerErrorCodes = {
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Rejected by the EntryPoint's validation (the account or its factory). */
  rejectedByEntryPoint: -32500,
  /** Expired, or not valid yet. */
  outOfTimeRange: -32503,
  /** The signature check failed. */
  invalidSignature: -32507,
  /** The UserOperation's calls revert. */
  executionReverted: -32521,
} as const

const MAX_BODY_BYTES = 1_000_000
/** The executor is this index of the dev mnemonic: not one of the ten funded dev accounts. */
const EXECUTOR_INDEX = 20
/** The local chain's per-transaction gas cap (osaka). */
const MAX_BUNDLE_GAS = 16_000_000n
/** What a bundle costs beside its UserOperation's own limits. */
const BUNDLE_OVERHEAD_GAS = 100_000n
/** Execution gas the EntryPoint charges 10 % of when unused (v0.8), beyond this threshold. */
const PENALTY_THRESHOLD = 40_000n
const ESTIMATE_VERIFICATION_GAS = 1_500_000n
const ESTIMATE_CALL_GAS = 5_000_000n

const simulationsAbi = [
  {
    type: 'function',
    name: 'simulateHandleOp',
    stateMutability: 'nonpayable',
    inputs: [
      {
        name: 'op',
        type: 'tuple',
        components: [
          { name: 'sender', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'initCode', type: 'bytes' },
          { name: 'callData', type: 'bytes' },
          { name: 'accountGasLimits', type: 'bytes32' },
          { name: 'preVerificationGas', type: 'uint256' },
          { name: 'gasFees', type: 'bytes32' },
          { name: 'paymasterAndData', type: 'bytes' },
          { name: 'signature', type: 'bytes' },
        ],
      },
      { name: 'target', type: 'address' },
      { name: 'targetCallData', type: 'bytes' },
    ],
    outputs: [
      {
        name: '',
        type: 'tuple',
        components: [
          { name: 'preOpGas', type: 'uint256' },
          { name: 'paid', type: 'uint256' },
          { name: 'accountValidationData', type: 'uint256' },
          { name: 'paymasterValidationData', type: 'uint256' },
          { name: 'targetSuccess', type: 'bool' },
          { name: 'targetResult', type: 'bytes' },
        ],
      },
    ],
  },
] as const satisfies Abi

/** A JSON-RPC error answered to the caller. */
export class BundlerRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
    this.name = 'BundlerRpcError'
  }
}

const hex = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/), z.maxLength(2 + 2 * 64 * 1024))
const quantity = z.string().check(z.regex(/^0x[0-9a-fA-F]{1,64}$/))
const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/))
const hash = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/))
/** A v0.7/v0.8 UserOperation as JSON-RPC carries it (ERC-7769). */
const rpcUserOperation = z.object({
  sender: address,
  nonce: quantity,
  factory: z.optional(z.nullable(address)),
  factoryData: z.optional(z.nullable(hex)),
  callData: hex,
  callGasLimit: z.optional(quantity),
  verificationGasLimit: z.optional(quantity),
  preVerificationGas: z.optional(quantity),
  maxFeePerGas: z.optional(quantity),
  maxPriorityFeePerGas: z.optional(quantity),
  paymaster: z.optional(z.nullable(address)),
  paymasterVerificationGasLimit: z.optional(z.nullable(quantity)),
  paymasterPostOpGasLimit: z.optional(z.nullable(quantity)),
  paymasterData: z.optional(z.nullable(hex)),
  signature: hex,
  eip7702Auth: z.optional(z.unknown()),
})
type CheckedUserOperation = z.infer<typeof rpcUserOperation>

const jsonRpcRequest = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.optional(z.union([z.string().check(z.maxLength(128)), z.number(), z.null()])),
  method: z.string().check(z.maxLength(128)),
  params: z.optional(z.array(z.unknown())),
})

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
  // Reverts answer -32603 on Hardhat, which viem would retry: never retry here.
  const transport = http(rpcUrl, { retryCount: 0 })
  const publicClient = createPublicClient({ chain, transport })
  const executor = devAccount(EXECUTOR_INDEX)
  const walletClient = createWalletClient({ chain, transport, account: executor })
  await publicClient.request({
    method: 'hardhat_setBalance' as 'eth_chainId',
    params: [executor.address, toHex(parseEther('1000'))] as never,
  })

  const sent = new Map<Hex, Sent>()
  // One bundle at a time: the executor's nonce is taken in order.
  let queue: Promise<unknown> = Promise.resolve()
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work)
    queue = next.catch(() => undefined)
    return next
  }

  const simulate = async (
    operation: UserOperation<'0.8'>,
    options: { target?: Address; targetCallData?: Hex; sender?: { balance: bigint } } = {},
  ) => {
    const data = encodeFunctionData({
      abi: simulationsAbi,
      functionName: 'simulateHandleOp',
      args: [
        toPackedUserOperation(operation),
        options.target ?? '0x0000000000000000000000000000000000000000',
        options.targetCallData ?? '0x',
      ],
    })
    try {
      const { data: result } = await publicClient.call({
        to: entryPoint08Address,
        data,
        gas: MAX_BUNDLE_GAS,
        stateOverride: [
          { address: entryPoint08Address, code: entryPointSimulationsCode() },
          ...(options.sender ? [{ address: operation.sender, balance: options.sender.balance }] : []),
        ],
      })
      return decodeFunctionResult({
        abi: simulationsAbi,
        functionName: 'simulateHandleOp',
        data: result ?? '0x',
      })
    } catch (error) {
      throw entryPointFailure(error)
    }
  }

  const checkValidation = (validationData: bigint) => {
    const aggregator = validationData & ((1n << 160n) - 1n)
    if (aggregator === 1n)
      throw new BundlerRpcError(bundlerErrorCodes.invalidSignature, 'Invalid UserOperation signature')
    if (aggregator !== 0n)
      throw new BundlerRpcError(
        bundlerErrorCodes.rejectedByEntryPoint,
        'Aggregators are not supported by this bundler',
      )
    const validUntil = (validationData >> 160n) & ((1n << 48n) - 1n)
    const validAfter = validationData >> 208n
    const now = BigInt(Math.floor(Date.now() / 1000))
    if ((validUntil !== 0n && validUntil < now + 30n) || validAfter > now)
      throw new BundlerRpcError(
        bundlerErrorCodes.outOfTimeRange,
        'The UserOperation is outside its time range',
      )
  }

  const estimate = async (checked: CheckedUserOperation) => {
    const draft = toOperation(checked, {
      callGasLimit: ESTIMATE_CALL_GAS,
      verificationGasLimit: ESTIMATE_VERIFICATION_GAS,
      preVerificationGas: 0n,
      maxFeePerGas: 1n,
      maxPriorityFeePerGas: 1n,
    })
    const preVerificationGas = preVerificationGasOf(draft)
    draft.preVerificationGas = preVerificationGas
    const balance = (await publicClient.getBalance({ address: draft.sender })) + parseEther('1')
    // 1. Do the calls succeed? Run them from the EntryPoint after an operation without calls (which
    //    still deploys the account when it has a factory).
    const withoutCalls = await simulate(
      { ...draft, callData: '0x' },
      {
        target: draft.sender,
        targetCallData: draft.callData,
        sender: { balance },
      },
    )
    if (!withoutCalls.targetSuccess) {
      throw new BundlerRpcError(
        bundlerErrorCodes.executionReverted,
        `The UserOperation's calls revert: ${revertReason(withoutCalls.targetResult)}`,
        withoutCalls.targetResult,
      )
    }
    // 2. What it costs: at a gas price of 1 wei, `paid` is the gas used, with 10 % of the unused call
    //    gas beyond 40,000 charged as a penalty.
    const measured = await simulate(draft, { sender: { balance } })
    const verificationUsed = measured.preOpGas - preVerificationGas
    const executionCharged = measured.paid - measured.preOpGas
    let executionUsed = executionCharged
    if (ESTIMATE_CALL_GAS - executionCharged > PENALTY_THRESHOLD)
      executionUsed = (executionCharged * 10n - ESTIMATE_CALL_GAS) / 9n
    return {
      preVerificationGas,
      verificationGasLimit: (verificationUsed * 3n) / 2n + 20_000n,
      callGasLimit: (executionUsed * 6n) / 5n + 20_000n,
    }
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
    const total = operation.preVerificationGas + operation.verificationGasLimit + operation.callGasLimit
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

  const entryPointParam = (value: unknown) => {
    const parsed = z.safeParse(address, value)
    if (!parsed.success || !isAddressEqual(parsed.data as Address, entryPoint08Address))
      throw new BundlerRpcError(
        bundlerErrorCodes.invalidParams,
        `Unsupported EntryPoint: this bundler serves ${entryPoint08Address}`,
      )
  }
  const operationParam = (value: unknown): CheckedUserOperation => {
    const parsed = z.safeParse(rpcUserOperation, value)
    if (!parsed.success) throw new BundlerRpcError(bundlerErrorCodes.invalidParams, 'Invalid UserOperation')
    const operation = parsed.data
    if (operation.paymaster || operation.eip7702Auth !== undefined)
      throw new BundlerRpcError(
        bundlerErrorCodes.invalidParams,
        'Paymasters and EIP-7702 authorisations are not supported by this bundler',
      )
    if (Boolean(operation.factory) !== Boolean(operation.factoryData))
      throw new BundlerRpcError(bundlerErrorCodes.invalidParams, 'factory and factoryData go together')
    return operation
  }
  const hashParam = (value: unknown): Hex => {
    const parsed = z.safeParse(hash, value)
    if (!parsed.success)
      throw new BundlerRpcError(bundlerErrorCodes.invalidParams, 'Invalid UserOperation hash')
    return parsed.data as Hex
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

  const answer = async (entry: unknown) => {
    const parsed = z.safeParse(jsonRpcRequest, entry)
    if (!parsed.success)
      return {
        jsonrpc: '2.0',
        id: null,
        error: { code: bundlerErrorCodes.invalidRequest, message: 'Invalid request' },
      }
    const { id = null, method, params = [] } = parsed.data
    try {
      return { jsonrpc: '2.0', id, result: await call(method, params) }
    } catch (error) {
      const known =
        error instanceof BundlerRpcError
          ? error
          : new BundlerRpcError(bundlerErrorCodes.internalError, 'The bundler failed to handle the request')
      if (!(error instanceof BundlerRpcError)) console.error('bundler:', error)
      return {
        jsonrpc: '2.0',
        id,
        error: {
          code: known.code,
          message: known.message,
          ...(known.data === undefined ? {} : { data: known.data }),
        },
      }
    }
  }

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

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  answer: (entry: unknown) => Promise<unknown>,
): Promise<void> {
  const reply = (status: number, body: unknown) => {
    const text = JSON.stringify(body)
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
    response.end(text)
  }
  if (request.method !== 'POST') {
    reply(405, {
      jsonrpc: '2.0',
      id: null,
      error: { code: bundlerErrorCodes.invalidRequest, message: 'POST a JSON-RPC request' },
    })
    return
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) {
      reply(413, {
        jsonrpc: '2.0',
        id: null,
        error: { code: bundlerErrorCodes.invalidRequest, message: 'The body is too large' },
      })
      request.destroy()
      return
    }
    chunks.push(chunk)
  }
  let payload: unknown
  try {
    payload = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    reply(400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })
    return
  }
  if (Array.isArray(payload)) {
    if (payload.length === 0 || payload.length > 100) {
      reply(400, {
        jsonrpc: '2.0',
        id: null,
        error: { code: bundlerErrorCodes.invalidRequest, message: 'A batch holds 1 to 100 requests' },
      })
      return
    }
    const answers = []
    for (const entry of payload) answers.push(await answer(entry))
    reply(200, answers)
    return
  }
  reply(200, await answer(payload))
}

const userOperationEvent = entryPoint08Abi.find(
  (item): item is Extract<(typeof entryPoint08Abi)[number], { name: 'UserOperationEvent' }> =>
    item.type === 'event' && item.name === 'UserOperationEvent',
) as Extract<(typeof entryPoint08Abi)[number], { name: 'UserOperationEvent' }>

/**
 * The checked JSON-RPC UserOperation as viem's. With `fill` (estimation), its gas limits and fees are
 * those of `fill`; without, each must be there.
 */
function toOperation(
  checked: CheckedUserOperation,
  fill?: Partial<UserOperation<'0.8'>>,
): UserOperation<'0.8'> {
  const operation = { ...formatUserOperation(toRpc(checked)), ...fill } as UserOperation<'0.8'>
  for (const key of gasFields) {
    if (operation[key] === undefined)
      throw new BundlerRpcError(bundlerErrorCodes.invalidParams, `The UserOperation has no ${key}`)
  }
  return operation
}

const gasFields = [
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
] as const

function toRpc(checked: CheckedUserOperation): RpcUserOperation<'0.8'> {
  const { eip7702Auth: _eip7702Auth, ...rest } = checked
  const entries = Object.entries(rest).filter(([, value]) => value !== undefined && value !== null)
  return Object.fromEntries(entries) as unknown as RpcUserOperation<'0.8'>
}

/**
 * What the bundle's transaction spends on this operation outside the EntryPoint's own accounting: its
 * share of the intrinsic cost (a bundle of one) and its calldata, at the EIP-7623 floor price, plus a
 * margin for the loop around it. The gas fields and the signature count as if none of their bytes were
 * zero, so an estimate (made with a stub signature and trial limits) still covers the signed operation.
 */
function preVerificationGasOf(operation: UserOperation<'0.8'>): bigint {
  const most = 2n ** 120n - 1n
  const encoded = encodeAbiParameters(simulationsAbi[0].inputs.slice(0, 1), [
    toPackedUserOperation({
      ...operation,
      callGasLimit: most,
      verificationGasLimit: most,
      preVerificationGas: most,
      maxFeePerGas: most,
      maxPriorityFeePerGas: most,
      signature: `0x${'ff'.repeat(Math.max(65, (operation.signature.length - 2) / 2))}`,
    }),
  ])
  let tokens = 0n
  for (let index = 2; index < encoded.length; index += 2)
    tokens += encoded.slice(index, index + 2) === '00' ? 1n : 4n
  return 21_000n + tokens * 10n + 25_000n
}

const entryPointErrors = [
  {
    type: 'error',
    name: 'FailedOp',
    inputs: [
      { name: 'opIndex', type: 'uint256' },
      { name: 'reason', type: 'string' },
    ],
  },
  {
    type: 'error',
    name: 'FailedOpWithRevert',
    inputs: [
      { name: 'opIndex', type: 'uint256' },
      { name: 'reason', type: 'string' },
      { name: 'inner', type: 'bytes' },
    ],
  },
] as const satisfies Abi

/** The EntryPoint's `FailedOp` (an `AAxx` reason) as the bundler's error; anything else as itself. */
function entryPointFailure(error: unknown): BundlerRpcError {
  const revert =
    error instanceof BaseError
      ? error.walk((cause) => cause instanceof ContractFunctionRevertedError || hasData(cause))
      : undefined
  const data = revert && hasData(revert) ? revert.data : undefined
  if (typeof data === 'string' && data.startsWith('0x') && data.length >= 10) {
    try {
      const decoded = decodeErrorResult({ abi: entryPointErrors, data: data as Hex })
      const reason = decoded.args[1]
      const code = reason.startsWith('AA24')
        ? bundlerErrorCodes.invalidSignature
        : bundlerErrorCodes.rejectedByEntryPoint
      return new BundlerRpcError(code, reason, data)
    } catch {
      return new BundlerRpcError(
        bundlerErrorCodes.rejectedByEntryPoint,
        'The EntryPoint rejected the UserOperation',
        data,
      )
    }
  }
  return new BundlerRpcError(bundlerErrorCodes.internalError, 'The simulation failed')
}

function hasData(value: unknown): value is { data: unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { data?: unknown }).data === 'string'
}

const callErrors = [
  { type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] },
  // SimpleAccount's executeBatch: which call of the batch reverted, and its revert data.
  {
    type: 'error',
    name: 'ExecuteError',
    inputs: [
      { name: 'index', type: 'uint256' },
      { name: 'error', type: 'bytes' },
    ],
  },
] as const satisfies Abi

/** A revert's reason in words when it is `Error(string)` (or a batch's call's), else its selector. */
function revertReason(data: Hex): string {
  try {
    const decoded = decodeErrorResult({ abi: callErrors, data })
    if (decoded.errorName === 'Error') return decoded.args[0]
    return `call ${decoded.args[0]} of the batch: ${revertReason(decoded.args[1])}`
  } catch {
    return data.length >= 10 ? `error ${data.slice(0, 10)}` : 'no reason given'
  }
}
