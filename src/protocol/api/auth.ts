import * as z from 'zod/mini'
import { SignInMessageSchema } from '../entities.ts'

/**
 * Error codes of the sign-in endpoints (`/auth/v1/*`), in the same `{ error: { code, message, field? } }`
 * body as the rest of the API, plus `hint` on some. `SESSION_EXPIRED`, `SMART_ACCOUNT_NOT_SUPPORTED` and
 * `AUTHENTICATION_INIT_FAILED` carry the exact words of SPEC section 8 ({@link authErrorMessages}).
 */
export const authErrorCodes = [
  'UNAUTHORIZED',
  'SESSION_EXPIRED',
  'INVALID_NONCE',
  'INVALID_SIGNATURE',
  'INVALID_DOMAIN',
  'SMART_ACCOUNT_NOT_SUPPORTED',
  'AUTHENTICATION_INIT_FAILED',
  'TOO_MANY_REQUESTS',
] as const

export type AuthErrorCode = (typeof authErrorCodes)[number]

/**
 * Fixed messages of the sign-in errors that have one (SPEC section 8).
 *
 * @example
 * if (body.error.code === 'SESSION_EXPIRED') showError(authErrorMessages.SESSION_EXPIRED)
 */
export const authErrorMessages = {
  SESSION_EXPIRED: 'Session Expired',
  SMART_ACCOUNT_NOT_SUPPORTED: 'This application might not support Smart Accounts',
  AUTHENTICATION_INIT_FAILED: 'A problem occurred while trying initialize authentication',
} as const satisfies Partial<Record<AuthErrorCode, string>>

/** The `hint` of a `Session Expired` answer when a time is still in the future (SPEC section 8). */
export const notYetValidHint = 'JWT not yet valid: check time settings'

/**
 * Limits and lifetimes of sign-in: a nonce lives 5 minutes and is used once; message times may be a
 * minute ahead of the service's clock; sessions last `AUTH_SESSION_TTL` (7 days by default) or until
 * the message's expiration time, whichever comes first.
 */
export const authLimits = {
  nonceTtlMs: 5 * 60_000,
  /** Nonces are this many letters and digits (EIP-4361 asks for at least 8). */
  nonceLength: 24,
  clockSkewMs: 60_000,
  defaultSessionTtlSeconds: 7 * 24 * 60 * 60,
  maxMessageLength: 8192,
  /** EIP-6492 signatures carry a factory call and can be long. */
  maxSignatureLength: 65_536,
  maxTokenLength: 4096,
  maxAuthenticateBodyBytes: 256 * 1024,
} as const

/**
 * Error body of the sign-in endpoints: the API's error body, and `hint` when there is advice (for
 * example `JWT not yet valid: check time settings`).
 *
 * @example
 * const { error } = authErrorBody.parse(await response.json())
 */
export const authErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    field: z.optional(z.string()),
    hint: z.optional(z.string()),
  }),
})

export type AuthErrorBody = z.infer<typeof authErrorBody>

/**
 * Answer of `GET /auth/v1/nonce`: the nonce to put in the sign-in message, and the signed token that
 * binds it to the project for 5 minutes; send the token back with the signature.
 *
 * @example
 * const { nonce, token } = authNonceResponse.parse(await response.json())
 */
export const authNonceResponse = z.object({
  nonce: z.string().check(z.regex(/^[A-Za-z0-9]{16,}$/, 'Expected at least 16 letters or digits')),
  token: z.string().check(z.minLength(1), z.maxLength(authLimits.maxTokenLength)),
})

export type AuthNonceResponse = z.infer<typeof authNonceResponse>

/**
 * Body of `POST /auth/v1/authenticate`: the sign-in message text exactly as signed, the signature
 * (`0x` hex for eip155; base58 or `0x` hex of the 64 bytes for solana), the nonce token from
 * `GET /auth/v1/nonce`, and optionally the message's fields, which must then match the text.
 *
 * @example
 * authenticateRequest.parse({ message, signature, nonceToken: token })
 */
export const authenticateRequest = z.object({
  message: z
    .string()
    .check(
      z.minLength(1, 'Expected the signed message'),
      z.maxLength(authLimits.maxMessageLength, `Expected at most ${authLimits.maxMessageLength} characters`),
    ),
  signature: z
    .string()
    .check(
      z.minLength(1, 'Expected a signature'),
      z.maxLength(
        authLimits.maxSignatureLength,
        `Expected at most ${authLimits.maxSignatureLength} characters`,
      ),
    ),
  nonceToken: z
    .string()
    .check(
      z.minLength(1, 'Expected the token of GET /auth/v1/nonce'),
      z.maxLength(authLimits.maxTokenLength, `Expected at most ${authLimits.maxTokenLength} characters`),
    ),
  data: z.optional(z.partial(SignInMessageSchema)),
})

export type AuthenticateRequest = z.infer<typeof authenticateRequest>

/**
 * A CAIP-74 CACAO of a signed sign-in message: header `t` (`eip4361` for Ethereum, `caip122` for
 * Solana), payload (the message's fields under CACAO's names; `iss` is the signer's `did:pkh`, `aud` the
 * message URI) and signature (`t`: `eip191`, `eip1271`, `eip6492`, `solana:ed25519`, `bip122:bip322-simple` or
 * `bip122:ecdsa`; `s` as sent).
 *
 * @example
 * cacaoSchema.parse(session.cacao).p.iss // 'did:pkh:eip155:1:0x…'
 */
export const cacaoSchema = z.object({
  h: z.object({ t: z.enum(['eip4361', 'caip122']) }),
  p: z.object({
    domain: z.string(),
    iss: z.string(),
    aud: z.string(),
    version: z.string(),
    nonce: z.string(),
    iat: z.string(),
    nbf: z.optional(z.string()),
    exp: z.optional(z.string()),
    statement: z.optional(z.string()),
    requestId: z.optional(z.string()),
    resources: z.optional(z.array(z.string())),
  }),
  s: z.object({
    t: z.enum(['eip191', 'eip1271', 'eip6492', 'solana:ed25519', 'bip122:bip322-simple', 'bip122:ecdsa']),
    s: z.string(),
  }),
})

/**
 * A sign-in session (SPEC section 3): the message fields, the signed text, the signature and the
 * CAIP-74 CACAO built from them.
 */
export const authSession = z.object({
  data: SignInMessageSchema,
  message: z.string(),
  signature: z.string(),
  cacao: cacaoSchema,
})

export type AuthSession = z.infer<typeof authSession>

/**
 * Answer of `POST /auth/v1/authenticate`: the session token (a JWT signed with the service's key,
 * see `GET /auth/v1/keys`) and the session.
 *
 * @example
 * const { token, session } = authenticateResponse.parse(await response.json())
 */
export const authenticateResponse = z.object({
  token: z.string(),
  session: authSession,
})

export type AuthenticateResponse = z.infer<typeof authenticateResponse>

/**
 * Answer of `GET /auth/v1/me`: who the session token belongs to and until when it holds. Times are ISO
 * 8601 strings.
 *
 * @example
 * const me = authMeResponse.parse(await response.json())
 */
export const authMeResponse = z.object({
  sessionId: z.string(),
  projectId: z.string(),
  address: z.string(),
  chainId: z.string(),
  /** CAIP-10 account id: `chainId:address`. */
  caipAddress: z.string(),
  domain: z.string(),
  uri: z.string(),
  issuedAt: z.string(),
  expiresAt: z.string(),
})

export type AuthMeResponse = z.infer<typeof authMeResponse>

/**
 * Claims of a session token (JWS compact, `alg: EdDSA`, `typ: JWT`, `kid` naming a key of
 * `GET /auth/v1/keys`). Times are seconds since the epoch; `aud` is the project id, `sub` the CAIP-10
 * account, `jti` the session id.
 */
export const sessionTokenClaims = z.object({
  iss: z.string(),
  sub: z.string(),
  aud: z.string(),
  iat: z.number(),
  nbf: z.number(),
  exp: z.number(),
  jti: z.string(),
  address: z.string(),
  chainId: z.string(),
  domain: z.string(),
  uri: z.string(),
})

export type SessionTokenClaims = z.infer<typeof sessionTokenClaims>

/**
 * Answer of `GET /auth/v1/keys`: the service's public keys as a JSON Web Key Set (RFC 7517), Ed25519
 * keys (`kty: OKP`, `crv: Ed25519`) named by `kid`.
 *
 * @example
 * const { keys } = jsonWebKeySet.parse(await (await fetch(`${apiUrl}/auth/v1/keys`)).json())
 */
export const jsonWebKeySet = z.object({
  keys: z.array(
    z.object({
      kty: z.literal('OKP'),
      crv: z.literal('Ed25519'),
      x: z.string(),
      kid: z.string(),
      alg: z.literal('EdDSA'),
      use: z.literal('sig'),
    }),
  ),
})

export type JsonWebKeySet = z.infer<typeof jsonWebKeySet>
