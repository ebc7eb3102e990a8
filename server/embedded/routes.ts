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
  deviceWaitRequest,
  emailConnectRequest,
  emailUpdateOtpRequest,
  emailUpdateRequest,
  emailVerifyRequest,
  embeddedLimits,
  exportCodeRequest,
  exportConfirmRequest,
  farcasterFinishRequest,
  farcasterMiniAppFinishRequest,
  farcasterMiniAppStartRequest,
  farcasterStartRequest,
  passkeyLoginFinishRequest,
  passkeyRegisterFinishRequest,
  passkeyRemoveRequest,
  passkeyStartRequest,
  SESSION_KEY_HEADER,
  SESSION_NONCE_HEADER,
  SESSION_SIGNATURE_HEADER,
  SESSION_TIME_HEADER,
  siteOrigin,
  socialFinishRequest,
  socialStartRequest,
} from '../../src/protocol/embedded/index.ts'
import { invalidProjectId, projectIdNotConfigured } from '../errors.ts'
import { isSiteAllowed } from '../frame/ancestors.ts'
import { toServiceError } from '../http/errorHandler.ts'
import type { RateLimiter, RateLimitRules } from '../http/rateLimit.ts'
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
    const approvalPage = route.startsWith('/embedded/v1/device/') && !route.endsWith('/wait')
    if (approvalPage) return charge('-')
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

  app.post('/embedded/v1/email/connect', { bodyLimit }, async (request): Promise<EmailConnectResponse> => {
    const body = parseInput(emailConnectRequest, request.body, 'body')
    if (!projectOf(request).features.email)
      throw new EmbeddedError(403, 'FORBIDDEN', 'E-mail sign-in is off for this project')
    if (siteOf(request) !== body.origin) throw new EmbeddedError(403, 'FORBIDDEN', 'Action not allowed')
    return wallet.login.connectEmail(projectOf(request), body, {
      proof: proofOf(request),
      userAgent: request.headers['user-agent'],
    })
  })

  app.post('/embedded/v1/social/start', { bodyLimit }, async (request) => {
    const body = parseInput(socialStartRequest, request.body, 'body')
    if (siteOf(request) !== body.origin) throw new EmbeddedError(403, 'FORBIDDEN', 'Action not allowed')
    return wallet.social.start(projectOf(request), body)
  })

  app.post('/embedded/v1/social/finish', { bodyLimit }, async (request): Promise<SessionResponse> => {
    const body = parseInput(socialFinishRequest, request.body, 'body')
    return wallet.social.finish(projectOf(request), body, siteOf(request), keyOf(request))
  })

  /** A sign-in's start: the body names the site the frame is embedded in, or `Action not allowed`. */
  const startBody = <T extends z.ZodMiniType<{ origin: string }>>(schema: T, request: FastifyRequest) => {
    const body = parseInput(schema, request.body, 'body')
    if (siteOf(request) !== body.origin) throw new EmbeddedError(403, 'FORBIDDEN', 'Action not allowed')
    return body
  }

  app.post('/embedded/v1/farcaster/start', { bodyLimit }, async (request) =>
    wallet.farcaster.start(projectOf(request), startBody(farcasterStartRequest, request)),
  )

  app.post(
    '/embedded/v1/farcaster/finish',
    { bodyLimit },
    async (request, reply): Promise<SessionResponse> => {
      const body = parseInput(farcasterFinishRequest, request.body, 'body')
      const gone = new AbortController()
      reply.raw.once('close', () => gone.abort())
      return wallet.farcaster.finish(projectOf(request), body, siteOf(request), keyOf(request), gone.signal)
    },
  )

  app.post('/embedded/v1/farcaster/mini-app/start', { bodyLimit }, async (request) =>
    wallet.farcaster.startMiniApp(projectOf(request), startBody(farcasterMiniAppStartRequest, request)),
  )

  app.post(
    '/embedded/v1/farcaster/mini-app/finish',
    { bodyLimit },
    async (request): Promise<SessionResponse> => {
      const body = parseInput(farcasterMiniAppFinishRequest, request.body, 'body')
      return wallet.farcaster.finishMiniApp(projectOf(request), body, siteOf(request), keyOf(request))
    },
  )

  registerPasskeyRoutes()

  app.post('/embedded/v1/email/verify', { bodyLimit }, async (request): Promise<EmailVerifyResponse> => {
    const body = parseInput(emailVerifyRequest, request.body, 'body')
    return wallet.login.verifyCode(projectOf(request), body, siteOf(request), keyOf(request), {
      userAgent: request.headers['user-agent'],
    })
  })

  app.post('/embedded/v1/device/wait', { bodyLimit }, async (request, reply): Promise<DeviceWaitResponse> => {
    const body = parseInput(deviceWaitRequest, request.body, 'body')
    const gone = new AbortController()
    reply.raw.once('close', () => gone.abort())
    return wallet.login.waitForDevice(projectOf(request), body, siteOf(request), keyOf(request), gone.signal)
  })

  // The approval page (`/device#…`): no project in the query, the link's secret in the body.
  app.post(
    '/embedded/v1/device/details',
    { bodyLimit },
    async (request): Promise<DeviceDetailsResponse> =>
      wallet.login.deviceDetails(parseInput(deviceApprovalRequest, request.body, 'body').token),
  )
  app.post('/embedded/v1/device/approve', { bodyLimit }, async (request): Promise<DeviceDetailsResponse> => {
    const body = parseInput(deviceApproveRequest, request.body, 'body')
    return wallet.login.approveDevice(body.token, body.code)
  })
  app.post(
    '/embedded/v1/device/deny',
    { bodyLimit },
    async (request): Promise<DeviceDetailsResponse> =>
      wallet.login.denyDevice(parseInput(deviceApprovalRequest, request.body, 'body').token),
  )

  app.get('/embedded/v1/me', { config: { walletLimit: 'none' } }, async (request) =>
    wallet.login.me(await session(request)),
  )
  registerKeyRoutes(app, { wallet, session, bodyLimit, limiter: limits.limiter })

  app.post('/embedded/v1/sign-out', {}, async (request, reply: FastifyReply) => {
    await wallet.login.signOut(await session(request))
    return reply.code(204).send()
  })

  // Every session of the person ends, in every browser (Account's "Sign out everywhere").
  app.post('/embedded/v1/sign-out-everywhere', {}, async (request) =>
    wallet.login.signOutEverywhere(await session(request)),
  )

  app.post('/embedded/v1/email/update', { bodyLimit }, async (request) => {
    const body = parseInput(emailUpdateRequest, request.body, 'body')
    return wallet.login.startEmailUpdate(await session(request), body.email)
  })
  app.post('/embedded/v1/email/update/primary', { bodyLimit }, async (request) => {
    const body = parseInput(emailUpdateOtpRequest, request.body, 'body')
    return wallet.login.verifyPrimary(await session(request), body)
  })
  app.post('/embedded/v1/email/update/secondary', { bodyLimit }, async (request) => {
    const body = parseInput(emailUpdateOtpRequest, request.body, 'body')
    return wallet.login.verifySecondary(await session(request), body)
  })

  /** Passkey sign-in (a new person, or one with a passkey) and linking (signed in). */
  function registerPasskeyRoutes() {
    const started = (request: FastifyRequest) => {
      const body = parseInput(passkeyStartRequest, request.body, 'body')
      if (siteOf(request) !== body.origin) throw new EmbeddedError(403, 'FORBIDDEN', 'Action not allowed')
      return body
    }
    app.post('/embedded/v1/passkey/register/start', { bodyLimit }, async (request) =>
      wallet.passkeys.startRegister(projectOf(request), started(request)),
    )
    app.post(
      '/embedded/v1/passkey/register/finish',
      { bodyLimit },
      async (request): Promise<SessionResponse> => {
        const body = parseInput(passkeyRegisterFinishRequest, request.body, 'body')
        return wallet.passkeys.finishRegister(projectOf(request), body, siteOf(request), keyOf(request))
      },
    )
    app.post('/embedded/v1/passkey/login/start', { bodyLimit }, async (request) =>
      wallet.passkeys.startLogin(projectOf(request), started(request)),
    )
    app.post(
      '/embedded/v1/passkey/login/finish',
      { bodyLimit },
      async (request): Promise<SessionResponse> => {
        const body = parseInput(passkeyLoginFinishRequest, request.body, 'body')
        return wallet.passkeys.finishLogin(projectOf(request), body, siteOf(request), keyOf(request))
      },
    )
    app.post('/embedded/v1/passkey/link/start', { bodyLimit }, async (request) => {
      const live = await session(request)
      return wallet.passkeys.startLink(projectOf(request), live, started(request))
    })
    app.post('/embedded/v1/passkey/link/finish', { bodyLimit }, async (request) => {
      const live = await session(request)
      const body = parseInput(passkeyRegisterFinishRequest, request.body, 'body')
      return wallet.passkeys.finishLink(projectOf(request), live, body, siteOf(request))
    })
    app.get('/embedded/v1/passkeys', { config: { walletLimit: 'none' } }, async (request) =>
      wallet.passkeys.list(await session(request)),
    )
    app.post('/embedded/v1/passkeys/remove', { bodyLimit }, async (request) => {
      const live = await session(request)
      return wallet.passkeys.remove(live, parseInput(passkeyRemoveRequest, request.body, 'body').id)
    })
  }

  // Export and delete: a fresh code, then the keys (to this session's frame only), then, once exported,
  // the wallet's deletion. The keys' answer is never cached (every route here says no-store) nor logged.
  app.post('/embedded/v1/export/code', { bodyLimit }, async (request) => {
    const body = parseInput(exportCodeRequest, request.body, 'body')
    return wallet.login.mailExportCode(await session(request), body.purpose)
  })
  app.post('/embedded/v1/export', { bodyLimit }, async (request, reply) => {
    const body = parseInput(exportConfirmRequest, request.body, 'body')
    const keys = await wallet.login.exportKeys(await session(request), body)
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(keys)
  })
  app.post('/embedded/v1/wallet/delete', { bodyLimit }, async (request) => {
    const body = parseInput(exportConfirmRequest, request.body, 'body')
    return wallet.login.deleteWallet(await session(request), body)
  })

  registerRequestRoutes(app, { wallet, session, bodyLimit })
}
