import * as z from 'zod/mini'
import { RequestAbortedError } from '../../errors/index.ts'
import { TransactionConfirmationTimeoutError, TransactionFailedError } from './errors.ts'
import { type SolanaRpc, solanaRequest, UnsignedSchema, withContext } from './rpc.ts'

/** Options of {@link confirmSignature}. */
export interface ConfirmSignatureOptions {
  /** Give up after this long (default 30 s). */
  readonly timeoutMs?: number
  /** Wait between two status requests (default 400 ms, about one slot). */
  readonly intervalMs?: number
  /** Stops waiting with a `RequestAbortedError`, e.g. when the modal closes. */
  readonly signal?: AbortSignal
}

/** A transaction that reached `confirmed` or `finalized` without an error. */
export interface ConfirmedSignature {
  readonly slot: number
  readonly confirmationStatus: 'confirmed' | 'finalized'
}

const StatusesSchema = withContext(
  z.tuple([
    z.nullable(
      z.object({
        slot: UnsignedSchema,
        confirmations: z.optional(z.nullable(UnsignedSchema)),
        err: z.optional(z.unknown()),
        confirmationStatus: z.optional(z.nullable(z.enum(['processed', 'confirmed', 'finalized']))),
      }),
    ),
  ]),
)

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(new RequestAbortedError())
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * Polls `getSignatureStatuses` (history included) until the transaction is `confirmed` or
 * `finalized`. Throws `TransactionFailedError` naming the error when it landed but failed,
 * `TransactionConfirmationTimeoutError` after `timeoutMs`, `RequestAbortedError` when `signal` fires.
 * Errors of `rpc` itself are passed on.
 *
 * @example
 * const signature = await rpc('sendTransaction', [base64, { encoding: 'base64' }])
 * await confirmSignature(rpc, signature, { timeoutMs: 30_000 })
 */
export async function confirmSignature(
  rpc: SolanaRpc,
  signature: string,
  { timeoutMs = 30_000, intervalMs = 400, signal }: ConfirmSignatureOptions = {},
): Promise<ConfirmedSignature> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (signal?.aborted) throw new RequestAbortedError()
    const {
      value: [status],
    } = await solanaRequest(
      rpc,
      'getSignatureStatuses',
      [[signature], { searchTransactionHistory: true }],
      StatusesSchema,
    )
    if (signal?.aborted) throw new RequestAbortedError()
    // Nodes before 1.5 send no confirmationStatus; `confirmations: null` means rooted there.
    const level = status
      ? (status.confirmationStatus ?? (status.confirmations === null ? 'finalized' : 'processed'))
      : undefined
    if (status && (level === 'confirmed' || level === 'finalized')) {
      if (status.err !== null && status.err !== undefined) {
        throw new TransactionFailedError({ signature, transactionError: status.err })
      }
      return { slot: status.slot, confirmationStatus: level }
    }
    const left = deadline - Date.now()
    if (left <= 0) throw new TransactionConfirmationTimeoutError({ signature, timeoutMs })
    await sleep(Math.min(intervalMs, left), signal)
  }
}
