/**
 * Social sign-in to the embedded wallet (SPEC 1, 7): authorization code with PKCE and `state` for
 * every provider, `nonce` and a verified id_token (issuer, audience, nonce, expiry, signature from the
 * provider's JWKS) for the OpenID providers (google, apple), the profile endpoints for the OAuth 2
 * ones (github, x, discord, facebook). `openid-client` is the one engine for all six. The callback
 * lands on the frame's origin; the service finishes the exchange there and keeps the outcome for the
 * frame that started the sign-in, which takes it once. Here: the start, the callback's bookkeeping and
 * the hand-over; the providers (socialProviders.ts), reaching them (socialConfiguration.ts) and the
 * code exchange (socialExchange.ts) have their own files.
 *
 * Knowing a sign-in's ids is never enough to take its session. `finish` needs two
 * secrets: the binding secret of the frame that started the sign-in (only its hash was sent to
 * `start`), and the handover secret the callback page received in the browser the provider sent back,
 * which that page passes only to the wallet frames of the window that opened it, at the frame's own
 * origin. Someone who calls `start` from their machine and sends a victim the provider's URL holds
 * the first but never the second: the handover stays in the victim's browser.
 */
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
import { walletSocialLogins } from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import type { Project } from '../projects/store.ts'
import { actionNotAllowed, EmbeddedError } from './errors.ts'
import { createIdentities } from './identities.ts'
import { newId, newSecret, secretHash } from './secrets.ts'
import type { Sessions } from './sessions.ts'
import { createProviderConfigurations } from './socialConfiguration.ts'
import { exchangeCode } from './socialExchange.ts'
import { providerSpecs } from './socialProviders.ts'
import type { Users } from './users.ts'

/** How long a started sign-in waits for the provider's callback. */
const SOCIAL_LOGIN_TTL_MS = 10 * 60_000

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
  const providers = createProviderConfigurations(config, { allowHttp: deps.allowHttp ?? false })
  const identities = createIdentities({
    db,
    users: login.users,
    now,
    ...(deps.logger ? { logger: deps.logger } : {}),
  })

  return {
    /** Providers with credentials, in the SPEC's order. */
    available: providers.available,

    /** The user of a provider's identity (made on first sight); Farcaster fids use it too. */
    userOf: identities.userOf,

    /** `POST /social/start`: a new sign-in's state, nonce and PKCE verifier, and the provider's URL. */
    async start(project: Project, body: SocialStartRequest): Promise<SocialStartResponse> {
      const { provider } = body
      if (!project.features.socials.includes(provider) || !config.credentials[provider]) {
        throw new EmbeddedError(403, 'SOCIAL_UNAVAILABLE', `Sign-in with ${provider} is not available here`)
      }
      const configuration = await providers.configurationOf(provider).catch((cause: unknown) => {
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
        redirect_uri: providers.redirectUri(provider),
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
        const identity = await exchangeCode(providers, provider, parameters, {
          codeVerifier: row.codeVerifier,
          state,
          nonce: row.nonce,
        })
        const userId = await identities.userOf(row.projectId, provider, identity)
        await settle({ userId, username: identity.username ?? null })
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
     * the starting frame's binding secret and the callback page's handover secret.
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
