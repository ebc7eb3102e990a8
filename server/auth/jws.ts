/**
 * JWS compact serialisation (RFC 7515) with Ed25519 (`alg: EdDSA`, RFC 8037) on `node:crypto`: the
 * service's nonce and session tokens.
 */
import { createHash, type KeyObject, sign, verify } from 'node:crypto'

/** The public half of an Ed25519 key as a JWK (RFC 8037). */
export interface Ed25519PublicJwk {
  kty: 'OKP'
  crv: 'Ed25519'
  x: string
}

/** A JWS split into its parts, its header and payload decoded as JSON objects. */
export interface DecodedJws {
  header: Record<string, unknown>
  payload: Record<string, unknown>
  /** `base64url(header).base64url(payload)`, the bytes that were signed. */
  signingInput: string
  signature: Buffer
}

const base64urlPart = /^[A-Za-z0-9_-]+$/

function encodeJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url')
}

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

/**
 * Signs a header and payload with an Ed25519 private key into a JWS compact string (`alg: EdDSA` is set).
 *
 * @example
 * const token = signJws({ typ: 'JWT', kid }, { sub: 'eip155:1:0x…', exp }, privateKey)
 */
export function signJws(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  privateKey: KeyObject,
): string {
  const signingInput = `${encodeJson({ alg: 'EdDSA', ...header })}.${encodeJson(payload)}`
  const signature = sign(null, Buffer.from(signingInput, 'ascii'), privateKey)
  return `${signingInput}.${signature.toString('base64url')}`
}

/**
 * Splits and decodes a JWS compact string without checking its signature, or returns null when it is not
 * one (three base64url parts, JSON objects for header and payload).
 *
 * @example
 * const decoded = decodeJws(token)
 * if (decoded && decoded.header.alg === 'EdDSA') …
 */
export function decodeJws(token: string): DecodedJws | null {
  const parts = token.split('.')
  if (parts.length !== 3 || !parts.every((part) => base64urlPart.test(part))) return null
  const [headerPart = '', payloadPart = '', signaturePart = ''] = parts
  const header = decodeJson(headerPart)
  const payload = decodeJson(payloadPart)
  if (header === null || payload === null) return null
  return {
    header,
    payload,
    signingInput: `${headerPart}.${payloadPart}`,
    signature: Buffer.from(signaturePart, 'base64url'),
  }
}

/**
 * Whether a decoded JWS was signed by the private half of `publicKey` with EdDSA.
 *
 * @example
 * if (!verifyJws(decoded, publicKey)) throw unauthorized('…')
 */
export function verifyJws(decoded: DecodedJws, publicKey: KeyObject): boolean {
  if (decoded.header.alg !== 'EdDSA' || decoded.signature.length !== 64) return false
  try {
    return verify(null, Buffer.from(decoded.signingInput, 'ascii'), publicKey, decoded.signature)
  } catch {
    return false
  }
}

/**
 * The RFC 7638 thumbprint of an Ed25519 public JWK (SHA-256, base64url), used as its `kid`.
 *
 * @example
 * jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' })
 * // 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k'
 */
export function jwkThumbprint(jwk: Ed25519PublicJwk): string {
  // The required members in lexicographic order, without spaces.
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x })
  return createHash('sha256').update(canonical, 'utf8').digest('base64url')
}
