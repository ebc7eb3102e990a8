import type { FastifyInstance } from 'fastify'
import type {
  AnalyticsConfigResponse,
  GetWalletsResponse,
  OriginsResponse,
  ProjectConfigResponse,
} from '../../src/protocol/api/index.ts'
import { getWalletsQuery, type SocialProvider, socialProviders } from '../../src/protocol/api/index.ts'
import { projectOf } from '../http/access.ts'
import { parseInput } from '../http/validation.ts'
import type { CatalogueReader } from './catalogueCache.ts'

/**
 * The catalogue endpoints of SPEC section 7: project features, allowed origins, the wallet list and the
 * analytics switch. Each needs `projectId`, `st` and `sv` and an allowed `Origin`.
 *
 * @example
 * registerCatalogueRoutes(app, createCatalogueReader(database.db, { ttlMs: 5000 }))
 */
export function registerCatalogueRoutes(
  app: FastifyInstance,
  catalogue: CatalogueReader,
  options: { socials?: readonly SocialProvider[] } = {},
): void {
  const config = { access: 'project' } as const
  // The project's social providers that this service can sign in with (credentials and a frame).
  const served = new Set(options.socials ?? socialProviders)

  app.get('/appkit/v1/config', { config }, async (request): Promise<ProjectConfigResponse> => {
    const { features } = projectOf(request)
    return { features: { ...features, socials: features.socials.filter((provider) => served.has(provider)) } }
  })

  app.get('/projects/v1/origins', { config }, async (request): Promise<OriginsResponse> => {
    return { allowedOrigins: projectOf(request).origins }
  })

  app.get('/getAnalyticsConfig', { config }, async (request): Promise<AnalyticsConfigResponse> => {
    return { isAnalyticsEnabled: projectOf(request).analyticsEnabled }
  })

  app.get('/getWallets', { config }, async (request): Promise<GetWalletsResponse> => {
    const query = parseInput(getWalletsQuery, request.query, 'query')
    return catalogue.getWallets(query)
  })
}
