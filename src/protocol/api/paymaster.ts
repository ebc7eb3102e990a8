import * as z from 'zod/mini'

/**
 * The paymaster API of the companion service (`POST /paymaster/v1?projectId=…`, ERC-7677): JSON-RPC
 * `pm_getPaymasterStubData` and `pm_getPaymasterData`, each with params `[userOp, entryPoint, chainId,
 * context]`, answering the paymaster's address, its data and gas limits. The project's sponsorship policy
 * (docs/SELF-HOSTING.md, "Sponsored gas") decides what is sponsored.
 */

/** Error codes of the paymaster API besides the common ones (in a JSON-RPC error's `data.code`). */
export const paymasterErrorCodes = [
  'PAYMASTER_NOT_CONFIGURED',
  'PAYMASTER_NETWORK_NOT_SPONSORED',
  'PAYMASTER_CONTRACT_NOT_SPONSORED',
  'PAYMASTER_BUDGET_SPENT',
] as const

export type PaymasterErrorCode = (typeof paymasterErrorCodes)[number]

/** The JSON-RPC error code of each paymaster refusal (server errors, -32000 to -32099). */
export const paymasterRpcErrorCodes: Record<PaymasterErrorCode, number> = {
  PAYMASTER_NOT_CONFIGURED: -32010,
  PAYMASTER_NETWORK_NOT_SPONSORED: -32011,
  PAYMASTER_CONTRACT_NOT_SPONSORED: -32012,
  PAYMASTER_BUDGET_SPENT: -32013,
}

/** The paymaster's JSON-RPC methods. */
export const paymasterMethods = ['pm_getPaymasterStubData', 'pm_getPaymasterData'] as const
export type PaymasterMethod = (typeof paymasterMethods)[number]

const hex = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/, 'Expected 0x-prefixed hex'), z.maxLength(262_146))
const quantity = z.string().check(z.regex(/^0x[0-9a-fA-F]{1,64}$/, 'Expected a 0x-prefixed quantity'))
const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'Expected an address'))

/**
 * A v0.8 UserOperation as ERC-7677 passes it: without a signature (or a stub one) and with the gas
 * fields the wallet has so far; paymaster fields are ignored (the paymaster sets them).
 *
 * @example
 * paymasterUserOperation.parse({ sender: '0x…', nonce: '0x0', callData: '0x…' })
 */
export const paymasterUserOperation = z.object({
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
  signature: z.optional(hex),
})
export type PaymasterUserOperation = z.infer<typeof paymasterUserOperation>

/**
 * `[userOp, entryPoint, chainId, context]`: the chain id is a hex quantity (ERC-7677); the context is the
 * dapp's, and this service reads nothing from it.
 *
 * @example
 * paymasterParams.parse([userOp, entryPoint08Address, '0x7a69', {}])
 */
export const paymasterParams = z.tuple([
  paymasterUserOperation,
  address,
  quantity,
  z.optional(z.nullable(z.record(z.string(), z.unknown()))),
])
export type PaymasterParams = z.infer<typeof paymasterParams>

/**
 * The answer to both methods (v0.7+ fields): the stub's has `isFinal: false`, the final one is signed.
 *
 * @example
 * const { paymaster, paymasterData } = paymasterResult.parse(answer.result)
 */
export const paymasterResult = z.object({
  paymaster: address,
  paymasterData: hex,
  paymasterVerificationGasLimit: quantity,
  paymasterPostOpGasLimit: quantity,
  sponsor: z.optional(z.object({ name: z.string() })),
  isFinal: z.optional(z.boolean()),
})
export type PaymasterResult = z.infer<typeof paymasterResult>
