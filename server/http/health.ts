import type { FastifyInstance } from 'fastify'
import { type HealthResponse, healthResponse } from '../../src/protocol/api/index.ts'
import type { ServiceDatabase } from '../db/database.ts'
import { route } from './route.ts'

const pingTimeoutMs = 2000

/**
 * `GET /healthz`: 200 when the database answers within 2 s, 503 otherwise. For load balancers and
 * orchestrators; public and not logged.
 *
 * @example
 * registerHealthRoute(app, database)
 */
export function registerHealthRoute(app: FastifyInstance, database: ServiceDatabase): void {
  // Probes come every few seconds: log them only from warn up, unless the service is quieter still.
  const quieter = ['error', 'fatal', 'silent'] as const
  const logLevel = quieter.find((level) => level === app.log.level) ?? 'warn'
  route(
    app,
    {
      method: 'GET',
      url: '/healthz',
      config: { access: 'public' },
      logLevel,
      summary: 'Whether the service and its database answer',
      description: 'For load balancers and orchestrators: never cached, not logged.',
      tags: ['service'],
      responses: {
        200: { description: 'The service and its database answer.', schema: healthResponse },
        503: { description: 'The database does not answer within 2 s.', schema: healthResponse },
      },
    },
    async (request, reply) => {
      let timer: NodeJS.Timeout | undefined
      try {
        await Promise.race([
          database.ping(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('Database ping timed out')), pingTimeoutMs)
          }),
        ])
        const body: HealthResponse = { status: 'ok', database: 'ok' }
        return reply.header('cache-control', 'no-store').send(body)
      } catch (error) {
        request.log.error({ err: error }, 'Health check failed')
        const body: HealthResponse = { status: 'error', database: 'error' }
        return reply.code(503).header('cache-control', 'no-store').send(body)
      } finally {
        clearTimeout(timer)
      }
    },
  )
}
