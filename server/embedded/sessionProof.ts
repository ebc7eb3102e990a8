/**
 * The service's side of browser-bound sessions (the wire format is in
 * src/protocol/embedded/sessionProof.ts): the public key a session is opened with, and the check of
 * each request's signature by that key. The nonce's single use is the login service's (in the
 * database, so it holds across instances).
 */
import { createHash, createPublicKey, verify } from 'node:crypto'
import {
  SESSION_PROOF_WINDOW_MS,
  sessionProofHeaders,
  sessionProofPayload,
  sessionPublicKey,
} from '../../src/protocol/embedded/index.ts'
import { EmbeddedError } from './errors.ts'

/** What a request shows of itself for the session check. */
export interface SessionProof {
  /** `Authorization: Bearer …`. */
  authorization: string | undefined
  method: string
  /** The path with its query, as the request line had it. */
  url: string
  /** The body's text as received ('' without one). */
  body: string
  time: string | undefined
  nonce: string | undefined
  signature: string | undefined
}

/**
 * The browser's public key sent to open a session: an ECDSA P-256 SPKI key, or `400` (a session is
 * never opened without one).
 */
export function sessionKeyOf(header: string | undefined): string {
  const parsed = sessionPublicKey.safeParse(header)
  if (parsed.success) {
    try {
      const key = createPublicKey({ key: Buffer.from(parsed.data, 'base64url'), format: 'der', type: 'spki' })
      if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1')
        return parsed.data
    } catch {
      // Not a key: refused below.
    }
  }
  throw new EmbeddedError(400, 'BAD_REQUEST', 'This browser sent no valid session key', {
    field: 'x-wallet-key',
  })
}

/**
 * Whether `proof` is signed by `publicKey` at a time within the window of `nowMs`; answers its nonce
 * when it is (for the caller to spend once), else undefined.
 */
export function checkSessionProof(publicKey: string, proof: SessionProof, nowMs: number): string | undefined {
  const headers = sessionProofHeaders.safeParse({
    time: proof.time,
    nonce: proof.nonce,
    signature: proof.signature,
  })
  if (!headers.success) return undefined
  const { time, nonce, signature } = headers.data
  if (Math.abs(Number(time) - nowMs) > SESSION_PROOF_WINDOW_MS) return undefined
  const payload = sessionProofPayload({
    method: proof.method,
    url: proof.url,
    bodySha256: createHash('sha256').update(proof.body).digest('hex'),
    time,
    nonce,
  })
  try {
    const key = createPublicKey({ key: Buffer.from(publicKey, 'base64url'), format: 'der', type: 'spki' })
    const ok = verify(
      'sha256',
      Buffer.from(payload),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    )
    return ok ? nonce : undefined
  } catch {
    return undefined
  }
}
