/** Signing by plan on the service: what a preview stores, the signing rules it must pass, and the checks execute makes (the frame signs). */
import type { Hex } from 'viem'
import * as z from 'zod/mini'
import { verifyBitcoinSignature } from '../../../src/protocol/embedded/bitcoinSigner.ts'
import type { ApprovalMethod } from '../../../src/protocol/embedded/index.ts'
import { verifyRequestSignature } from '../../../src/protocol/embedded/signer.ts'
import { type SignPlan, type SignRequest, signingPlan } from '../../../src/protocol/embedded/signing.ts'
import { checkSignRequest, type SigningRefusedError } from '../../../src/protocol/embedded/signingRules.ts'
import { actionNotAllowed, EmbeddedError } from '../errors.ts'
import { invalidParams } from './params.ts'
import type { MethodContext } from './types.ts'

/**
 * What a preview stores for signing by plan: the signatures the approval needs, in order; `final` once
 * the plan to sign was handed out at Approve (`POST requests/:id/plan`).
 */
export interface Planned {
  plan: SignPlan
  final?: boolean
}

/** The refusal when the signatures given are not one per request of the plan. */
export const signatureCountMessage = (needed: number, given: number) =>
  `This request needs ${needed} signature${needed === 1 ? '' : 's'}; ${given} given`

/** The refusal of a signature that is not the person's own over the request it stands for. */
export const foreignSignatureMessage = (index: number) =>
  `Signature ${index + 1} is not this wallet's signature of what was approved`

const storedPlan = z.object({ plan: signingPlan })

/**
 * The plan a preview stored (none: an empty plan, which no method executes).
 *
 * @example
 * const plan = planOf(row.prepared)
 */
export function planOf(prepared: unknown): SignPlan {
  const parsed = z.safeParse(storedPlan, prepared)
  return parsed.success ? parsed.data.plan : []
}

/**
 * Whether a stored request's final plan was handed out (its nonces are then taken).
 *
 * @example
 * isFinal(row.prepared) // true after POST requests/:id/plan
 */
export const isFinal = (prepared: unknown): boolean => (prepared as Partial<Planned> | null)?.final === true

/** A refusal of the signing rules as the wallet's error, with the words and codes the service used before. */
function refusal(error: SigningRefusedError): EmbeddedError {
  if (
    error.reason === 'reserved-domain' ||
    error.reason === 'foreign-account' ||
    error.reason === 'own-account-call'
  )
    return new EmbeddedError(403, 'FORBIDDEN', error.shortMessage, { rpcCode: 4100 })
  return invalidParams(error.shortMessage)
}

/**
 * Runs the signing rules over a plan, as the service's errors: when a request is stored, so that what
 * the frame would refuse to sign is refused before the person is asked.
 *
 * @example
 * checkPlan('eth_signTypedData_v4', plan, await ctx.ownSmartAccounts())
 */
export function checkPlan(method: ApprovalMethod, plan: SignPlan, ownAccounts: readonly Hex[]): void {
  try {
    for (const request of plan) checkSignRequest(method, request, { ownAccounts })
  } catch (error) {
    if (error instanceof Error && error.name === 'SigningRefusedError')
      throw refusal(error as SigningRefusedError)
    throw error
  }
}

/**
 * The plan's requests with their signatures, once each signature is checked to be the person's own over
 * its request (recovered to their EVM address, or verified with their Solana key). A missing, extra or
 * foreign signature is refused: whoever signs, only what the preview described is relayed.
 *
 * @example
 * const [[request, signature]] = await verifiedSignatures(ctx, prepared, signatures)
 */
export async function verifiedSignatures(
  ctx: MethodContext,
  prepared: unknown,
  signatures: readonly string[],
): Promise<[SignRequest, Hex][]> {
  const plan = planOf(prepared)
  if (plan.length === 0) throw actionNotAllowed()
  if (signatures.length !== plan.length)
    throw new EmbeddedError(400, 'BAD_REQUEST', signatureCountMessage(plan.length, signatures.length), {
      rpcCode: -32602,
    })
  const checked: [SignRequest, Hex][] = []
  // Bitcoin requests: checked against the network's BIP-84 key (never another network's).
  const bitcoin = plan.some((request) => request.kind.startsWith('bip122-'))
    ? await ctx.bitcoin?.()
    : undefined
  for (const [index, request] of plan.entries()) {
    const signature = signatures[index] as string
    const own =
      request.kind === 'bip122-message' || request.kind === 'bip122-psbt'
        ? !!bitcoin &&
          request.key === bitcoin.network.key &&
          verifyBitcoinSignature(request, signature, bitcoin.publicKey)
        : await verifyRequestSignature(request, signature, ctx.own)
    if (!own) throw new EmbeddedError(403, 'FORBIDDEN', foreignSignatureMessage(index), { rpcCode: 4100 })
    checked.push([request, signature as Hex])
  }
  return checked
}

/**
 * The one request and its checked signature of a plan of one (a message, typed data, one transaction).
 *
 * @example
 * const [, signature] = await verifiedSignature(ctx, prepared, signatures)
 */
export async function verifiedSignature(
  ctx: MethodContext,
  prepared: unknown,
  signatures: readonly string[],
): Promise<[SignRequest, Hex]> {
  const [only, ...more] = await verifiedSignatures(ctx, prepared, signatures)
  if (!only || more.length > 0) throw actionNotAllowed()
  return only
}
