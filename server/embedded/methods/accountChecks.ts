/** Which EVM account signs a request, and the checks that a request names only the person's own accounts. */
import { type Address, type Hex, isAddress, isAddressEqual } from 'viem'
import type { SignRequest } from '../../../src/protocol/embedded/signing.ts'
import { EmbeddedError, type EmbeddedErrorExtra, isEmbeddedError } from '../errors.ts'
import type { SmartAccountCall } from '../smartAccounts.ts'
import { invalidParams } from './params.ts'
import type { Planned } from './plan.ts'
import type { MethodContext } from './types.ts'

/** What a request signed by the smart account stores: execute sends it through the smart account. */
export interface ViaSmartAccount {
  smartAccount: true
}

/**
 * A smart-account request whose UserOperation the bundler refused to prepare (a call that reverts, …):
 * stored with the bundler's answer and refused with it at approval, where the person meets it as before
 * signing moved to the preview.
 */
interface PreparationFailed extends ViaSmartAccount {
  failed: {
    statusCode: number
    code: ConstructorParameters<typeof EmbeddedError>[1]
    message: string
    extra: EmbeddedErrorExtra
  }
}

/**
 * What a smart-account preview stores: its UserOperation prepared whole as the plan, or the bundler's refusal.
 *
 * @example
 * prepared: await preparedOperation(() => ctx.smart.prepareCalls(ctx.userId, ctx.chainId, calls))
 */
export async function preparedOperation(
  prepare: () => Promise<SignRequest>,
): Promise<(ViaSmartAccount & Planned) | PreparationFailed> {
  try {
    return { smartAccount: true, plan: [await prepare()] }
  } catch (error) {
    if (!isEmbeddedError(error)) throw error
    const { statusCode, code, message, extra } = error
    const failed = { statusCode, code: code as PreparationFailed['failed']['code'], message, extra }
    return { smartAccount: true, failed }
  }
}

/** Refuses a stored smart-account request whose preparation failed, with the bundler's answer. */
export function refuseIfUnprepared(prepared: unknown): void {
  const failed = (prepared as Partial<PreparationFailed> | null)?.failed
  if (failed) throw new EmbeddedError(failed.statusCode, failed.code, failed.message, failed.extra)
}

/** Whether a stored request goes through the smart account (its preview said so). */
export const viaSmartAccount = (prepared: unknown): prepared is ViaSmartAccount =>
  Boolean((prepared as { smartAccount?: boolean } | null)?.smartAccount)

/** `403`, EIP-1193 4100: the request names an account that is not the person's. */
export const foreignAccount = () =>
  new EmbeddedError(403, 'FORBIDDEN', 'The request names an account this wallet does not hold', {
    rpcCode: 4100,
  })

/** Refuses an address the page gave unless it is `own` (none given: nothing to check). */
export function mustBeOwn(given: string | undefined | null, own: Address): void {
  if (given && !(isAddress(given, { strict: false }) && isAddressEqual(given as Address, own))) {
    throw foreignAccount()
  }
}

/**
 * Who signs a message: the smart account when the page names it (the person's account on this network),
 * else the EOA, which the page must name if it names one.
 */
export async function evmSigner(
  ctx: MethodContext,
  signer: string,
): Promise<{ address: Address; smart: boolean; prepared: ViaSmartAccount | null }> {
  const evm = await ctx.evmAccount()
  if (evm.smart && isAddress(signer, { strict: false }) && isAddressEqual(signer, evm.address))
    return { address: evm.address, smart: true, prepared: { smartAccount: true } }
  mustBeOwn(signer, ctx.own.evm)
  return { address: ctx.own.evm, smart: false, prepared: null }
}

/** A call of a batch or a transaction as a smart account's call; it cannot create a contract. */
export function smartCall(call: {
  to?: string | null | undefined
  value?: string | bigint | undefined
  data?: string | undefined
}): SmartAccountCall {
  if (!call.to)
    throw invalidParams('A smart account sends calls to an address; it cannot create a contract here')
  return {
    to: call.to as Address,
    ...(call.value === undefined ? {} : { value: BigInt(call.value) }),
    ...(call.data === undefined ? {} : { data: call.data as Hex }),
  }
}
