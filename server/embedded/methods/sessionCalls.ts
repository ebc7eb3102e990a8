/**
 * `wallet_sendCalls` with the `permissions` capability (ERC-7715): the calls go in one
 * UserOperation signed by the session key the frame keeps, without a prompt. The service prepares it
 * with a session stub signature, so the chain's own policy check runs at the estimate: a call outside the
 * permission is refused there, with the account's reason in words, and nothing is sent. That includes the
 * account's measure of what leaves it as the calls run (a router pulling more than the day's allowance
 * under an earlier approval reverts the estimate's run of the calls with `SessionAllowanceExceeded`).
 */
import { type Address, BaseError, decodeErrorResult, type Hex, isAddressEqual, recoverAddress } from 'viem'
import { entryPoint08Abi } from 'viem/account-abstraction'
import { policyOfGrant, sessionPeriod } from '../../../src/protocol/embedded/permissions.ts'
import { evmDigestOf } from '../../../src/protocol/embedded/signer.ts'
import type { SignRequest } from '../../../src/protocol/embedded/signing.ts'
import { EmbeddedError, isEmbeddedError } from '../errors.ts'
import type { SmartAccountCall } from '../smartAccounts.ts'
import { SESSION_KEY_STUB, sessionSignature, walletAccountSessionAbi } from '../walletAccount.ts'
import { chainTime, siteRecord } from './permissionRecords.ts'
import { foreignSignatureMessage } from './plan.ts'
import type { MethodContext } from './types.ts'

/** What a session send stores: its one UserOperation, the key that signs it and the period it names. */
export interface SessionPrepared {
  smartAccount: true
  plan: [SignRequest]
  session: { key: Address; period: string }
}

/** The account's refusals of a session op, in words a site can show. */
const reasons: Readonly<Record<string, string>> = {
  SessionAllowanceExceeded: "These calls would spend more than the permission's allowance for this period",
  SessionIsRevoked: 'This permission was revoked',
  SessionUnknown: 'This permission is not granted on this account',
  SessionCallLimitReached: 'This permission has made all the calls it allows',
  SessionCallNotAllowed: 'This permission does not allow one of these calls',
  SessionSelfCall: 'A permission cannot call the wallet’s own account',
  SessionValueOverCap: 'One of these calls sends more than the permission allows per call',
  SessionNativeOverCap: 'These calls would send more than the permission allows per action',
  SessionGasCostOverCap: 'The network fee is over what this permission allows',
  SessionNotACall: 'This permission does not allow one of these calls',
  SessionPeriodOutOfRange: 'This permission does not allow one of these calls',
}

/** The refusal of a session send with the account's reason, or undefined when the error is not one. */
export function sessionRefusal(error: unknown): EmbeddedError | undefined {
  const inner = error instanceof BaseError ? error.walk((cause) => isEmbeddedError(cause)) : error
  const embedded = isEmbeddedError(inner) ? inner : isEmbeddedError(error) ? error : undefined
  if (!embedded) return undefined
  const refused = (message: string) => new EmbeddedError(403, 'FORBIDDEN', message, { rpcCode: 4100 })
  if (/time range|expired/i.test(embedded.message))
    return refused('This permission has expired or has not started')
  const data = embedded.extra.rpcData
  if (typeof data !== 'string' || !data.startsWith('0x')) return undefined
  // The EntryPoint's FailedOpWithRevert(opIndex, reason, inner): the account's own error is `inner`.
  const candidates: Hex[] = [data as Hex]
  try {
    const outer = decodeErrorResult({ abi: entryPoint08Abi, data: data as Hex })
    if (outer.errorName === 'FailedOpWithRevert') candidates.unshift(outer.args[2])
  } catch {
    // Not wrapped: the data may be the account's error itself.
  }
  for (const candidate of candidates) {
    try {
      const decoded = decodeErrorResult({ abi: walletAccountSessionAbi, data: candidate })
      const reason = reasons[decoded.errorName]
      if (reason) return refused(reason)
    } catch {
      // Not one of the account's session errors.
    }
  }
  return undefined
}

/**
 * Prepares a session send: the person's permission of that key for this site (from the index), the
 * UserOperation of `calls` estimated with the session's stub (so the account checks its policy now), and
 * the period the signature names (from the chain's time).
 */
export async function prepareSessionCalls(
  ctx: MethodContext,
  key: Address,
  calls: readonly SmartAccountCall[],
): Promise<SessionPrepared> {
  const record = await siteRecord(ctx, key)
  const period = sessionPeriod(policyOfGrant(record.grant), await chainTime(ctx))
  try {
    const request = await ctx.smart.prepareCalls(ctx.userId, ctx.chainId, calls, undefined, {
      stubSignature: sessionSignature({ key, period, signature: SESSION_KEY_STUB }),
    })
    return { smartAccount: true, plan: [request], session: { key, period: period.toString() } }
  } catch (error) {
    throw sessionRefusal(error) ?? error
  }
}

/** Whether a stored request is a session send. */
export const isSessionPrepared = (prepared: unknown): prepared is SessionPrepared =>
  typeof (prepared as Partial<SessionPrepared> | null)?.session?.key === 'string'

/**
 * Sends a session op once its signature is the session key's own over the stored UserOperation: wrapped
 * as the account reads it (`0x01 ‖ key ‖ period ‖ signature`). Answers the UserOperation's hash.
 */
export async function sendSessionCalls(
  ctx: MethodContext,
  prepared: SessionPrepared,
  signatures: readonly string[],
): Promise<Hex> {
  const [request] = prepared.plan
  const [signature] = signatures
  const signer =
    signatures.length === 1 && typeof signature === 'string' && /^0x[0-9a-fA-F]{130}$/.test(signature)
      ? await recoverAddress({ hash: evmDigestOf(request as never), signature: signature as Hex }).catch(
          () => undefined,
        )
      : undefined
  if (!signer || !isAddressEqual(signer, prepared.session.key))
    throw new EmbeddedError(403, 'FORBIDDEN', foreignSignatureMessage(0), { rpcCode: 4100 })
  const wrapped = sessionSignature({
    key: prepared.session.key,
    period: BigInt(prepared.session.period),
    signature: signature as Hex,
  })
  try {
    return await ctx.smart.sendSigned(ctx.chainId, request, wrapped)
  } catch (error) {
    throw sessionRefusal(error) ?? error
  }
}
