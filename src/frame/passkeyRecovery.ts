// The passkey's side of recovery: the PRF ceremonies that give the key to the recovery share.
import * as z from 'zod/mini'
import { fromBase64, fromBase64Url, toBase64Url } from '../protocol/base64.ts'
import type { PasskeySummary, RecoveryShareResponse } from '../protocol/embedded/index.ts'
import { newPrfSalt } from './keys/recovery.ts'
import type { RecoveryKey } from './keys/recoveryKey.ts'
import type { WebAuthnCeremonies } from './walletTypes.ts'

/** What a ceremony answered, as far as recovery reads it: the credential and its PRF result. */
const prfAnswer = z.object({
  id: z.string(),
  clientExtensionResults: z.object({
    prf: z.optional(
      z.object({
        enabled: z.optional(z.boolean()),
        results: z.optional(z.object({ first: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/)) })),
      }),
    ),
  }),
})

/**
 * No PRF result: the browser or the authenticator does not support the PRF extension. The view says
 * so (`frameRecoveryNoPrf`) and keeps the password.
 */
export class PasskeyPrfUnavailableError extends Error {
  override name = 'PasskeyPrfUnavailableError' as const
  constructor() {
    super('This passkey cannot protect a wallet (no PRF extension)')
  }
}

/** The PRF output of a ceremony's answer, or undefined; and whether a new credential has PRF at all. */
function prfOf(answer: unknown): { id: string; output: Uint8Array | undefined; enabled: boolean } {
  const { id, clientExtensionResults } = prfAnswer.parse(answer)
  const first = clientExtensionResults.prf?.results?.first
  return {
    id,
    output: first ? fromBase64Url(first) : undefined,
    enabled: clientExtensionResults.prf?.enabled === true,
  }
}

/**
 * An assertion asked only for its PRF output on `prfSalt`: the service verifies nothing here (nothing
 * is signed in by it), so the challenge is local; the person is verified by the authenticator.
 */
function prfRequest(credentialIds: string[], prfSalt: Uint8Array): Record<string, unknown> {
  return {
    challenge: toBase64Url(crypto.getRandomValues(new Uint8Array(32))),
    allowCredentials: credentialIds.map((id) => ({ type: 'public-key', id })),
    userVerification: 'required',
    timeout: 120_000,
    extensions: { prf: { eval: { first: toBase64Url(prfSalt) } } },
  }
}

/**
 * The key for a new passkey recovery: with one of the person's passkeys on this site (asserted), else
 * a new one (created and linked by `link`, so it signs in too). Chromium may answer the PRF output
 * only on a get(): then one follows, with the same salt. {@link PasskeyPrfUnavailableError} without it.
 *
 * @example
 * const key = await passkeySetupKey({ webauthn, own: await passkeys.list(), link: passkeys.link })
 * await keyring.setUpRecovery(key)
 */
export async function passkeySetupKey(parameters: {
  webauthn: WebAuthnCeremonies
  own: PasskeySummary[]
  link: (extensions: Record<string, unknown>) => Promise<{ credential: unknown }>
}): Promise<RecoveryKey> {
  const { webauthn, own, link } = parameters
  const prfSalt = newPrfSalt()
  let answer: ReturnType<typeof prfOf>
  if (own.length > 0)
    answer = prfOf(
      await webauthn.get(
        prfRequest(
          own.map((passkey) => passkey.id),
          prfSalt,
        ),
      ),
    )
  else {
    answer = prfOf((await link({ prf: { eval: { first: toBase64Url(prfSalt) } } })).credential)
    if (!answer.output && answer.enabled) answer = prfOf(await webauthn.get(prfRequest([answer.id], prfSalt)))
  }
  if (answer.output?.length !== 32) throw new PasskeyPrfUnavailableError()
  return { method: 'passkey', credentialId: answer.id, prfSalt, prfOutput: answer.output }
}

/**
 * The key that opens a passkey-sealed record: the record's credential asked for its PRF output on the
 * record's salt. {@link PasskeyPrfUnavailableError} without it.
 *
 * @example
 * const key = await passkeyRecoveryKey(webauthn, record)
 * await keyring.recover(record, key)
 */
export async function passkeyRecoveryKey(
  webauthn: WebAuthnCeremonies,
  record: Extract<RecoveryShareResponse, { method: 'passkey' }>,
): Promise<RecoveryKey> {
  const prfSalt = fromBase64(record.sealed.kdf.prfSalt)
  const answer = prfOf(await webauthn.get(prfRequest([record.credentialId], prfSalt)))
  if (answer.output?.length !== 32) throw new PasskeyPrfUnavailableError()
  return { method: 'passkey', credentialId: record.credentialId, prfSalt, prfOutput: answer.output }
}
