// The bundler's JSON-RPC errors (ERC-7769 codes) and how EntryPoint and call reverts read as them.
import { type Abi, BaseError, ContractFunctionRevertedError, decodeErrorResult, type Hex } from 'viem'

/** ERC-4337 bundler JSON-RPC error codes (ERC-7769) and JSON-RPC's own. */
export const bundlerErrorCodes = {
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Rejected by the EntryPoint's validation (the account or its factory). */
  rejectedByEntryPoint: -32500,
  /** Rejected by the paymaster's validation. */
  rejectedByPaymaster: -32501,
  /** Expired, or not valid yet. */
  outOfTimeRange: -32503,
  /** The signature check failed. */
  invalidSignature: -32507,
  /** The UserOperation's calls revert. */
  executionReverted: -32521,
} as const

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
export function entryPointFailure(error: unknown): BundlerRpcError {
  const revert =
    error instanceof BaseError
      ? error.walk((cause) => cause instanceof ContractFunctionRevertedError || hasData(cause))
      : undefined
  // Hardhat answers a custom error it cannot name with its data in the message only.
  const data =
    revert && hasData(revert)
      ? revert.data
      : error instanceof Error
        ? /return data: (0x[0-9a-fA-F]+)/.exec(error.message)?.[1]
        : undefined
  if (typeof data === 'string' && data.startsWith('0x') && data.length >= 10) {
    try {
      const decoded = decodeErrorResult({ abi: entryPointErrors, data: data as Hex })
      const reason = decoded.args[1]
      const code = reason.startsWith('AA24')
        ? bundlerErrorCodes.invalidSignature
        : reason.startsWith('AA3')
          ? bundlerErrorCodes.rejectedByPaymaster
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
export function revertReason(data: Hex): string {
  try {
    const decoded = decodeErrorResult({ abi: callErrors, data })
    if (decoded.errorName === 'Error') return decoded.args[0]
    return `call ${decoded.args[0]} of the batch: ${revertReason(decoded.args[1])}`
  } catch {
    return data.length >= 10 ? `error ${data.slice(0, 10)}` : 'no reason given'
  }
}
