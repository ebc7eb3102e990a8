import { BaseError, type ErrorParameters } from '../../errors/base.ts'

/**
 * The sender's token account is missing or holds less than the amount to send.
 *
 * @example
 * throw new InsufficientTokenBalanceError({ details: 'Balance 5000000, needed 10000000' })
 */
export class InsufficientTokenBalanceError extends BaseError {
  override name = 'InsufficientTokenBalanceError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('Insufficient token balance', parameters)
  }
}

/**
 * A transaction landed but failed; `details` names the error and `transactionError` keeps the
 * node's own (`{ InstructionError: [0, { Custom: 1 }] }`, `'InsufficientFundsForFee'`, …).
 *
 * @example
 * throw new TransactionFailedError({ signature, transactionError: status.err })
 */
export class TransactionFailedError extends BaseError {
  override name = 'TransactionFailedError' as const
  readonly signature: string
  readonly transactionError: unknown
  constructor({
    signature,
    transactionError,
    ...rest
  }: ErrorParameters & { signature: string; transactionError: unknown }) {
    super('Transaction failed', {
      details: describeTransactionError(transactionError),
      metaMessages: [`Signature: ${signature}`],
      ...rest,
    })
    this.signature = signature
    this.transactionError = transactionError
  }
}

/**
 * The transaction did not reach `confirmed` in time. It may still land: look it up by signature
 * before sending it again.
 *
 * @example
 * throw new TransactionConfirmationTimeoutError({ signature, timeoutMs: 30_000 })
 */
export class TransactionConfirmationTimeoutError extends BaseError {
  override name = 'TransactionConfirmationTimeoutError' as const
  readonly signature: string
  constructor({ signature, timeoutMs, ...rest }: ErrorParameters & { signature: string; timeoutMs: number }) {
    super('Transaction was not confirmed in time', {
      details: `Signature ${signature} not confirmed within ${timeoutMs / 1000} seconds`,
      ...rest,
    })
    this.signature = signature
  }
}

/**
 * Names a Solana `TransactionError` as the node sends it in JSON.
 *
 * @example
 * describeTransactionError({ InstructionError: [0, { Custom: 1 }] }) // 'Instruction 0: custom program error 0x1'
 * describeTransactionError('BlockhashNotFound') // 'BlockhashNotFound'
 */
export function describeTransactionError(error: unknown): string {
  if (typeof error === 'string') return error
  if (error && typeof error === 'object' && 'InstructionError' in error) {
    const [index, inner] = Array.isArray(error.InstructionError) ? error.InstructionError : []
    const reason =
      inner && typeof inner === 'object' && 'Custom' in inner && typeof inner.Custom === 'number'
        ? `custom program error 0x${inner.Custom.toString(16)}`
        : describeTransactionError(inner)
    return `Instruction ${String(index)}: ${reason}`
  }
  return JSON.stringify(error) ?? String(error)
}
