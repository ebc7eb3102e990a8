/**
 * Social sign-in to the embedded wallet (SPEC 1, 7): authorization code with PKCE and `state` for
 * every provider, `nonce` and a verified id_token (issuer, audience, nonce, expiry, signature from the
 * provider's JWKS) for the OpenID providers (google, apple), the profile endpoints for the OAuth 2
 * ones (github, x, discord, facebook). `openid-client` is the one engine for all six. The callback
 * lands on the frame's origin; the service finishes the exchange there and keeps the outcome for the
 * frame that started the sign-in, which takes it once.
 *
 * Issue 23 item 1: knowing a sign-in's ids is never enough to take its session. `finish` needs two
 * secrets: the binding secret of the frame that started the sign-in (only its hash was sent to
 * `start`), and the handover secret the callback page received in the browser the provider sent back,
 * which that page passes only to the wallet frames of the window that opened it, at the frame's own
 * origin. Someone who calls `start` from their machine and sends a victim the provider's URL holds
 * the first but never the second: the handover stays in the victim's browser.
 */
import { createPrivateKey, sign } from 'node:crypto'
import { and, eq, gt, isNotNull, isNull } from 'drizzle-orm'
import * as oidc from 'openid-client'
import type {
  SessionResponse,
  SocialFinishRequest,
  SocialStartRequest,
  SocialStartResponse,
} from '../../src/protocol/embedded/index.ts'
import type { SocialProvider } from '../../src/protocol/rules.ts'
import type { SocialConfig } from '../config.ts'
import type { Db } from '../db/database.ts'
import { walletIdentities, walletSocialLogins } from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import type { Project } from '../projects/store.ts'
import { actionNotAllowed, EmbeddedError } from './errors.ts'
import { newId, newSecret, secretHash } from './secrets.ts'
import type { Sessions } from './sessions.ts'
import type { Users } from './users.ts'

/** What a provider says about the person, mapped to one shape. */
export interface SocialIdentity {
  subject: string
  email: string | null
  /** Only a provider's own "verified" flag counts; an e-mail without it never links accounts. */
  emailVerified: boolean
  username: string | null
  /** A profile picture (Farcaster's pfpUrl); the OAuth providers' are not kept. */
  pictureUrl?: string | null
}

type Json = Record<string, unknown>
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null)
const idOf = (value: unknown) => (typeof value === 'number' ? String(value) : text(value))

/** One provider: how to reach it and how its answer maps to an identity. */
interface ProviderSpec {
  /** `oidc`: discovery and an id_token; `oauth2`: fixed endpoints and a profile endpoint. */
  kind: 'oidc' | 'oauth2'
  /** The real provider: its issuer (OpenID) or its endpoints (OAuth 2). */
  issuer: string
  authorization?: string
  token?: string
  /** Profile URLs (OAuth 2), fetched with the access token in order. */
  profile?: readonly string[]
  scope: string
  /** How the client authenticates at the token endpoint. */
  auth: 'post' | 'basic'
  /** Apple sends the code back as a form POST when scopes are asked. */
  formPost?: boolean
  /** From the id_token's claims (OpenID) or the profile answers (OAuth 2). */
  identity(answers: readonly unknown[]): SocialIdentity
}

const verified = (value: unknown) => value === true || value === 'true'

/**
 * The providers (docs/EMBEDDED-WALLET.md has this table in words). Endpoints are the real ones; with
 * `SOCIAL_PROVIDER_URL` each is the same path under `<url>/<provider>` (the local stand-in).
 */
export const providerSpecs: Record<SocialProvider, ProviderSpec> = {
  google: {
    kind: 'oidc',
    issuer: 'https://accounts.google.com',
    scope: 'openid email profile',
    auth: 'basic',
    identity: ([claims]) => {
      const c = claims as Json
      return {
        subject: String(c.sub),
        email: text(c.email),
        emailVerified: verified(c.email_verified),
        username: text(c.name) ?? text(c.email),
      }
    },
  },
  apple: {
    kind: 'oidc',
    issuer: 'https://appleid.apple.com',
    scope: 'openid email name',
    auth: 'post',
    formPost: true,
    identity: ([claims]) => {
      const c = claims as Json
      return {
        subject: String(c.sub),
        email: text(c.email),
        emailVerified: verified(c.email_verified),
        username: text(c.email),
      }
    },
  },
  github: {
    kind: 'oauth2',
    issuer: 'https://github.com',
    authorization: 'https://github.com/login/oauth/authorize',
    token: 'https://github.com/login/oauth/access_token',
    profile: ['https://api.github.com/user', 'https://api.github.com/user/emails'],
    scope: 'read:user user:email',
    auth: 'post',
    identity: ([user, emails]) => {
      const u = user as Json
      const primary = (Array.isArray(emails) ? (emails as Json[]) : []).find(
        (entry) => entry.primary === true,
      )
      return {
        subject: idOf(u.id) ?? '',
        email: text(primary?.email),
        emailVerified: verified(primary?.verified),
        username: text(u.login),
      }
    },
  },
  facebook: {
    kind: 'oauth2',
    issuer: 'https://www.facebook.com',
    authorization: 'https://www.facebook.com/v19.0/dialog/oauth',
    token: 'https://graph.facebook.com/v19.0/oauth/access_token',
    profile: ['https://graph.facebook.com/me?fields=id,name,email'],
    scope: 'public_profile email',
    auth: 'basic',
    // Facebook has no "verified" flag on the e-mail it gives: it is kept, never used to link accounts.
    identity: ([me]) => {
      const m = me as Json
      return { subject: idOf(m.id) ?? '', email: text(m.email), emailVerified: false, username: text(m.name) }
    },
  },
  x: {
    kind: 'oauth2',
    issuer: 'https://x.com',
    authorization: 'https://x.com/i/oauth2/authorize',
    token: 'https://api.x.com/2/oauth2/token',
    profile: ['https://api.x.com/2/users/me'],
    scope: 'users.read tweet.read',
    auth: 'basic',
    // X gives no e-mail.
    identity: ([me]) => {
      const data = ((me as Json).data ?? {}) as Json
      return {
        subject: idOf(data.id) ?? '',
        email: null,
        emailVerified: false,
        username: text(data.username),
      }
    },
  },
  discord: {
    kind: 'oauth2',
    issuer: 'https://discord.com',
    authorization: 'https://discord.com/oauth2/authorize',
    token: 'https://discord.com/api/oauth2/token',
    profile: ['https://discord.com/api/users/@me'],
    scope: 'identify email',
    auth: 'basic',
    identity: ([me]) => {
      const m = me as Json
      return {
        subject: idOf(m.id) ?? '',
        email: text(m.email),
        emailVerified: verified(m.verified),
        username: text(m.username),
      }
    },
  },
}

/** How long a started sign-in waits for the provider's callback. */
const SOCIAL_LOGIN_TTL_MS = 10 * 60_000
/** A provider that does not answer the exchange in this time fails the sign-in. */
const PROVIDER_TIMEOUT_MS = 10_000

/** Apple's client secret: an ES256 JWT signed with the team's key, valid 5 minutes. */
export function appleClientSecret(
  apple: { teamId: string; keyId: string; privateKey: string },
  clientId: string,
  nowMs: number,
): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const iat = Math.floor(nowMs / 1000)
  const input = `${encode({ alg: 'ES256', kid: apple.keyId })}.${encode({
    iss: apple.teamId,
    iat,
    exp: iat + 300,
    aud: 'https://appleid.apple.com',
    sub: clientId,
  })}`
  const signature = sign('sha256', Buffer.from(input), {
    key: createPrivateKey(apple.privateKey),
    dsaEncoding: 'ieee-p1363',
  })
  return `${input}.${signature.toString('base64url')}`
}

export interface SocialDependencies {
  db: Db
  /** The users and sessions every sign-in way shares (the login service carries both). */
  login: { users: Pick<Users, 'userRow' | 'createUser'>; sessions: Pick<Sessions, 'openSessionFor'> }
  config: SocialConfig
  now?: () => number
  logger?: ServiceLogger
  /** Lets openid-client speak plain http (the local stand-in); never in production. */
  allowHttp?: boolean
}

/** What the callback page shows and to whom it reports (the site that started the sign-in). */
export interface SocialCallbackOutcome {
  /** The site the page tells that it is done; absent when the callback matched no sign-in. */
  site?: string
  ok: boolean
  /** The handover secret the page passes to the starting frame (absent when nothing matched). */
  handover?: string
}

function failed(message: string): EmbeddedError {
  return new EmbeddedError(400, 'SOCIAL_FAILED', message)
}

/**
 * The social sign-in service.
 *
 * @example
 * const social = createSocialService({ db, login, config: config.embedded.social })
 * const { uri, loginId } = await social.start(project, { provider: 'google', deviceId, origin })
 */
export function createSocialService(deps: SocialDependencies) {
  const { db, login, config } = deps
  const now = deps.now ?? Date.now
  const configurations = new Map<SocialProvider, Promise<oidc.Configuration>>()

  const redirectUri = (provider: SocialProvider) => `${config.redirectBase}/social/callback/${provider}`

  /** An endpoint of the provider: the real one, or the same path on the stand-in. */
  const endpoint = (provider: SocialProvider, real: string) => {
    if (!config.providerUrl) return real
    const url = new URL(real)
    return `${config.providerUrl}/${provider}${url.pathname}${url.search}`
  }

  const available = (): SocialProvider[] =>
    (Object.keys(providerSpecs) as SocialProvider[]).filter((provider) => config.credentials[provider])

  async function makeConfiguration(provider: SocialProvider): Promise<oidc.Configuration> {
    const spec = providerSpecs[provider]
    const credentials = config.credentials[provider]
    if (!credentials) throw new EmbeddedError(503, 'SOCIAL_UNAVAILABLE', 'This sign-in is not set up')
    const secret =
      provider === 'apple' && config.apple
        ? // Apple checks it against its own clock: the wall clock, not the service's (tests move theirs).
          appleClientSecret(config.apple, credentials.clientId, Date.now())
        : credentials.clientSecret
    const auth = spec.auth === 'post' ? oidc.ClientSecretPost(secret) : oidc.ClientSecretBasic(secret)
    const execute = deps.allowHttp ? [oidc.allowInsecureRequests] : []
    if (spec.kind === 'oidc') {
      const issuer = config.providerUrl ? `${config.providerUrl}/${provider}` : spec.issuer
      return oidc.discovery(new URL(issuer), credentials.clientId, undefined, auth, {
        execute,
        timeout: PROVIDER_TIMEOUT_MS / 1000,
      })
    }
    const configuration = new oidc.Configuration(
      {
        issuer: config.providerUrl ? `${config.providerUrl}/${provider}` : spec.issuer,
        authorization_endpoint: endpoint(provider, spec.authorization as string),
        token_endpoint: endpoint(provider, spec.token as string),
      },
      credentials.clientId,
      undefined,
      auth,
    )
    for (const step of execute) step(configuration)
    configuration.timeout = PROVIDER_TIMEOUT_MS / 1000
    return configuration
  }

  /** The provider's configuration; Apple's carries a freshly minted secret each time. */
  function configurationOf(provider: SocialProvider): Promise<oidc.Configuration> {
    if (provider === 'apple') return makeConfiguration(provider)
    let entry = configurations.get(provider)
    if (!entry) {
      entry = makeConfiguration(provider)
      configurations.set(provider, entry)
      entry.catch(() => configurations.delete(provider))
    }
    return entry
  }

  /** The identity of a finished exchange: the id_token's claims or the profile endpoints' answers. */
  async function identityOf(
    provider: SocialProvider,
    configuration: oidc.Configuration,
    tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
  ): Promise<SocialIdentity> {
    const spec = providerSpecs[provider]
    let identity: SocialIdentity
    if (spec.kind === 'oidc') {
      const claims = tokens.claims()
      if (!claims) throw failed('The provider sent no id_token')
      identity = spec.identity([claims])
    } else {
      const answers: unknown[] = []
      for (const url of spec.profile ?? []) {
        const response = await oidc.fetchProtectedResource(
          configuration,
          tokens.access_token,
          new URL(endpoint(provider, url)),
          'GET',
          undefined,
          new Headers({ accept: 'application/json' }),
        )
        if (!response.ok) throw failed('The provider did not give the profile')
        answers.push(await response.json())
      }
      identity = spec.identity(answers)
    }
    if (!/^[\w.@:-]{1,255}$/.test(identity.subject)) throw failed('The provider gave no user id')
    return {
      ...identity,
      email: identity.email?.trim().toLowerCase().slice(0, 254) ?? null,
      username: identity.username?.slice(0, 100) ?? null,
    }
  }

  /**
   * The user of a provider identity: the one it belongs to; else, when the provider asserts a
   * verified e-mail, the user of that e-mail (one wallet); else a new user (with that verified
   * e-mail, or none). An unverified e-mail never joins an existing user.
   */
  async function userOf(projectId: string, provider: SocialProvider | 'farcaster', identity: SocialIdentity) {
    const key = and(
      eq(walletIdentities.projectId, projectId),
      eq(walletIdentities.provider, provider),
      eq(walletIdentities.subject, identity.subject),
    )
    const [known] = await db.select().from(walletIdentities).where(key).limit(1)
    const fields = {
      username: identity.username,
      ...(identity.pictureUrl === undefined ? {} : { pictureUrl: identity.pictureUrl }),
      email: identity.email,
      emailVerified: identity.emailVerified,
      updatedAt: new Date(now()),
    }
    if (known) {
      await db.update(walletIdentities).set(fields).where(key)
      return known.userId
    }
    const verifiedEmail = identity.emailVerified ? identity.email : null
    const byEmail = verifiedEmail ? await login.users.userRow(projectId, verifiedEmail) : undefined
    const user = byEmail ?? (await login.users.createUser(projectId, verifiedEmail))
    const inserted = await db
      .insert(walletIdentities)
      .values({ projectId, provider, subject: identity.subject, userId: user.id, ...fields })
      .onConflictDoNothing()
      .returning({ userId: walletIdentities.userId })
    if (inserted[0]) {
      deps.logger?.info({ projectId, provider, linked: byEmail !== undefined }, 'Social identity added')
      return inserted[0].userId
    }
    // Two callbacks of one identity at once: the first one's user wins.
    const [winner] = await db.select().from(walletIdentities).where(key).limit(1)
    if (!winner) throw failed('The sign-in could not be saved')
    return winner.userId
  }

  return {
    /** Providers with credentials, in the SPEC's order. */
    available,

    /** The user of a provider's identity (made on first sight); Farcaster fids use it too. */
    userOf,

    /** `POST /social/start`: a new sign-in's state, nonce and PKCE verifier, and the provider's URL. */
    async start(project: Project, body: SocialStartRequest): Promise<SocialStartResponse> {
      const { provider } = body
      if (!project.features.socials.includes(provider) || !config.credentials[provider]) {
        throw new EmbeddedError(403, 'SOCIAL_UNAVAILABLE', `Sign-in with ${provider} is not available here`)
      }
      const configuration = await configurationOf(provider).catch((cause: unknown) => {
        deps.logger?.warn({ provider, problem: (cause as Error).message }, 'Social provider unreachable')
        throw new EmbeddedError(502, 'SOCIAL_FAILED', `Could not reach ${provider}: try again`)
      })
      const spec = providerSpecs[provider]
      const state = newSecret()
      const nonce = newSecret()
      const codeVerifier = oidc.randomPKCECodeVerifier()
      const id = newId()
      const time = now()
      await db.insert(walletSocialLogins).values({
        id,
        projectId: project.id,
        provider,
        stateHash: secretHash(state),
        nonce,
        codeVerifier,
        deviceId: body.deviceId,
        site: body.origin,
        bindingHash: Buffer.from(body.bindingHash, 'base64url'),
        createdAt: new Date(time),
        expiresAt: new Date(time + SOCIAL_LOGIN_TTL_MS),
      })
      const parameters: Record<string, string> = {
        redirect_uri: redirectUri(provider),
        scope: spec.scope,
        state,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      }
      // The nonce binds an id_token to this sign-in; OAuth 2 providers issue none (and the stand-in,
      // like the OpenID spec, refuses a nonce without the openid scope).
      if (spec.kind === 'oidc') parameters.nonce = nonce
      if (spec.formPost) parameters.response_mode = 'form_post'
      return { uri: oidc.buildAuthorizationUrl(configuration, parameters).href, loginId: id }
    },

    /**
     * The provider's callback (`/social/callback/<provider>` on the frame's origin, GET or Apple's
     * form POST): takes the sign-in of this `state` once, checks and exchanges the code, and keeps the
     * user (or the error) for the frame. Never throws: the page shows the outcome.
     */
    async callback(provider: SocialProvider, parameters: URLSearchParams): Promise<SocialCallbackOutcome> {
      const state = parameters.get('state') ?? ''
      if (!/^[A-Za-z0-9_-]{43}$/.test(state)) return { ok: false }
      const time = new Date(now())
      // Only the browser this page opens in learns it; `finish` needs it.
      const handover = newSecret()
      const [row] = await db
        .update(walletSocialLogins)
        .set({ callbackAt: time, handoverHash: secretHash(handover) })
        .where(
          and(
            eq(walletSocialLogins.stateHash, secretHash(state)),
            eq(walletSocialLogins.provider, provider),
            isNull(walletSocialLogins.callbackAt),
            gt(walletSocialLogins.expiresAt, time),
          ),
        )
        .returning()
      if (!row) {
        deps.logger?.warn({ provider }, 'Social callback with an unknown, used or expired state')
        return { ok: false }
      }
      const settle = async (outcome: {
        userId?: string
        username?: string | null
        errorCode?: string
        errorMessage?: string
      }) => {
        await db
          .update(walletSocialLogins)
          .set({
            userId: outcome.userId ?? null,
            username: outcome.username ?? null,
            errorCode: outcome.errorCode ?? null,
            errorMessage: outcome.errorMessage ?? null,
          })
          .where(eq(walletSocialLogins.id, row.id))
      }
      const error = parameters.get('error')
      if (error) {
        const denied = error === 'access_denied'
        await settle({
          errorCode: denied ? 'SOCIAL_DENIED' : 'SOCIAL_FAILED',
          errorMessage: denied
            ? `The sign-in was cancelled at ${provider}`
            : `${provider} could not sign you in: try again`,
        })
        return { site: row.site, ok: false, handover }
      }
      try {
        const configuration = await configurationOf(provider)
        const currentUrl = new URL(redirectUri(provider))
        for (const [name, value] of parameters) currentUrl.searchParams.set(name, value)
        const spec = providerSpecs[provider]
        const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
          pkceCodeVerifier: row.codeVerifier,
          expectedState: state,
          ...(spec.kind === 'oidc' ? { expectedNonce: row.nonce, idTokenExpected: true } : {}),
        })
        const identity = await identityOf(provider, configuration, tokens)
        const userId = await userOf(row.projectId, provider, identity)
        await settle({ userId, username: identity.username })
        return { site: row.site, ok: true, handover }
      } catch (cause) {
        // What went wrong is logged by kind only: never a code, a token or the provider's URL.
        const problem =
          cause instanceof oidc.ResponseBodyError
            ? cause.error
            : ((cause as { code?: string }).code ?? (cause as Error).name)
        deps.logger?.warn({ provider, problem }, 'Social sign-in failed')
        await settle({
          errorCode: 'SOCIAL_FAILED',
          errorMessage: `${provider} could not sign you in: try again`,
        })
        return { site: row.site, ok: false, handover }
      }
    },

    /**
     * `POST /social/finish`: the outcome of this frame's sign-in, once; a session if it worked. Needs
     * the starting frame's binding secret and the callback page's handover secret (issue 23 item 1).
     */
    async finish(
      project: Project,
      body: SocialFinishRequest,
      site: string,
      sessionKey: string,
    ): Promise<SessionResponse> {
      const time = new Date(now())
      const mine = and(
        eq(walletSocialLogins.id, body.loginId),
        eq(walletSocialLogins.projectId, project.id),
        eq(walletSocialLogins.deviceId, body.deviceId),
        eq(walletSocialLogins.site, site),
        eq(walletSocialLogins.bindingHash, secretHash(body.binding)),
        gt(walletSocialLogins.expiresAt, time),
      )
      const [row] = body.handover
        ? await db
            .update(walletSocialLogins)
            .set({ consumedAt: time })
            .where(
              and(
                mine,
                eq(walletSocialLogins.handoverHash, secretHash(body.handover)),
                isNotNull(walletSocialLogins.callbackAt),
                isNull(walletSocialLogins.consumedAt),
              ),
            )
            .returning()
        : []
      if (!row) {
        const [waiting] = await db
          .select({ id: walletSocialLogins.id })
          .from(walletSocialLogins)
          .where(and(mine, isNull(walletSocialLogins.callbackAt)))
          .limit(1)
        if (waiting) throw new EmbeddedError(409, 'SOCIAL_PENDING', 'The sign-in has not finished yet')
        throw actionNotAllowed()
      }
      if (row.errorCode || !row.userId) {
        const code = row.errorCode === 'SOCIAL_DENIED' ? 'SOCIAL_DENIED' : 'SOCIAL_FAILED'
        throw new EmbeddedError(400, code, row.errorMessage ?? 'The sign-in did not finish: try again')
      }
      return login.sessions.openSessionFor(row.userId, project.id, body.deviceId, site, sessionKey)
    },
  }
}

export type SocialService = ReturnType<typeof createSocialService>
