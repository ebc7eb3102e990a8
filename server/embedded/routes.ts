import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import * as z from 'zod/mini'
import { projectIdPattern } from '../../src/protocol/api/common.ts'
import type {
  DeviceDetailsResponse,
  DeviceWaitResponse,
  EmailConnectResponse,
  EmailVerifyResponse,
  EmbeddedErrorBody,
  SessionResponse,
} from '../../src/protocol/embedded/index.ts'
import {
  deviceApprovalRequest,
  deviceApproveRequest,
  deviceDetailsResponse,
  deviceWaitRequest,
  deviceWaitResponse,
  emailConnectRequest,
  emailConnectResponse,
  emailUpdatedResponse,
  emailUpdateOtpRequest,
  emailUpdateRequest,
  emailUpdateResponse,
  emailVerifyRequest,
  emailVerifyResponse,
  embeddedErrorBody,
  embeddedLimits,
  exportCodeRequest,
  exportCodeResponse,
  exportConfirmRequest,
  exportResponse,
  farcasterFinishRequest,
  farcasterMiniAppFinishRequest,
  farcasterMiniAppStartRequest,
  farcasterMiniAppStartResponse,
  farcasterStartRequest,
  farcasterStartResponse,
  meResponse,
  passkeyListResponse,
  passkeyLoginFinishRequest,
  passkeyRegisterFinishRequest,
  passkeyRemoveRequest,
  passkeyStartRequest,
  passkeyStartResponse,
  SESSION_KEY_HEADER,
  SESSION_NONCE_HEADER,
  SESSION_SIGNATURE_HEADER,
  SESSION_TIME_HEADER,
  sessionResponse,
  siteOrigin,
  socialFinishRequest,
  socialStartRequest,
  socialStartResponse,
  walletDeletedResponse,
} from '../../src/protocol/embedded/index.ts'
import { invalidProjectId, projectIdNotConfigured } from '../errors.ts'
import { isSiteAllowed } from '../frame/ancestors.ts'
import { toServiceError } from '../http/errorHandler.ts'
import type { RateLimiter, RateLimitRules } from '../http/rateLimit.ts'
import { type GroupRoute, type HeaderDocs, routes } from '../http/route.ts'
import { parseInput } from '../http/validation.ts'
import type { ProjectResolver } from '../projects/resolver.ts'
import type { Project } from '../projects/store.ts'
import { EmbeddedError, isEmbeddedError } from './errors.ts'
import type { EmbeddedWallet } from './index.ts'
import { registerKeyRoutes } from './keyRoutes.ts'
import { registerRequestRoutes } from './requestRoutes.ts'
import { type SessionProof, sessionKeyOf } from './sessionProof.ts'

export interface EmbeddedRouteOptions {
  wallet: EmbeddedWallet
  projects: ProjectResolver
  /** The frame's own origin: the only one these routes answer. */
  frameOrigin: string
  /** `localhost:*` and `127.0.0.1:*` count as allowed sites (development). */
  devFrameAncestors: boolean
  limits: { limiter: RateLimiter; rules: RateLimitRules }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Embedded-wallet routes: the rate limit (RATE_LIMIT_WALLET a minute per client on its own
     * counter; `rpc` the RPC proxy's per-second limit); none on reads of the session.
     */
    walletLimit?: 'rpc' | 'none'
  }
}

/** Whether a project uses the embedded wallet at all: e-mail, social or Farcaster sign-in. */
export const embeddedWalletOn = (project: Project) =>
  project.features.email || project.features.socials.length > 0 || project.features.farcaster

/** The one rate-limit bucket (per client) of every project id that names no project. */
const unknownProject = '?'

/** The site the frame reports it is embedded in, sent with every request. */
const siteHeader = 'x-wallet-site'

/** The routes of the mailed link's approval page (`/device`), which has no project: all of `device/` but `wait`. */
const isApprovalPageRoute = (url: string) => url.startsWith('/embedded/v1/device/') && !url.endsWith('/wait')

const siteHeaderDocs: HeaderDocs = {
  name: siteHeader,
  description: "The site the frame is embedded in (its origin): on the project's allow-list.",
  required: true,
}
const browserKeyDocs: HeaderDocs = {
  name: SESSION_KEY_HEADER,
  description: "The browser's public key (P-256, SPKI, base64url) the new session is bound to.",
  required: true,
}
/** The browser's proof that it holds the key its session is bound to, on every request of a session. */
const proofHeaderDocs: HeaderDocs[] = [
  {
    name: SESSION_TIME_HEADER,
    description: "When the request was signed, in ms by the service's clock (every answer sends it).",
    required: true,
  },
  { name: SESSION_NONCE_HEADER, description: 'A nonce, used once.', required: true },
  {
    name: SESSION_SIGNATURE_HEADER,
    description: "The browser key's signature of the method, path and query, body hash, time and nonce.",
    required: true,
  },
]
const sessionRefused = {
  description: 'The session is missing or over, or its proof does not hold.',
}

/**
 * The embedded wallet's API, `/embedded/v1/*`, on the frame's origin only: a request from any other
 * origin is refused before anything else, and CORS is never answered, so no page can call these routes
 * or read what they say. Every body is checked with the shared zod schemas; every route has a rate
 * limit per client; errors carry `secondsLeft`, `attemptsLeft` and RPC codes (`embeddedErrorBody`).
 *
 * @example
 * await frameApp.register(async (scope) => registerEmbeddedRoutes(scope, { wallet, projects, frameOrigin }))
 */
export function registerEmbeddedRoutes(app: FastifyInstance, options: EmbeddedRouteOptions): void {
  const { wallet, projects, limits } = options

  app.decorateRequest('walletProject', null)
  app.decorateRequest('walletRawBody', '')

  // A session's requests are signed over the body's exact text (sessions are bound to the browser's key):
  // keep it beside the parsed body, parsed as Fastify's own JSON parser does (prototype poisoning refused).
  const json = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    ;(request as FastifyRequest & { walletRawBody: string }).walletRawBody = body as string
    json(request, body as string, done)
  })

  app.setErrorHandler((error, request, reply) => {
    const serviceError = toServiceError(error, request.routeOptions.bodyLimit)
    if (serviceError.statusCode >= 500 && serviceError.statusCode !== 501 && serviceError.statusCode !== 502)
      request.log.error({ err: error }, 'Embedded-wallet request failed')
    const extra = isEmbeddedError(error) ? error.extra : {}
    const retryAfter = extra.secondsLeft ?? (error as { retryAfterSeconds?: number }).retryAfterSeconds
    if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter))
    const body: EmbeddedErrorBody = {
      error: {
        code: serviceError.code,
        message: serviceError.message,
        ...(serviceError.field === undefined ? {} : { field: serviceError.field }),
        ...extra,
      },
    }
    return reply.code(serviceError.statusCode).header('cache-control', 'no-store').send(body)
  })

  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store')
    // The service's clock: the frame dates its signed requests by it, whatever its own clock says.
    reply.header(SESSION_TIME_HEADER, String(wallet.now()))
    // Browsers send Origin on every cross-origin request and on same-origin POSTs: only the frame's.
    const origin = request.headers.origin
    const fetchSite = request.headers['sec-fetch-site']
    if (
      (origin !== undefined && origin !== options.frameOrigin) ||
      (fetchSite !== undefined && fetchSite !== 'same-origin')
    ) {
      throw new EmbeddedError(403, 'FORBIDDEN', 'These routes answer the wallet frame only')
    }
    const query = (request.query ?? {}) as Record<string, unknown>
    const projectId = query.projectId
    const route = request.routeOptions.url ?? ''
    const kind = request.routeOptions.config.walletLimit
    const rule = kind === 'rpc' ? limits.rules.rpc : kind === 'none' ? undefined : limits.rules.wallet(route)
    const charge = async (limitedProject: string) => {
      if (rule) await limits.limiter.take({ projectId: limitedProject, address: request.ip }, [[rule, 1]])
    }
    // The approval page has no project: its routes count per client only.
    if (isApprovalPageRoute(route)) return charge('-')
    // The project is resolved before any bucket is made: a bucket is named by a
    // project that exists, and every id that is none (malformed, or unknown) shares one, so made-up
    // ids cost no memory. The resolver's cache is bounded and only sees well-formed ids.
    const project =
      typeof projectId === 'string' && projectIdPattern.test(projectId)
        ? await projects.resolve(projectId)
        : null
    await charge(project ? project.id : unknownProject)
    if (typeof projectId !== 'string' || projectId === '') throw projectIdNotConfigured()
    if (!project) throw invalidProjectId()
    if (!embeddedWalletOn(project))
      throw new EmbeddedError(403, 'FORBIDDEN', 'The embedded wallet is off for this project')
    ;(request as FastifyRequest & { walletProject: Project }).walletProject = project
  })

  const projectOf = (request: FastifyRequest): Project => {
    const project = (request as FastifyRequest & { walletProject: Project | null }).walletProject
    if (!project) throw new Error('The embedded-wallet hook did not run')
    return project
  }

  /** The site the frame is embedded in: on the project's allow-list, or `Action not allowed`. */
  const siteOf = (request: FastifyRequest): string => {
    const project = projectOf(request)
    const site = parseInput(
      z.object({ site: siteOrigin }),
      { site: request.headers[siteHeader] },
      'query',
    ).site
    if (!isSiteAllowed(project, site, options.devFrameAncestors)) {
      throw new EmbeddedError(403, 'FORBIDDEN', 'Action not allowed')
    }
    return site
  }

  const header = (request: FastifyRequest, name: string) => {
    const value = request.headers[name]
    return typeof value === 'string' ? value : undefined
  }
  /** What a request shows to prove it is its session's browser (see server/embedded/sessionProof.ts). */
  const proofOf = (request: FastifyRequest): SessionProof => ({
    authorization: request.headers.authorization,
    method: request.method,
    url: request.url,
    body: (request as FastifyRequest & { walletRawBody: string }).walletRawBody,
    time: header(request, SESSION_TIME_HEADER),
    nonce: header(request, SESSION_NONCE_HEADER),
    signature: header(request, SESSION_SIGNATURE_HEADER),
  })
  /** The browser's public key a new session is bound to, or 400. */
  const keyOf = (request: FastifyRequest) => sessionKeyOf(header(request, SESSION_KEY_HEADER))
  const session = (request: FastifyRequest) =>
    wallet.login.requireSession(projectOf(request), proofOf(request))
  const bodyLimit = embeddedLimits.maxBodyBytes
  const group = routes(app, { tags: ['embedded wallet'], errors: embeddedErrorBody, bodyLimit })
  const forbidden = {
    description:
      "`FORBIDDEN`: not the frame's origin, the embedded wallet is off for the project, or the site is not on its allow-list.",
  }
  /** An embedded-wallet route: `projectId` in the query, but on the approval page's routes. */
  const route: GroupRoute = (definition, handler) =>
    group(
      {
        projectId: !isApprovalPageRoute(definition.url),
        ...definition,
        responses: { 403: forbidden, ...definition.responses },
      },
      handler,
    )
  /** A route of a signed-in person: the session's token and the browser's proof of it. */
  const sessionRoute: GroupRoute = (definition, handler) =>
    route(
      {
        security: ['walletSession'],
        ...definition,
        headers: [...proofHeaderDocs, ...(definition.headers ?? [])],
        responses: { 401: sessionRefused, ...definition.responses },
      },
      handler,
    )
  /** A sign-in's start: the body names the site the frame is embedded in, or `Action not allowed`. */
  const startBody = <T extends { origin: string }>(body: T, request: FastifyRequest): T => {
    if (siteOf(request) !== body.origin) throw new EmbeddedError(403, 'FORBIDDEN', 'Action not allowed')
    return body
  }
  const newSession = { 200: { description: 'The new session.', schema: sessionResponse } }

  route(
    {
      method: 'POST',
      url: '/embedded/v1/email/connect',
      summary: 'Start an e-mail sign-in: a code is mailed',
      headers: [siteHeaderDocs],
      body: emailConnectRequest,
      responses: { 200: { description: 'How the sign-in goes on.', schema: emailConnectResponse } },
    },
    async (request, _reply, input): Promise<EmailConnectResponse> => {
      const body = input.body()
      if (!projectOf(request).features.email)
        throw new EmbeddedError(403, 'FORBIDDEN', 'E-mail sign-in is off for this project')
      if (siteOf(request) !== body.origin) throw new EmbeddedError(403, 'FORBIDDEN', 'Action not allowed')
      return wallet.login.connectEmail(projectOf(request), body, {
        proof: proofOf(request),
        userAgent: request.headers['user-agent'],
      })
    },
  )

  route(
    {
      method: 'POST',
      url: '/embedded/v1/social/start',
      summary: "Start a social sign-in: the provider's page to open",
      headers: [siteHeaderDocs],
      body: socialStartRequest,
      responses: {
        200: { description: "The provider's URL and the sign-in's id.", schema: socialStartResponse },
      },
    },
    async (request, _reply, input) => {
      const body = input.body()
      if (siteOf(request) !== body.origin) throw new EmbeddedError(403, 'FORBIDDEN', 'Action not allowed')
      return wallet.social.start(projectOf(request), body)
    },
  )

  route(
    {
      method: 'POST',
      url: '/embedded/v1/social/finish',
      summary: 'Finish a social sign-in: a session',
      headers: [siteHeaderDocs, browserKeyDocs],
      body: socialFinishRequest,
      responses: newSession,
    },
    async (request, _reply, input): Promise<SessionResponse> => {
      const body = input.body()
      return wallet.social.finish(projectOf(request), body, siteOf(request), keyOf(request))
    },
  )

  route(
    {
      method: 'POST',
      url: '/embedded/v1/farcaster/start',
      summary: 'Start a Farcaster sign-in: a channel to approve in a Farcaster app',
      headers: [siteHeaderDocs],
      body: farcasterStartRequest,
      responses: { 200: { description: 'The channel.', schema: farcasterStartResponse } },
    },
    async (request, _reply, input) =>
      wallet.farcaster.start(projectOf(request), startBody(input.body(), request)),
  )

  route(
    {
      method: 'POST',
      url: '/embedded/v1/farcaster/finish',
      summary: 'Finish a Farcaster sign-in once approved: a session',
      headers: [siteHeaderDocs, browserKeyDocs],
      body: farcasterFinishRequest,
      responses: newSession,
    },
    async (request, reply, input): Promise<SessionResponse> => {
      const body = input.body()
      const gone = new AbortController()
      reply.raw.once('close', () => gone.abort())
      return wallet.farcaster.finish(projectOf(request), body, siteOf(request), keyOf(request), gone.signal)
    },
  )

  route(
    {
      method: 'POST',
      url: '/embedded/v1/farcaster/mini-app/start',
      summary: 'Start a sign-in inside a Farcaster mini app: the nonce to sign',
      headers: [siteHeaderDocs],
      body: farcasterMiniAppStartRequest,
      responses: { 200: { description: 'The nonce.', schema: farcasterMiniAppStartResponse } },
    },
    async (request, _reply, input) =>
      wallet.farcaster.startMiniApp(projectOf(request), startBody(input.body(), request)),
  )

  route(
    {
      method: 'POST',
      url: '/embedded/v1/farcaster/mini-app/finish',
      summary: "Finish a mini app's sign-in with its signed message: a session",
      headers: [siteHeaderDocs, browserKeyDocs],
      body: farcasterMiniAppFinishRequest,
      responses: newSession,
    },
    async (request, _reply, input): Promise<SessionResponse> => {
      const body = input.body()
      return wallet.farcaster.finishMiniApp(projectOf(request), body, siteOf(request), keyOf(request))
    },
  )

  registerPasskeyRoutes()

  route(
    {
      method: 'POST',
      url: '/embedded/v1/email/verify',
      summary: 'Prove the mailed code: a session, or the approval this browser still needs',
      headers: [siteHeaderDocs, browserKeyDocs],
      body: emailVerifyRequest,
      responses: {
        200: {
          description: 'A session, or `VERIFY_DEVICE` with the code to compare on the mailed link.',
          schema: emailVerifyResponse,
        },
      },
    },
    async (request, _reply, input): Promise<EmailVerifyResponse> => {
      const body = input.body()
      return wallet.login.verifyCode(projectOf(request), body, siteOf(request), keyOf(request), {
        userAgent: request.headers['user-agent'],
      })
    },
  )

  route(
    {
      method: 'POST',
      url: '/embedded/v1/device/wait',
      summary: 'Wait for the mailed approval of this browser',
      description: 'Held open a while: answers when the link is approved or denied, `pending` otherwise.',
      headers: [siteHeaderDocs, browserKeyDocs],
      body: deviceWaitRequest,
      responses: {
        200: { description: 'Pending, denied, or approved with a session.', schema: deviceWaitResponse },
      },
    },
    async (request, reply, input): Promise<DeviceWaitResponse> => {
      const body = input.body()
      const gone = new AbortController()
      reply.raw.once('close', () => gone.abort())
      return wallet.login.waitForDevice(
        projectOf(request),
        body,
        siteOf(request),
        keyOf(request),
        gone.signal,
      )
    },
  )

  // The approval page (`/device#…`): no project in the query, the link's secret in the body.
  const approval = {
    200: {
      description: 'The sign-in the link is for: where, when, and the code to compare.',
      schema: deviceDetailsResponse,
    },
  }
  route(
    {
      method: 'POST',
      url: '/embedded/v1/device/details',
      summary: 'The sign-in a mailed approval link is for',
      body: deviceApprovalRequest,
      responses: approval,
    },
    async (_request, _reply, input): Promise<DeviceDetailsResponse> =>
      wallet.login.deviceDetails(input.body().token),
  )
  route(
    {
      method: 'POST',
      url: '/embedded/v1/device/approve',
      summary: 'Approve the browser of a sign-in, with the code it shows',
      body: deviceApproveRequest,
      responses: approval,
    },
    async (_request, _reply, input): Promise<DeviceDetailsResponse> => {
      const body = input.body()
      return wallet.login.approveDevice(body.token, body.code)
    },
  )
  route(
    {
      method: 'POST',
      url: '/embedded/v1/device/deny',
      summary: 'Deny the browser of a sign-in',
      body: deviceApprovalRequest,
      responses: approval,
    },
    async (_request, _reply, input): Promise<DeviceDetailsResponse> =>
      wallet.login.denyDevice(input.body().token),
  )

  sessionRoute(
    {
      method: 'GET',
      url: '/embedded/v1/me',
      config: { walletLimit: 'none' },
      summary: 'The signed-in person, and where their keys stand',
      responses: {
        200: { description: 'The user (once their keys exist) and the keys.', schema: meResponse },
      },
    },
    async (request) => wallet.login.me(await session(request)),
  )
  registerKeyRoutes(sessionRoute, { wallet, session, limiter: limits.limiter })

  sessionRoute(
    {
      method: 'POST',
      url: '/embedded/v1/sign-out',
      summary: 'End this session',
      responses: { 204: { description: 'The session is over.' } },
    },
    async (request, reply: FastifyReply) => {
      await wallet.login.signOut(await session(request))
      return reply.code(204).send()
    },
  )

  // Every session of the person ends, in every browser (Account's "Sign out everywhere").
  sessionRoute(
    {
      method: 'POST',
      url: '/embedded/v1/sign-out-everywhere',
      summary: 'End every session of the person, in every browser',
      responses: {
        200: { description: '`{ revoked }`: how many sessions ended.', type: 'application/json' },
      },
    },
    async (request) => wallet.login.signOutEverywhere(await session(request)),
  )

  sessionRoute(
    {
      method: 'POST',
      url: '/embedded/v1/email/update',
      summary: "Start changing the person's e-mail address: codes are mailed",
      body: emailUpdateRequest,
      responses: { 200: { description: 'The change and its first step.', schema: emailUpdateResponse } },
    },
    async (request, _reply, input) => {
      const body = input.body()
      return wallet.login.startEmailUpdate(await session(request), body.email)
    },
  )
  sessionRoute(
    {
      method: 'POST',
      url: '/embedded/v1/email/update/primary',
      summary: 'Prove the code mailed to the current address',
      body: emailUpdateOtpRequest,
      responses: { 200: { description: 'The next step.', schema: emailUpdateResponse } },
    },
    async (request, _reply, input) => {
      const body = input.body()
      return wallet.login.verifyPrimary(await session(request), body)
    },
  )
  sessionRoute(
    {
      method: 'POST',
      url: '/embedded/v1/email/update/secondary',
      summary: 'Prove the code mailed to the new address: the change is made',
      body: emailUpdateOtpRequest,
      responses: { 200: { description: 'The new address.', schema: emailUpdatedResponse } },
    },
    async (request, _reply, input) => {
      const body = input.body()
      return wallet.login.verifySecondary(await session(request), body)
    },
  )

  /** Passkey sign-in (a new person, or one with a passkey) and linking (signed in). */
  function registerPasskeyRoutes() {
    const options = {
      200: { description: "The WebAuthn options and the ceremony's id.", schema: passkeyStartResponse },
    }
    const list = { 200: { description: "The person's passkeys.", schema: passkeyListResponse } }
    route(
      {
        method: 'POST',
        url: '/embedded/v1/passkey/register/start',
        summary: 'Start signing up with a new passkey',
        headers: [siteHeaderDocs],
        body: passkeyStartRequest,
        responses: options,
      },
      async (request, _reply, input) =>
        wallet.passkeys.startRegister(projectOf(request), startBody(input.body(), request)),
    )
    route(
      {
        method: 'POST',
        url: '/embedded/v1/passkey/register/finish',
        summary: 'Finish signing up with the new passkey: a session',
        headers: [siteHeaderDocs, browserKeyDocs],
        body: passkeyRegisterFinishRequest,
        responses: newSession,
      },
      async (request, _reply, input): Promise<SessionResponse> => {
        const body = input.body()
        return wallet.passkeys.finishRegister(projectOf(request), body, siteOf(request), keyOf(request))
      },
    )
    route(
      {
        method: 'POST',
        url: '/embedded/v1/passkey/login/start',
        summary: 'Start signing in with a passkey',
        headers: [siteHeaderDocs],
        body: passkeyStartRequest,
        responses: options,
      },
      async (request, _reply, input) =>
        wallet.passkeys.startLogin(projectOf(request), startBody(input.body(), request)),
    )
    route(
      {
        method: 'POST',
        url: '/embedded/v1/passkey/login/finish',
        summary: 'Finish signing in with the passkey: a session',
        headers: [siteHeaderDocs, browserKeyDocs],
        body: passkeyLoginFinishRequest,
        responses: newSession,
      },
      async (request, _reply, input): Promise<SessionResponse> => {
        const body = input.body()
        return wallet.passkeys.finishLogin(projectOf(request), body, siteOf(request), keyOf(request))
      },
    )
    sessionRoute(
      {
        method: 'POST',
        url: '/embedded/v1/passkey/link/start',
        summary: 'Start adding a passkey to the signed-in person',
        headers: [siteHeaderDocs],
        body: passkeyStartRequest,
        responses: options,
      },
      async (request, _reply, input) => {
        const live = await session(request)
        return wallet.passkeys.startLink(projectOf(request), live, startBody(input.body(), request))
      },
    )
    sessionRoute(
      {
        method: 'POST',
        url: '/embedded/v1/passkey/link/finish',
        summary: 'Finish adding the passkey',
        headers: [siteHeaderDocs],
        body: passkeyRegisterFinishRequest,
        responses: list,
      },
      async (request, _reply, input) => {
        const live = await session(request)
        const body = input.body()
        return wallet.passkeys.finishLink(projectOf(request), live, body, siteOf(request))
      },
    )
    sessionRoute(
      {
        method: 'GET',
        url: '/embedded/v1/passkeys',
        config: { walletLimit: 'none' },
        summary: "The person's passkeys",
        responses: list,
      },
      async (request) => wallet.passkeys.list(await session(request)),
    )
    sessionRoute(
      {
        method: 'POST',
        url: '/embedded/v1/passkeys/remove',
        summary: "Remove one of the person's passkeys",
        body: passkeyRemoveRequest,
        responses: list,
      },
      async (request, _reply, input) => {
        const live = await session(request)
        return wallet.passkeys.remove(live, input.body().id)
      },
    )
  }

  // Export and delete: a fresh code, then the keys (to this session's frame only), then, once exported,
  // the wallet's deletion. The keys' answer is never cached (every route here says no-store) nor logged.
  sessionRoute(
    {
      method: 'POST',
      url: '/embedded/v1/export/code',
      summary: 'Mail a code that allows exporting or deleting the wallet',
      body: exportCodeRequest,
      responses: { 200: { description: "The code's id.", schema: exportCodeResponse } },
    },
    async (request, _reply, input) => {
      const body = input.body()
      return wallet.login.mailExportCode(await session(request), body.purpose)
    },
  )
  sessionRoute(
    {
      method: 'POST',
      url: '/embedded/v1/export',
      summary: "The person's key share, to export the wallet (with the mailed code)",
      body: exportConfirmRequest,
      responses: { 200: { description: 'The share set and its share.', schema: exportResponse } },
    },
    async (request, reply, input) => {
      const body = input.body()
      const keys = await wallet.login.exportKeys(await session(request), body)
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(keys)
    },
  )
  sessionRoute(
    {
      method: 'POST',
      url: '/embedded/v1/wallet/delete',
      summary: 'Delete the wallet (with the mailed code, once exported)',
      body: exportConfirmRequest,
      responses: {
        200: { description: 'Deleted, and how many sessions ended.', schema: walletDeletedResponse },
      },
    },
    async (request, _reply, input) => {
      const body = input.body()
      return wallet.login.deleteWallet(await session(request), body)
    },
  )

  registerRequestRoutes(sessionRoute, { wallet, session })
}
