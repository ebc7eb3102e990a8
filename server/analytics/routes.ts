import type { FastifyInstance } from 'fastify'
import { analyticsRequestBody, apiLimits } from '../../src/protocol/api/index.ts'
import type { Db } from '../db/database.ts'
import type { RateLimiter, RateLimitRules } from '../http/rateLimit.ts'
import { route } from '../http/route.ts'
import { storeEvents } from './storeEvents.ts'

/**
 * `POST /e`: analytics events (one, or a batch), stored when the project has analytics on. Answers 204.
 * Also takes `text/plain` JSON bodies, which is what `navigator.sendBeacon` sends on `pagehide` without a
 * preflight.
 *
 * @example
 * await app.register(async (scope) => registerAnalyticsRoutes(scope, database.db, { limiter, rules }))
 */
export function registerAnalyticsRoutes(
  app: FastifyInstance,
  db: Db,
  limits: { limiter: RateLimiter; rules: RateLimitRules },
): void {
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string))
    } catch (error) {
      done(Object.assign(error as Error, { statusCode: 400 }), undefined)
    }
  })

  route(
    app,
    {
      method: 'POST',
      url: '/e',
      config: { access: 'project' },
      bodyLimit: apiLimits.maxAnalyticsBodyBytes,
      summary: 'Analytics events: one, or a batch',
      description:
        'Stored when the project has analytics on, dropped otherwise. Also takes the JSON as `text/plain`, ' +
        'which is what `navigator.sendBeacon` sends without a preflight.',
      tags: ['analytics'],
      body: analyticsRequestBody,
      bodyTypes: ['application/json', 'text/plain'],
      responses: { 204: { description: 'Received (kept or not, as the project says).' } },
    },
    async (request, reply, input) => {
      const body = input.body()
      const events = Array.isArray(body) ? body : [body]
      const project = request.project
      const sdk = request.sdk
      if (!project || !sdk) throw new Error('The access hook did not run')
      // Each event counts, whether or not the project keeps them.
      await limits.limiter.take({ projectId: project.id, address: request.ip }, [
        [limits.rules.analytics, events.length],
      ])
      if (!project.analyticsEnabled) {
        request.log.debug({ projectId: project.id }, 'Analytics is off for this project; events dropped')
        return reply.code(204).send()
      }
      const stored = await storeEvents(db, {
        projectId: project.id,
        sdk,
        origin: request.headers.origin ?? null,
        events,
      })
      request.log.debug({ projectId: project.id, received: events.length, stored }, 'Analytics events')
      return reply.code(204).send()
    },
  )
}
