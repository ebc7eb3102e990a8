import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import * as z from 'zod/mini'
import type {
  DeviceDetailsResponse,
  DeviceWaitResponse,
  EmailConnectResponse,
  EmbeddedErrorBody,
  SessionResponse,
} from '../../src/protocol/embedded/index.ts'
import {
  deviceApprovalRequest,
  deviceWaitRequest,
  emailConnectRequest,
  emailUpdateOtpRequest,
  emailUpdateRequest,
  emailVerifyRequest,
  embeddedLimits,
  opaqueId,
  siteOrigin,
  walletRpcRequest,
} from '../../src/protocol/embedded/index.ts'
import { EmbeddedError, isEmbeddedError } from '../embedded/errors.ts'
import type { EmbeddedWallet } from '../embedded/index.ts'
import { invalidProjectId, projectIdNotConfigured } from '../errors.ts'
import { isSiteAllowed } from '../frame/ancestors.ts'
import { toServiceError } from '../http/errorHandler.ts'
import { parseInput } from '../http/validation.ts'
import type { ProjectResolver } from '../projects/resolver.ts'
import type { Project } from '../projects/store.ts'

export interface EmbeddedRouteOptions {
  wallet: EmbeddedWallet
  projects: ProjectResolver
  /** The frame's own origin: the only one these routes answer. */
  frameOrigin: string
  /** `localhost:*` and `127.0.0.1:*` count as allowed sites (development). */
  devFrameAncestors: boolean
  /** The service's clock (tests). */
  now?: () => number
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Embedded-wallet routes: requests per minute per client, counted on this route's bucket. */
    perMinute?: number
  }
}

/** The site the frame reports it is embedded in, sent with every request. */
const siteHeader = 'x-wallet-site'

/**
 * A fixed-window counter per key: `take` is undefined while under `limit` in the window, else the
 * seconds until it ends.
 */
function windowLimiter(windowMs: number) {
  const windows = new Map<string, { start: number; count: number }>()
  return (key: string, limit: number, time: number): number | undefined => {
    if (windows.size > 50_000) {
      for (const [name, window] of windows) if (time - window.start >= windowMs) windows.delete(name)
    }
    const current = windows.get(key)
    if (!current || time - current.start >= windowMs) {
      windows.set(key, { start: time, count: 1 })
      return undefined
    }
    if (current.count < limit) {
      current.count++
      return undefined
    }
    return Math.max(1, Math.ceil((current.start + windowMs - time) / 1000))
  }
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
  const { wallet, projects } = options
  const now = options.now ?? Date.now
  const limit = windowLimiter(60_000)

  app.decorateRequest('walletProject', null)

  app.setErrorHandler((error, request, reply) => {
    const serviceError = toServiceError(error, request.routeOptions.bodyLimit)
    if (serviceError.statusCode >= 500 && serviceError.statusCode !== 501 && serviceError.statusCode !== 502)
      request.log.error({ err: error }, 'Embedded-wallet request failed')
    const extra = isEmbeddedError(error) ? error.extra : {}
    if (extra.secondsLeft !== undefined) reply.header('retry-after', String(extra.secondsLeft))
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
    // Browsers send Origin on every cross-origin request and on same-origin POSTs: only the frame's.
    const origin = request.headers.origin
    const fetchSite = request.headers['sec-fetch-site']
    if (
      (origin !== undefined && origin !== options.frameOrigin) ||
      (fetchSite !== undefined && fetchSite !== 'same-origin')
    ) {
      throw new EmbeddedError(403, 'FORBIDDEN', 'These routes answer the wallet frame only')
    }
    const perMinute = request.routeOptions.config.perMinute ?? embeddedLimits.writesPerMinute
    const retryAfter = limit(`${request.routeOptions.url} ${request.ip}`, perMinute, now())
    if (retryAfter !== undefined) {
      throw new EmbeddedError(
        429,
        'TOO_MANY_REQUESTS',
        `Too many requests: try again in ${retryAfter} seconds`,
        {
          secondsLeft: retryAfter,
        },
      )
    }
    const query = (request.query ?? {}) as Record<string, unknown>
    const projectId = query.projectId
    if (
      request.routeOptions.url?.startsWith('/embedded/v1/device/') &&
      !request.routeOptions.url.endsWith('/wait')
    )
      return
    if (typeof projectId !== 'string' || projectId === '') throw projectIdNotConfigured()
    const project = await projects.resolve(projectId)
    if (!project) throw invalidProjectId()
    if (!project.features.email)
      throw new EmbeddedError(403, 'FORBIDDEN', 'E-mail sign-in is off for this project')
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

  const session = (request: FastifyRequest) =>
    wallet.login.requireSession(projectOf(request), request.headers.authorization)
  const bodyLimit = embeddedLimits.maxBodyBytes

  app.post(
    '/embedded/v1/email/connect',
    { bodyLimit, config: { perMinute: 20 } },
    async (request): Promise<EmailConnectResponse> => {
      const body = parseInput(emailConnectRequest, request.body, 'body')
      if (siteOf(request) !== body.origin) throw new EmbeddedError(403, 'FORBIDDEN', 'Action not allowed')
      return wallet.login.connectEmail(projectOf(request), body, {
        authorization: request.headers.authorization,
        userAgent: request.headers['user-agent'],
      })
    },
  )

  app.post(
    '/embedded/v1/email/verify',
    { bodyLimit, config: { perMinute: 30 } },
    async (request): Promise<SessionResponse> => {
      const body = parseInput(emailVerifyRequest, request.body, 'body')
      return wallet.login.verifyCode(projectOf(request), body, siteOf(request))
    },
  )

  app.post(
    '/embedded/v1/device/wait',
    { bodyLimit, config: { perMinute: 30 } },
    async (request, reply): Promise<DeviceWaitResponse> => {
      const body = parseInput(deviceWaitRequest, request.body, 'body')
      const gone = new AbortController()
      reply.raw.once('close', () => gone.abort())
      return wallet.login.waitForDevice(projectOf(request), body, siteOf(request), gone.signal)
    },
  )

  // The approval page (`/device#…`): no project in the query, the link's secret in the body.
  app.post(
    '/embedded/v1/device/details',
    { bodyLimit, config: { perMinute: 30 } },
    async (request): Promise<DeviceDetailsResponse> =>
      wallet.login.deviceDetails(parseInput(deviceApprovalRequest, request.body, 'body').token),
  )
  app.post(
    '/embedded/v1/device/approve',
    { bodyLimit, config: { perMinute: 10 } },
    async (request): Promise<DeviceDetailsResponse> =>
      wallet.login.approveDevice(parseInput(deviceApprovalRequest, request.body, 'body').token),
  )
  app.post(
    '/embedded/v1/device/deny',
    { bodyLimit, config: { perMinute: 10 } },
    async (request): Promise<DeviceDetailsResponse> =>
      wallet.login.denyDevice(parseInput(deviceApprovalRequest, request.body, 'body').token),
  )

  app.get('/embedded/v1/me', { config: { perMinute: 120 } }, async (request) => ({
    user: await wallet.login.user(await session(request)),
  }))

  app.post('/embedded/v1/sign-out', { config: { perMinute: 30 } }, async (request, reply: FastifyReply) => {
    await wallet.login.signOut(projectOf(request), request.headers.authorization)
    return reply.code(204).send()
  })

  app.post('/embedded/v1/email/update', { bodyLimit, config: { perMinute: 10 } }, async (request) => {
    const body = parseInput(emailUpdateRequest, request.body, 'body')
    return wallet.login.startEmailUpdate(await session(request), body.email)
  })
  app.post('/embedded/v1/email/update/primary', { bodyLimit, config: { perMinute: 30 } }, async (request) => {
    const body = parseInput(emailUpdateOtpRequest, request.body, 'body')
    return wallet.login.verifyPrimary(await session(request), body)
  })
  app.post(
    '/embedded/v1/email/update/secondary',
    { bodyLimit, config: { perMinute: 30 } },
    async (request) => {
      const body = parseInput(emailUpdateOtpRequest, request.body, 'body')
      return wallet.login.verifySecondary(await session(request), body)
    },
  )

  app.get('/embedded/v1/networks', { config: { perMinute: 120 } }, async () => ({
    networks: wallet.requests.networks(),
  }))

  app.post('/embedded/v1/rpc', { bodyLimit, config: { perMinute: 600 } }, async (request) => {
    const body = parseInput(walletRpcRequest, request.body, 'body')
    return { result: await wallet.requests.rpc(await session(request), body) }
  })

  app.post('/embedded/v1/requests', { bodyLimit, config: { perMinute: 60 } }, async (request) => {
    const body = parseInput(walletRpcRequest, request.body, 'body')
    return wallet.requests.create(await session(request), body)
  })

  const idParam = z.object({ id: opaqueId })
  app.post('/embedded/v1/requests/:id/approve', { config: { perMinute: 60 } }, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path')
    return { result: await wallet.requests.approve(await session(request), id) }
  })
  app.post('/embedded/v1/requests/:id/reject', { config: { perMinute: 60 } }, async (request, reply) => {
    const { id } = parseInput(idParam, request.params, 'path')
    await wallet.requests.reject(await session(request), id)
    return reply.code(204).send()
  })
}
