import { createPublicKey, verify } from 'node:crypto'
import { z } from 'zod'
import { decodeBase58 as decodeOrNull } from '../../../src/protocol/siwx/index.ts'

/** What a verified relay auth JWT tells the relay. */
export interface RelayAuthClaims {
  /** The `iss` did:key, which the WalletConnect client also uses as its client id. */
  readonly clientId: string
  readonly sub: string
  readonly aud: string
  readonly iat: number
  readonly exp: number
}

export type RelayAuthResult =
  | { readonly ok: true; readonly claims: RelayAuthClaims }
  | { readonly ok: false; readonly reason: string }

export interface VerifyRelayAuthParameters {
  /** Origins (`ws://host:port`) the token's `aud` may name; compared by origin, so paths are ignored. */
  readonly audiences: readonly string[]
  /** Current time in milliseconds. */
  readonly now: number
  /** Tolerated clock skew for `iat`, in seconds. */
  readonly skewSeconds?: number
}

// multicodec varint for an ed25519 public key (0xed), as in did:key.
const ED25519_MULTICODEC = [0xed, 0x01] as const
const DID_KEY_PREFIX = 'did:key:z'

const headerSchema = z.object({ alg: z.literal('EdDSA'), typ: z.literal('JWT') })
const claimsSchema = z.object({
  iss: z.string().startsWith(DID_KEY_PREFIX),
  sub: z.string(),
  aud: z.string(),
  iat: z.number(),
  exp: z.number(),
})

/**
 * Decodes base58btc text (the Bitcoin alphabet) to bytes; `undefined` when a character is outside it.
 *
 * @example
 * decodeBase58('2g') // Uint8Array [0x61]
 */
export function decodeBase58(text: string): Uint8Array | undefined {
  return decodeOrNull(text) ?? undefined
}

/**
 * Reads the ed25519 public key out of a `did:key:z6Mk…` identifier (multibase base58btc with the
 * 0xed01 multicodec prefix); `undefined` for any other key type or a malformed identifier.
 *
 * @example
 * decodeDidKey('did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK')?.length // 32
 */
export function decodeDidKey(did: string): Uint8Array | undefined {
  if (!did.startsWith(DID_KEY_PREFIX)) return undefined
  const bytes = decodeBase58(did.slice(DID_KEY_PREFIX.length))
  if (bytes?.length !== 34 || bytes[0] !== ED25519_MULTICODEC[0] || bytes[1] !== ED25519_MULTICODEC[1]) {
    return undefined
  }
  return bytes.subarray(2)
}

function decodeJsonPart(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
}

function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url)
    if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') return undefined
    return `${parsed.protocol}//${parsed.host}`
  } catch {
    return undefined
  }
}

/**
 * Verifies the auth JWT a WalletConnect client puts in the relay URL's `auth` query parameter
 * (`@walletconnect/relay-auth`: EdDSA, `iss` a did:key ed25519 key, `aud` the relay URL, `exp` in seconds).
 *
 * @example
 * const result = verifyRelayAuth(jwt, { audiences: ['ws://127.0.0.1:8789'], now: Date.now() })
 * if (result.ok) console.log(result.claims.clientId)
 */
export function verifyRelayAuth(jwt: string, parameters: VerifyRelayAuthParameters): RelayAuthResult {
  const parts = jwt.split('.')
  if (parts.length !== 3) return { ok: false, reason: 'auth is not a JWT' }
  const [headerPart = '', claimsPart = '', signaturePart = ''] = parts

  if (!headerSchema.safeParse(decodeJsonPart(headerPart)).success) {
    return { ok: false, reason: 'auth JWT must be EdDSA' }
  }
  const parsedClaims = claimsSchema.safeParse(decodeJsonPart(claimsPart))
  if (!parsedClaims.success) return { ok: false, reason: 'auth JWT claims are malformed' }
  const claims = parsedClaims.data

  const publicKey = decodeDidKey(claims.iss)
  if (!publicKey) return { ok: false, reason: 'auth JWT issuer is not an ed25519 did:key' }
  const signature = Buffer.from(signaturePart, 'base64url')
  if (signature.length !== 64) return { ok: false, reason: 'auth JWT signature is malformed' }

  let valid = false
  try {
    const key = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') },
      format: 'jwk',
    })
    valid = verify(null, Buffer.from(`${headerPart}.${claimsPart}`, 'utf8'), key, signature)
  } catch {
    valid = false
  }
  if (!valid) return { ok: false, reason: 'auth JWT signature is invalid' }

  const nowSeconds = Math.floor(parameters.now / 1000)
  const skew = parameters.skewSeconds ?? 60
  if (claims.exp <= nowSeconds) return { ok: false, reason: 'auth JWT has expired' }
  if (claims.iat > nowSeconds + skew) return { ok: false, reason: 'auth JWT is issued in the future' }

  const audience = originOf(claims.aud)
  const accepted = parameters.audiences.map(originOf)
  if (!audience || !accepted.includes(audience)) {
    return { ok: false, reason: 'auth JWT audience is not this relay' }
  }

  return {
    ok: true,
    claims: { clientId: claims.iss, sub: claims.sub, aud: claims.aud, iat: claims.iat, exp: claims.exp },
  }
}
