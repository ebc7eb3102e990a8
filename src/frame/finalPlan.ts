// The plan the frame signs at Approve: the service's final numbering, checked against what was shown.
import type { SigningPlanResponse } from '../protocol/embedded/keys.ts'
import type { SignPlan, SignRequest } from '../protocol/embedded/signing.ts'
import { FrameFailure } from './failure.ts'

/** Why nothing was signed: the plan to sign is not the one the person was shown. */
export const planChangedMessage = 'The request changed after it was shown: nothing was signed.'

/** The failure of a final plan that differs from the previewed one in more than its nonces. */
export const planChanged = () => new FrameFailure({ message: planChangedMessage, code: 'PLAN_CHANGED' })

/** Whether a plan holds EOA transactions, whose nonces the service sets again at Approve. */
export const hasEoaTransactions = (plan: SignPlan): boolean =>
  plan.some((request) => request.kind === 'evm-transaction')

/**
 * A value as text with every object's keys sorted (key order is not signed, and the service's database
 * may reorder them), numbers and bigints as decimal text (JSON and viem take both for an integer).
 */
export function canonical(value: unknown): string {
  if (typeof value === 'bigint') return JSON.stringify(value.toString())
  if (typeof value === 'number') return JSON.stringify(String(value))
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** A request as compared: an EOA transaction without its nonce, anything else whole. */
const withoutNonce = (request: SignRequest) =>
  request.kind === 'evm-transaction'
    ? canonical({ ...request, transaction: { ...request.transaction, nonce: 0 } })
    : canonical(request)

/**
 * The final plan, once checked to be the previewed plan with its EOA transactions' nonces all moved by
 * one amount (their order kept): a recipient, an amount, call data, gas, fees, the chain, a message, or
 * the number of requests changed is refused, and the frame signs nothing.
 *
 * @example
 * const plan = checkedFinalPlan(created.signing.plan, final.plan) // or throws PLAN_CHANGED
 */
export function checkedFinalPlan(previewed: SignPlan, final: SignPlan): SignPlan {
  if (final.length !== previewed.length) throw planChanged()
  let shift: number | undefined
  for (const [index, shown] of previewed.entries()) {
    const signed = final[index] as SignRequest
    if (withoutNonce(shown) !== withoutNonce(signed)) throw planChanged()
    if (shown.kind !== 'evm-transaction' || signed.kind !== 'evm-transaction') continue
    const moved = signed.transaction.nonce - shown.transaction.nonce
    if (shift !== undefined && moved !== shift) throw planChanged()
    shift = moved
  }
  return final
}

/**
 * The signing to do at Approve: the service's final plan checked against the previewed one (see
 * {@link checkedFinalPlan}), with the smart accounts the preview named for the signing rules.
 *
 * @example
 * const signing = checkedFinalSigning(created.signing, await askFinalPlan(created.id))
 */
export function checkedFinalSigning(
  previewed: SigningPlanResponse,
  final: SigningPlanResponse,
): SigningPlanResponse {
  return { plan: checkedFinalPlan(previewed.plan, final.plan), ownAccounts: previewed.ownAccounts }
}
