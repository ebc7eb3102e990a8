import type { FastifyInstance, FastifyRequest } from 'fastify'
import type {
  AuthErrorBody,
  AuthenticateResponse,
  AuthMeResponse,
  AuthNonceResponse,
  JsonWebKeySet,
} from '../../src/protocol/api/index.ts'
import {
  authErrorBody,
  authenticateRequest,
  authenticateResponse,
  authLimits,
  authMeResponse,
  authNonceResponse,
  jsonWebKeySet,
} from '../../src/protocol/api/index.ts'
import { addVary, projectOf } from '../http/access.ts'
import type { RateLimiter, RateLimitRules } from '../http/rateLimit.ts'
import { routes } from '../http/route.ts'
import { hasHint } from './errors.ts'
import type { AuthService } from './service.ts'

/**
 * Sign-in with the wallet (SIWX): `GET /auth/v1/nonce`, `POST /auth/v1/authenticate`, `GET /auth/v1/me`
 * and `POST /auth/v1/sign-out` (project routes: `projectId`, `st`, `sv` and an allowed `Origin`), and
 * `GET /auth/v1/keys` (public: the JWKS a site's backend verifies session tokens with). Register it in
 * its own scope: its error handler adds `hint` to the error body and leaves everything else to the app's.
 *
 * @example
 * await app.register(async (scope) => registerAuthRoutes(scope, auth))
 */
export function registerAuthRoutes(
  app: FastifyInstance,
  auth: AuthService,
  limits: { limiter: RateLimiter; rules: RateLimitRules },
): void {
  // Every route that writes counts toward the client's limit, per route.
  const limit = (request: FastifyRequest, route: 'nonce' | 'authenticate' | 'sign-out') =>
    limits.limiter.take({ projectId: projectOf(request).id, address: request.ip }, [
      [limits.rules.signIn(route), 1],
    ])

  app.setErrorHandler((error, request, reply) => {
    // Errors without a hint go to the app's handler, which answers them as everywhere else.
    if (!hasHint(error)) throw error
    request.log.debug({ code: error.code, field: error.field, hint: error.hint }, error.message)
    const origin = request.headers.origin
    if (origin !== undefined && !reply.hasHeader('access-control-allow-origin')) {
      reply.header('access-control-allow-origin', origin)
      addVary(reply, 'Origin')
    }
    const field = error.field === undefined ? {} : { field: error.field }
    const body: AuthErrorBody = {
      error: { code: error.code, message: error.message, ...field, hint: error.hint },
    }
    return reply.code(error.statusCode).header('cache-control', 'no-store').send(body)
  })

  const route = routes(app, { tags: ['auth'], config: { access: 'project' }, errors: authErrorBody })

  // Every GET makes a nonce, so no HEAD twin.
  route(
    {
      method: 'GET',
      url: '/auth/v1/nonce',
      exposeHeadRoute: false,
      summary: 'A nonce for the sign-in message',
      description:
        'With the token that binds it to the project for 5 minutes: send it back with the signature.',
      responses: { 200: { description: 'The nonce and its token.', schema: authNonceResponse } },
    },
    async (request, reply): Promise<AuthNonceResponse> => {
      reply.header('cache-control', 'no-store')
      await limit(request, 'nonce')
      return auth.createNonce(projectOf(request))
    },
  )

  route(
    {
      method: 'POST',
      url: '/auth/v1/authenticate',
      bodyLimit: authLimits.maxAuthenticateBodyBytes,
      summary: 'Sign in with a signed message',
      description: 'Checks the message, its nonce token and the signature, and opens a session.',
      body: authenticateRequest,
      responses: { 200: { description: 'The session token and the session.', schema: authenticateResponse } },
    },
    async (request, reply, input): Promise<AuthenticateResponse> => {
      const body = input.body()
      reply.header('cache-control', 'no-store')
      await limit(request, 'authenticate')
      return auth.authenticate(projectOf(request), body, request.headers.origin)
    },
  )

  route(
    {
      method: 'GET',
      url: '/auth/v1/me',
      security: ['sessionToken'],
      summary: 'Who the session token belongs to',
      responses: {
        200: { description: "The signed-in account and the session's times.", schema: authMeResponse },
      },
    },
    async (request, reply): Promise<AuthMeResponse> => {
      reply.header('cache-control', 'no-store')
      return auth.me(projectOf(request), request.headers.authorization)
    },
  )

  route(
    {
      method: 'POST',
      url: '/auth/v1/sign-out',
      security: ['sessionToken'],
      summary: 'End the session',
      responses: { 204: { description: 'The session is over.' } },
    },
    async (request, reply) => {
      await limit(request, 'sign-out')
      await auth.signOut(projectOf(request), request.headers.authorization)
      return reply.code(204).send()
    },
  )

  route(
    {
      method: 'GET',
      url: '/auth/v1/keys',
      config: { access: 'public' },
      summary: 'The keys session tokens are signed with (JWKS)',
      description: "What a site's backend verifies session tokens with. Cached 5 minutes.",
      responses: { 200: { description: 'The JSON Web Key Set.', schema: jsonWebKeySet } },
    },
    async (_request, reply): Promise<JsonWebKeySet> => {
      reply.header('cache-control', 'public, max-age=300')
      return auth.jwks()
    },
  )
}
