import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { SdkQuery } from '../../src/protocol/api/index.ts'
import { projectIdPattern, sdkQuery } from '../../src/protocol/api/index.ts'
import { badRequest, invalidAppConfiguration, invalidProjectId, projectIdNotConfigured } from '../errors.ts'
import { isOriginAllowed } from '../projects/origins.ts'
import type { ProjectResolver } from '../projects/resolver.ts'
import type { Project } from '../projects/store.ts'
import { parseInput } from './validation.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The project of a `project` route, set by the access hook. */
    project: Project | null
    /** `st` and `sv` of a `project` route (absent ones are empty strings where optional). */
    sdk: SdkQuery | null
  }
  interface FastifyContextConfig {
    /**
     * `project`: needs `projectId` (and `st`, `sv`) and an allowed `Origin`; CORS reflects allowed
     * origins. `public`: open to any origin (`Access-Control-Allow-Origin: *`).
     */
    access?: 'project' | 'public'
    /** For `project` routes: `st` and `sv` may be absent (the RPC proxy, whose URL the spec fixes). */
    sdkOptional?: boolean
    /** Errors are answered as JSON-RPC 2.0 error responses. */
    jsonRpc?: boolean
  }
}

/**
 * The project of a `project` route (set by the access hook before the handler runs).
 *
 * @example
 * app.get('/names/v1/check', { config: { access: 'project' } }, async (request) => check(projectOf(request)))
 */
export function projectOf(request: FastifyRequest): Project {
  if (!request.project) throw new Error('The access hook did not run')
  return request.project
}

const publicPrefixes = ['/healthz', '/openapi.json', '/getWalletImage/', '/public/', '/names/v1/gateway']

/** Whether a path belongs to a public route (for preflights, which are not routed to it). */
export function isPublicPath(path: string): boolean {
  return publicPrefixes.some((prefix) => path === prefix || path.startsWith(prefix))
}

/** Adds a value to the `Vary` header without repeating it. */
export function addVary(reply: FastifyReply, value: string): void {
  const current = reply.getHeader('vary')
  const values = typeof current === 'string' ? current.split(',').map((item) => item.trim()) : []
  if (!values.some((item) => item.toLowerCase() === value.toLowerCase())) {
    reply.header('vary', [...values.filter((item) => item !== ''), value].join(', '))
  }
}

interface Authorized {
  project: Project
  sdk: SdkQuery
}

/**
 * Checks `projectId`, `st`, `sv` and the `Origin` header of a request against the project's allow-list
 * (requests without `Origin`, from servers, are allowed), throwing the spec's errors.
 */
async function authorize(
  request: FastifyRequest,
  projects: ProjectResolver,
  sdkRequired: boolean,
): Promise<Authorized> {
  const query = (request.query ?? {}) as Record<string, unknown>
  const projectId = query.projectId
  if (projectId === undefined || projectId === '') throw projectIdNotConfigured()
  if (typeof projectId !== 'string')
    throw badRequest('projectId', 'Invalid query parameter projectId: give it once')
  if (!projectIdPattern.test(projectId)) throw invalidProjectId()
  const sdk: SdkQuery =
    sdkRequired || query.st !== undefined || query.sv !== undefined
      ? parseInput(sdkQuery, { st: query.st, sv: query.sv }, 'query')
      : { st: '', sv: '' }
  const project = await projects.resolve(projectId)
  if (!project) throw invalidProjectId()
  const origin = request.headers.origin
  if (origin !== undefined && !isOriginAllowed(project.origins, origin)) throw invalidAppConfiguration()
  return { project, sdk }
}

/**
 * Guards every `project` route (project id, SDK parameters, origin allow-list), answers CORS preflights,
 * and marks `public` routes as readable from any origin.
 *
 * @example
 * registerAccess(app, createProjectResolver(db, { ttlMs: 5000 }))
 */
export function registerAccess(app: FastifyInstance, projects: ProjectResolver): void {
  app.decorateRequest('project', null)
  app.decorateRequest('sdk', null)

  app.addHook('onRequest', async (request, reply) => {
    const { access, sdkOptional } = request.routeOptions.config
    const origin = request.headers.origin
    if (access === 'public') {
      // Always, so a shared cache never keeps a copy without it.
      reply.header('access-control-allow-origin', '*')
      return
    }
    if (access !== 'project') return
    addVary(reply, 'Origin')
    const { project, sdk } = await authorize(request, projects, sdkOptional !== true)
    request.project = project
    request.sdk = sdk
    if (origin !== undefined) reply.header('access-control-allow-origin', origin)
  })

  // Preflights reach this route, not the route they ask about, so they are classified by path.
  app.options('*', async (request, reply) => {
    const origin = request.headers.origin
    const method = request.headers['access-control-request-method']
    if (origin === undefined || typeof method !== 'string') {
      return reply.code(204).header('allow', 'GET, HEAD, POST, OPTIONS').send()
    }
    const path = request.url.split('?')[0] ?? '/'
    const requestedHeaders = request.headers['access-control-request-headers']
    addVary(reply, 'Origin')
    addVary(reply, 'Access-Control-Request-Headers')
    if (isPublicPath(path)) {
      reply
        .header('access-control-allow-origin', '*')
        // POST: EIP-3668 gateways are also asked by POST with a JSON body.
        .header('access-control-allow-methods', 'GET, HEAD, POST')
        .header('access-control-max-age', '86400')
    } else {
      await authorize(request, projects, false)
      reply
        .header('access-control-allow-origin', origin)
        .header('access-control-allow-methods', 'GET, HEAD, POST')
        .header('access-control-max-age', '600')
    }
    // The API uses no cookies or credentials, so any requested header may be sent.
    if (typeof requestedHeaders === 'string') reply.header('access-control-allow-headers', requestedHeaders)
    return reply.code(204).header('content-length', '0').send()
  })
}
