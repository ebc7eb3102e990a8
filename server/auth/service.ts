/**
 * Sign-in with the wallet (SIWX) on the service: nonces, checking a signed message (its rules in
 * message.ts), and the sessions it opens. The routes (server/routes/auth.ts) are a thin layer over this.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { and, eq, gt, isNull, lt } from 'drizzle-orm'
import * as z from 'zod/mini'
import type {
  AuthenticateRequest,
  AuthenticateResponse,
  AuthMeResponse,
  AuthNonceResponse,
  JsonWebKeySet,
  SessionTokenClaims,
} from '../../src/protocol/api/index.ts'
import { authLimits, sessionTokenClaims } from '../../src/protocol/api/index.ts'
import { createCacao } from '../../src/protocol/siwx/index.ts'
import type { ServiceConfig } from '../config.ts'
import { type Db, isDatabaseUnavailable } from '../db/database.ts'
import { authNonces, authSessions } from '../db/schema.ts'
import { databaseUnavailable, isServiceError } from '../errors.ts'
import type { ServiceLogger } from '../logger.ts'
import type { Project } from '../projects/store.ts'
import { AuthError, authenticationInitFailed, sessionExpired, unauthorized } from './errors.ts'
import { decodeJws, signJws, verifyJws } from './jws.ts'
import { type KeyPurpose, type KeyStore, openKeyStore } from './keys.ts'
import { checkData, checkDomain, checkTimes, parseMessage } from './message.ts'
import { createSignatureChecker, type SignatureChecker } from './signatures.ts'

/** What tests (and embedders) can give the sign-in service instead of the defaults. */
export interface AuthDependencies {
  /** The clock, in ms since the epoch; `Date.now` by default. */
  now?: () => number
  /** The signature checker; one on the service's RPC upstreams by default. */
  signatures?: SignatureChecker
}

export interface AuthService {
  /** `GET /auth/v1/nonce`: a new single-use nonce for the project, and its signed token. */
  createNonce(project: Project): Promise<AuthNonceResponse>
  /** `POST /auth/v1/authenticate`: checks the signed message and opens a session. */
  authenticate(
    project: Project,
    body: AuthenticateRequest,
    requestOrigin: string | undefined,
  ): Promise<AuthenticateResponse>
  /** `GET /auth/v1/me`: the session of a bearer token. */
  me(project: Project, authorization: string | undefined): Promise<AuthMeResponse>
  /** `POST /auth/v1/sign-out`: revokes the session of a bearer token (again is fine). */
  signOut(project: Project, authorization: string | undefined): Promise<void>
  /** `GET /auth/v1/keys`: the public keys session tokens are signed with. */
  jwks(): Promise<JsonWebKeySet>
}

const nonceTokenType = 'siwx-nonce+jwt'
/** A nonce token's `aud`: never a project id, so nothing that checks a session's audience takes one. */
const nonceAudience = (projectId: string) => `siwx-nonce:${projectId}`
const sessionTokenType = 'JWT'
const defaultIssuer = 'wallet-elements'
const alphanumerics = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const cleanupIntervalMs = 60_000
/** Used or expired nonces are kept an hour, signed-out or expired sessions a week, then deleted. */
const nonceRetentionMs = 60 * 60_000
const sessionRetentionMs = 7 * 24 * 60 * 60_000

const nonceTokenClaims = z.object({
  jti: z.string(),
  nonce: z.string(),
  aud: z.string(),
  iat: z.number(),
  exp: z.number(),
})

/** `count` random letters and digits, uniformly (bytes of 248 and up are drawn again). */
function randomAlphanumerics(count: number): string {
  let text = ''
  while (text.length < count) {
    for (const byte of randomBytes(count * 2)) {
      if (byte < 248 && text.length < count) text += alphanumerics[byte % 62]
    }
  }
  return text
}

const seconds = (ms: number) => Math.floor(ms / 1000)

function invalidNonce(message: string, field = 'nonceToken'): AuthError {
  return new AuthError(401, 'INVALID_NONCE', message, { field })
}

function bearerToken(authorization: string | undefined): string {
  const match = /^Bearer +([A-Za-z0-9_.-]+) *$/i.exec(authorization ?? '')
  if (!match?.[1]) throw unauthorized('Send the session token as Authorization: Bearer <token>')
  return match[1]
}

/**
 * Creates the sign-in service on the database: loads (or, on first start, creates) the signing key and
 * checks signatures on the service's RPC upstreams.
 *
 * @example
 * const auth = await createAuthService(config, database.db, { logger })
 * const { nonce, token } = await auth.createNonce(project)
 */
export async function createAuthService(
  config: ServiceConfig,
  db: Db,
  options: AuthDependencies & { logger?: ServiceLogger } = {},
): Promise<AuthService> {
  const now = options.now ?? Date.now
  const logger = options.logger
  const keys: KeyStore = await openKeyStore(db, { ...(logger ? { logger } : {}), now })
  const signatures =
    options.signatures ??
    createSignatureChecker({ upstreams: config.rpcUpstreams, timeoutMs: config.rpcTimeoutMs })
  const sessionTtlMs = (config.authSessionTtlSeconds ?? authLimits.defaultSessionTtlSeconds) * 1000
  const issuer = config.authIssuer ?? defaultIssuer
  let lastCleanup = Number.NEGATIVE_INFINITY

  async function cleanUp(time: number): Promise<void> {
    if (time - lastCleanup < cleanupIntervalMs) return
    lastCleanup = time
    try {
      await db.delete(authNonces).where(lt(authNonces.expiresAt, new Date(time - nonceRetentionMs)))
      await db.delete(authSessions).where(lt(authSessions.expiresAt, new Date(time - sessionRetentionMs)))
    } catch (error) {
      logger?.warn({ err: error }, 'Could not delete old sign-in nonces and sessions')
    }
  }

  /** Verifies a token's signature and type with our keys of its kind; null when it is not one of ours. */
  async function readToken(token: string, purpose: KeyPurpose): Promise<Record<string, unknown> | null> {
    const type = purpose === 'nonce' ? nonceTokenType : sessionTokenType
    const decoded = decodeJws(token)
    if (decoded === null || decoded.header.typ !== type || typeof decoded.header.kid !== 'string') return null
    const publicKey = await keys.publicKey(decoded.header.kid, purpose)
    if (publicKey === null || !verifyJws(decoded, publicKey)) return null
    return decoded.payload
  }

  async function readSession(
    project: Project,
    authorization: string | undefined,
    options: { forSignOut: boolean },
  ) {
    const payload = await readToken(bearerToken(authorization), 'session')
    const parsed = payload === null ? null : sessionTokenClaims.safeParse(payload)
    if (!parsed?.success) throw unauthorized('The session token is not valid')
    const claims: SessionTokenClaims = parsed.data
    if (claims.aud !== project.id) throw unauthorized('The session token belongs to another project')
    const time = now()
    if (!options.forSignOut) {
      if (claims.nbf * 1000 > time + authLimits.clockSkewMs) throw sessionExpired({ notYet: true })
      if (claims.exp * 1000 <= time) throw sessionExpired()
    }
    const [row] = await db
      .select()
      .from(authSessions)
      .where(and(eq(authSessions.id, claims.jti), eq(authSessions.projectId, project.id)))
      .limit(1)
    if (!row) throw unauthorized('The session is unknown')
    if (row.revokedAt !== null && !options.forSignOut) throw unauthorized('The session was signed out')
    return row
  }

  return {
    async createNonce(project) {
      try {
        const time = now()
        await cleanUp(time)
        const id = randomUUID()
        const nonce = randomAlphanumerics(authLimits.nonceLength)
        const expiresAt = time + authLimits.nonceTtlMs
        await db.insert(authNonces).values({
          id,
          projectId: project.id,
          nonce,
          createdAt: new Date(time),
          expiresAt: new Date(expiresAt),
        })
        // Its own key (never published) and audience: no session verifier takes a nonce token.
        const signing = await keys.signing('nonce')
        const token = signJws(
          { typ: nonceTokenType, kid: signing.kid },
          {
            iss: issuer,
            aud: nonceAudience(project.id),
            jti: id,
            nonce,
            iat: seconds(time),
            exp: seconds(expiresAt),
          },
          signing.privateKey,
        )
        return { nonce, token }
      } catch (error) {
        if (isServiceError(error)) throw error
        if (isDatabaseUnavailable(error)) throw databaseUnavailable(error)
        throw authenticationInitFailed(error)
      }
    },

    async authenticate(project, body, requestOrigin) {
      const payload = await readToken(body.nonceToken, 'nonce')
      const parsedToken = payload === null ? null : nonceTokenClaims.safeParse(payload)
      if (!parsedToken?.success) throw invalidNonce('The nonce token is not valid')
      const nonceClaims = parsedToken.data
      if (nonceClaims.aud !== nonceAudience(project.id)) {
        throw invalidNonce('The nonce token belongs to another project')
      }
      const time = now()
      if (nonceClaims.exp * 1000 <= time) throw invalidNonce('The nonce has expired: get a new one')

      const message = parseMessage(body.message)
      if (message.nonce !== nonceClaims.nonce) {
        throw invalidNonce("The message's nonce is not the nonce of the token", 'message')
      }
      checkData(message, body.data)

      // Refuse replays before the (possibly remote) signature check; the final check is atomic, below.
      const [nonceRow] = await db.select().from(authNonces).where(eq(authNonces.id, nonceClaims.jti)).limit(1)
      if (!nonceRow || nonceRow.projectId !== project.id || nonceRow.nonce !== nonceClaims.nonce) {
        throw invalidNonce('The nonce is unknown')
      }
      if (nonceRow.usedAt !== null) throw invalidNonce('The nonce was already used')
      if (nonceRow.expiresAt.getTime() <= time) throw invalidNonce('The nonce has expired: get a new one')

      checkDomain(project, message, requestOrigin)
      checkTimes(message, time)

      const signatureType = await signatures.verify({
        chainId: message.chainId,
        address: message.accountAddress,
        message: body.message,
        signature: body.signature,
      })

      const issuedAt = now()
      const expiresAt = Math.min(
        issuedAt + sessionTtlMs,
        message.expirationTime === undefined ? Number.POSITIVE_INFINITY : Date.parse(message.expirationTime),
      )
      const sessionId = randomUUID()
      const signing = await keys.signing('session')
      const cacao = createCacao(message, { t: signatureType, s: body.signature })
      await db.transaction(async (tx) => {
        // Single use, even for requests racing on several instances: only one update finds the nonce unused.
        const consumed = await tx
          .update(authNonces)
          .set({ usedAt: new Date(issuedAt) })
          .where(
            and(
              eq(authNonces.id, nonceClaims.jti),
              isNull(authNonces.usedAt),
              gt(authNonces.expiresAt, new Date(issuedAt)),
            ),
          )
          .returning({ id: authNonces.id })
        if (consumed.length === 0) throw invalidNonce('The nonce was already used')
        await tx.insert(authSessions).values({
          id: sessionId,
          projectId: project.id,
          nonceId: nonceClaims.jti,
          chainId: message.chainId,
          address: message.accountAddress,
          domain: message.domain,
          uri: message.uri,
          message: body.message,
          signature: body.signature,
          signatureType,
          data: { ...message },
          keyId: signing.kid,
          issuedAt: new Date(issuedAt),
          expiresAt: new Date(expiresAt),
        })
      })

      const claims: SessionTokenClaims = {
        iss: issuer,
        sub: `${message.chainId}:${message.accountAddress}`,
        aud: project.id,
        iat: seconds(issuedAt),
        nbf: seconds(issuedAt),
        exp: seconds(expiresAt),
        jti: sessionId,
        address: message.accountAddress,
        chainId: message.chainId,
        domain: message.domain,
        uri: message.uri,
      }
      const token = signJws({ typ: sessionTokenType, kid: signing.kid }, claims, signing.privateKey)
      logger?.info(
        { projectId: project.id, chainId: message.chainId, address: message.accountAddress, signatureType },
        'Signed in',
      )
      return {
        token,
        session: { data: message, message: body.message, signature: body.signature, cacao },
      }
    },

    async me(project, authorization) {
      const row = await readSession(project, authorization, { forSignOut: false })
      return {
        sessionId: row.id,
        projectId: row.projectId,
        address: row.address,
        chainId: row.chainId,
        caipAddress: `${row.chainId}:${row.address}`,
        domain: row.domain,
        uri: row.uri,
        issuedAt: row.issuedAt.toISOString(),
        expiresAt: row.expiresAt.toISOString(),
      }
    },

    async signOut(project, authorization) {
      const row = await readSession(project, authorization, { forSignOut: true })
      await db
        .update(authSessions)
        .set({ revokedAt: new Date(now()) })
        .where(and(eq(authSessions.id, row.id), isNull(authSessions.revokedAt)))
    },

    jwks: () => keys.jwks(),
  }
}
