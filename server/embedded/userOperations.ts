/**
 * `eth_sendUserOperation` from the page (ERC-4337 v0.8's JSON-RPC shape, ERC-7769): checked before it is
 * shown for approval, signed by the service only after it. The page may give the calls (`callData` of the
 * person's own WalletAccount: `execute` or `executeBatch`), the nonce, the gas limits and the fees, each
 * within a cap; it never gives the signature (the service signs after approval and ignores any signature
 * the page sent), nor a paymaster, an EIP-7702 authorisation or another factory than the wallet's own.
 */
import { type Address, encodeFunctionData, type Hex, isAddressEqual } from 'viem'
import { entryPoint08Address } from 'viem/account-abstraction'
import * as z from 'zod/mini'
import { embeddedLimits } from '../../src/protocol/embedded/index.ts'
import { EmbeddedError } from './errors.ts'
import { address, quantity } from './methods/params.ts'
import { decodeWalletAccountCalls, WALLET_ACCOUNT_FACTORY, walletAccountAbi } from './walletAccount.ts'

/** What a page's UserOperation may ask for at most; beyond it the request is refused, nothing signed. */
export const userOperationLimits = {
  /** `callData` bytes (a batch of ten calls with some data each fits). */
  callDataBytes: 16_384,
  callGasLimit: 10_000_000n,
  verificationGasLimit: 2_000_000n,
  preVerificationGas: 1_000_000n,
  /** 10,000 gwei: far above any network's fee today, far below what drains an account by mistake. */
  maxFeePerGas: 10_000_000_000_000n,
} as const

const hexBytes = z.string().check(z.regex(/^0x(?:[0-9a-fA-F]{2})*$/))
const paymasterField = z.optional(z.nullable(z.string()))

const userOperationParams = z.tuple([
  z.strictObject({
    sender: address,
    nonce: z.optional(quantity),
    factory: z.optional(z.nullable(address)),
    factoryData: z.optional(z.nullable(hexBytes)),
    callData: hexBytes,
    callGasLimit: z.optional(quantity),
    verificationGasLimit: z.optional(quantity),
    preVerificationGas: z.optional(quantity),
    maxFeePerGas: z.optional(quantity),
    maxPriorityFeePerGas: z.optional(quantity),
    // A paymaster is not supported: its fields may only be absent or empty (checked below).
    paymaster: paymasterField,
    paymasterData: paymasterField,
    paymasterVerificationGasLimit: paymasterField,
    paymasterPostOpGasLimit: paymasterField,
    // Whatever the page signed is ignored: the service signs after approval.
    signature: z.optional(hexBytes),
  }),
  address,
])

/** The UserOperation fields the service keeps after the checks (hex quantities as the page gave them). */
export interface PageUserOperation {
  sender: Address
  callData: Hex
  nonce?: Hex
  callGasLimit?: Hex
  verificationGasLimit?: Hex
  preVerificationGas?: Hex
  maxFeePerGas?: Hex
  maxPriorityFeePerGas?: Hex
}

const refused = (message: string) =>
  new EmbeddedError(400, 'BAD_REQUEST', message, { rpcCode: -32602, field: 'params' })

/**
 * Checks a page's `eth_sendUserOperation` params for the person's smart account `own` (whose owner is
 * `owner`), answering the operation to sign after approval and its calls for the preview.
 *
 * @example
 * const { userOperation, calls, maxCost } = checkUserOperation(params, { own, owner })
 */
export function checkUserOperation(params: unknown, { own, owner }: { own: Address; owner: Address }) {
  const parsed = z.safeParse(userOperationParams, params)
  if (!parsed.success) {
    const fields = parsed.error.issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys' ? issue.keys : [issue.path.slice(1).join('.')],
    )
    const named = [...new Set(fields.filter(Boolean))]
    throw refused(`Invalid params of eth_sendUserOperation${named.length ? `: ${named.join(', ')}` : ''}`)
  }
  const [operation, entryPoint] = parsed.data
  const paymaster = [
    operation.paymaster,
    operation.paymasterData,
    operation.paymasterVerificationGasLimit,
    operation.paymasterPostOpGasLimit,
  ].some((field) => field && !/^0x0*$/.test(field))
  if (paymaster) throw refused('Paymasters are not supported by this wallet')
  if (!isAddressEqual(entryPoint as Address, entryPoint08Address))
    throw refused(`Unsupported EntryPoint ${entryPoint}: this wallet uses ${entryPoint08Address} (v0.8)`)
  if (!isAddressEqual(operation.sender as Address, own))
    throw new EmbeddedError(
      403,
      'FORBIDDEN',
      'The UserOperation is for an account this wallet does not hold',
      {
        rpcCode: 4100,
      },
    )
  if (operation.factory || operation.factoryData) {
    const ours =
      operation.factory &&
      isAddressEqual(operation.factory as Address, WALLET_ACCOUNT_FACTORY) &&
      operation.factoryData?.toLowerCase() ===
        encodeFunctionData({ abi: walletAccountAbi, functionName: 'createAccount', args: [owner, 0n] })
    if (!ours) throw refused("The UserOperation's factory is not this wallet's account factory")
  }
  if ((operation.callData.length - 2) / 2 > userOperationLimits.callDataBytes)
    throw refused(`The UserOperation's callData is over ${userOperationLimits.callDataBytes} bytes`)
  let calls: ReturnType<typeof decodeWalletAccountCalls>
  try {
    calls = decodeWalletAccountCalls(operation.callData as Hex)
  } catch {
    throw refused(
      "The UserOperation's callData is not a call of this wallet's account (execute or executeBatch)",
    )
  }
  if (calls.length === 0 || calls.length > embeddedLimits.maxCalls)
    throw refused(
      `The UserOperation carries ${calls.length} calls; 1 to ${embeddedLimits.maxCalls} are allowed`,
    )
  for (const name of [
    'callGasLimit',
    'verificationGasLimit',
    'preVerificationGas',
    'maxFeePerGas',
  ] as const) {
    const given = operation[name]
    if (given !== undefined && BigInt(given) > userOperationLimits[name])
      throw refused(`The UserOperation's ${name} is over this wallet's cap of ${userOperationLimits[name]}`)
  }
  if (
    operation.maxPriorityFeePerGas !== undefined &&
    BigInt(operation.maxPriorityFeePerGas) >
      BigInt(operation.maxFeePerGas ?? userOperationLimits.maxFeePerGas)
  )
    throw refused("The UserOperation's maxPriorityFeePerGas is above its maxFeePerGas")

  const userOperation: PageUserOperation = { sender: own, callData: operation.callData as Hex }
  for (const name of [
    'nonce',
    'callGasLimit',
    'verificationGasLimit',
    'preVerificationGas',
    'maxFeePerGas',
    'maxPriorityFeePerGas',
  ] as const) {
    const given = operation[name]
    if (given !== undefined) userOperation[name] = given as Hex
  }
  const { callGasLimit, verificationGasLimit, preVerificationGas, maxFeePerGas } = userOperation
  // The most it can cost, when the page set every limit and the fee (else it is estimated on sending).
  const maxCost =
    callGasLimit && verificationGasLimit && preVerificationGas && maxFeePerGas
      ? (BigInt(callGasLimit) + BigInt(verificationGasLimit) + BigInt(preVerificationGas)) *
        BigInt(maxFeePerGas)
      : undefined
  return { userOperation, calls, maxCost }
}
