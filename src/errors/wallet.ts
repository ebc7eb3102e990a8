// Errors of a wallet's answers: a signature or a signed transaction asked for that did not come back.
import { BaseError, type ErrorParameters } from './base.ts'

/**
 * The wallet answered a signing request without the signature.
 *
 * @example
 * if (!(output?.signature instanceof Uint8Array)) throw new WalletNoSignatureError()
 */
export class WalletNoSignatureError extends BaseError {
  override name = 'WalletNoSignatureError' as const
  constructor(parameters: ErrorParameters = {}) {
    // The words a failed EVM send already shows (`error.noSignature`).
    super('The wallet returned no signature', { messageId: 'noSignature', ...parameters })
  }
}

/**
 * The wallet answered `solana_signTransaction` without the signed transaction.
 *
 * @example
 * if (typeof answer?.transaction !== 'string') throw new WalletNoTransactionError()
 */
export class WalletNoTransactionError extends BaseError {
  override name = 'WalletNoTransactionError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('The wallet returned no transaction', parameters)
  }
}
