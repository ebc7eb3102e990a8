/** The Bitcoin methods' shared parts: the account, the signing rules as the service's errors, PSBTs to previews. */
import * as z from 'zod/mini'
import {
  checkPsbtRequest,
  previewPsbt,
  type signBitcoinRequest,
  signedPsbt,
} from '../../../src/protocol/embedded/bitcoinSigner.ts'
import type { SignRequest } from '../../../src/protocol/embedded/signing.ts'
import { EmbeddedError } from '../errors.ts'
import { invalidParams } from './params.ts'
import { verifiedSignature } from './plan.ts'
import type { BitcoinAccount, MethodContext, MethodPreview } from './types.ts'

type PsbtRequest = Extract<Parameters<typeof signBitcoinRequest>[0], { kind: 'bip122-psbt' }>

/** A request naming an account or address that is not the person's. */
export const foreignBitcoinAccount = () =>
  new EmbeddedError(403, 'FORBIDDEN', "This address is not this wallet's Bitcoin account", { rpcCode: 4100 })

/**
 * The person's Bitcoin account on the request's network; `named` (a CAIP-10 account or an address the
 * page gave) must be it.
 *
 * @example
 * const account = await bitcoinAccountOf(ctx, params.account)
 */
export async function bitcoinAccountOf(ctx: MethodContext, ...named: (string | undefined)[]) {
  if (!ctx.bitcoin || !ctx.chainId.startsWith('bip122:'))
    throw new EmbeddedError(400, 'BAD_REQUEST', 'Chain is not supported', { field: 'chainId' })
  const account = await ctx.bitcoin()
  for (const name of named) {
    if (name === undefined) continue
    const address = name.startsWith('bip122:') ? name.split(':')[2] : name
    if (address !== account.address) throw foreignBitcoinAccount()
  }
  return account
}

/** Runs a Bitcoin rule or reading; its refusal (`SigningRefusedError`) answers `Invalid params` with its words. */
export function checked<T>(run: () => T): T {
  try {
    return run()
  } catch (error) {
    if (error instanceof Error && error.name === 'SigningRefusedError')
      throw invalidParams((error as Error & { shortMessage: string }).shortMessage)
    throw error
  }
}

/** The CAIP-10 `account` param WalletConnect's bip122 methods carry (optional here: the session has one). */
export const accountParam = z.optional(z.string().check(z.maxLength(200)))

/**
 * The preview and plan of a PSBT: every input and output read from its bytes, the fee, and the plan
 * signing `inputs` (the person's own; all of them when the page named none).
 *
 * @example
 * return psbtPreview(account, psbt, undefined)
 */
export function psbtPreview(
  account: BitcoinAccount,
  psbt: string,
  inputs: readonly number[] | undefined,
): { shown: MethodPreview; prepared: { plan: SignRequest[] } } {
  const read = checked(() => previewPsbt(psbt, account.publicKey, account.network))
  const request: PsbtRequest = {
    kind: 'bip122-psbt',
    key: account.network.key,
    psbt,
    inputs: inputs ? [...inputs] : read.ownInputs,
  }
  // The signer's own rules (own inputs only, amounts present, SIGHASH_ALL), before anyone is asked.
  checked(() => checkPsbtRequest(request, account.publicKey))
  return {
    shown: {
      from: account.address,
      bitcoin: { inputs: read.inputs, outputs: read.outputs },
      fee: read.fee,
    },
    prepared: { plan: [request] },
  }
}

/**
 * The PSBT of an approved request with the person's checked signatures placed and their inputs
 * finalized.
 *
 * @example
 * const tx = await signedTransaction(ctx, prepared, signatures)
 */
export async function signedTransaction(
  ctx: MethodContext,
  prepared: unknown,
  signatures: readonly string[],
) {
  const account = await bitcoinAccountOf(ctx)
  const [request, signature] = await verifiedSignature(ctx, prepared, signatures)
  if (request.kind !== 'bip122-psbt') throw invalidParams('Not a PSBT request')
  return checked(() => signedPsbt(request, signature, account.publicKey))
}
