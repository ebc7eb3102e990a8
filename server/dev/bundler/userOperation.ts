// A UserOperation as JSON-RPC carries it (ERC-7769), checked, and as viem's; its pre-verification gas.
import { type Address, encodeAbiParameters, type Hex, isAddressEqual } from 'viem'
import {
  entryPoint08Address,
  formatUserOperation,
  type RpcUserOperation,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import * as z from 'zod/mini'
import { simulationsAbi } from './abi.ts'
import { BundlerRpcError, bundlerErrorCodes } from './errors.ts'

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
export type CheckedUserOperation = z.infer<typeof rpcUserOperation>

/** Refuses any EntryPoint but v0.8's. */
export const entryPointParam = (value: unknown) => {
  const parsed = z.safeParse(address, value)
  if (!parsed.success || !isAddressEqual(parsed.data as Address, entryPoint08Address))
    throw new BundlerRpcError(
      bundlerErrorCodes.invalidParams,
      `Unsupported EntryPoint: this bundler serves ${entryPoint08Address}`,
    )
}
/**
 * The UserOperation of a request, refused when it has an EIP-7702 authorisation, half a factory or half a
 * paymaster (a paymaster needs its two gas limits and its data).
 */
export const operationParam = (value: unknown): CheckedUserOperation => {
  const parsed = z.safeParse(rpcUserOperation, value)
  if (!parsed.success) throw new BundlerRpcError(bundlerErrorCodes.invalidParams, 'Invalid UserOperation')
  const operation = parsed.data
  if (operation.eip7702Auth !== undefined)
    throw new BundlerRpcError(
      bundlerErrorCodes.invalidParams,
      'EIP-7702 authorisations are not supported by this bundler',
    )
  if (Boolean(operation.factory) !== Boolean(operation.factoryData))
    throw new BundlerRpcError(bundlerErrorCodes.invalidParams, 'factory and factoryData go together')
  const paymasterFields = [
    operation.paymasterVerificationGasLimit,
    operation.paymasterPostOpGasLimit,
    operation.paymasterData,
  ]
  if (operation.paymaster ? paymasterFields.some((field) => !field) : paymasterFields.some(Boolean))
    throw new BundlerRpcError(
      bundlerErrorCodes.invalidParams,
      'paymaster, paymasterVerificationGasLimit, paymasterPostOpGasLimit and paymasterData go together',
    )
  return operation
}
/** A UserOperation hash of a request. */
export const hashParam = (value: unknown): Hex => {
  const parsed = z.safeParse(hash, value)
  if (!parsed.success)
    throw new BundlerRpcError(bundlerErrorCodes.invalidParams, 'Invalid UserOperation hash')
  return parsed.data as Hex
}

/**
 * The checked JSON-RPC UserOperation as viem's. With `fill` (estimation), its gas limits and fees are
 * those of `fill`; without, each must be there.
 */
export function toOperation(
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

export function toRpc(checked: CheckedUserOperation): RpcUserOperation<'0.8'> {
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
export function preVerificationGasOf(operation: UserOperation<'0.8'>): bigint {
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
