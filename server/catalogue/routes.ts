import type { FastifyInstance } from 'fastify'
import type {
  AnalyticsConfigResponse,
  GetWalletsResponse,
  OriginsResponse,
  ProjectConfigResponse,
} from '../../src/protocol/api/index.ts'
import {
  analyticsConfigResponse,
  getWalletsQuery,
  getWalletsResponse,
  originsResponse,
  projectConfigResponse,
  type SocialProvider,
  socialProviders,
} from '../../src/protocol/api/index.ts'
import { projectOf } from '../http/access.ts'
import { routes } from '../http/route.ts'
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
  const route = routes(app, { tags: ['catalogue'], config: { access: 'project' } })
  // The project's social providers that this service can sign in with (credentials and a frame).
  const served = new Set(options.socials ?? socialProviders)

  route(
    {
      method: 'GET',
      url: '/appkit/v1/config',
      summary: 'What the service allows the project to use',
      description:
        'The modal turns a feature on only when the page asked for it and the service allows it. ' +
        '`socials` lists the providers the service has credentials for.',
      responses: { 200: { description: "The project's features.", schema: projectConfigResponse } },
    },
    async (request): Promise<ProjectConfigResponse> => {
      const { features } = projectOf(request)
      return {
        features: { ...features, socials: features.socials.filter((provider) => served.has(provider)) },
      }
    },
  )

  route(
    {
      method: 'GET',
      url: '/projects/v1/origins',
      summary: "The project's allowed origins",
      responses: { 200: { description: 'The allow-list, `*` patterns included.', schema: originsResponse } },
    },
    async (request): Promise<OriginsResponse> => ({ allowedOrigins: projectOf(request).origins }),
  )

  route(
    {
      method: 'GET',
      url: '/getAnalyticsConfig',
      summary: 'Whether the project keeps analytics events',
      responses: { 200: { description: 'The analytics switch.', schema: analyticsConfigResponse } },
    },
    async (request): Promise<AnalyticsConfigResponse> => ({
      isAnalyticsEnabled: projectOf(request).analyticsEnabled,
    }),
  )

  route(
    {
      method: 'GET',
      url: '/getWallets',
      summary: 'One page of the wallet catalogue',
      description:
        '`include`, `exclude` and `chains` are comma-separated; `search` matches names without regard to case.',
      query: getWalletsQuery,
      responses: {
        200: { description: 'The page and the number of matching wallets.', schema: getWalletsResponse },
      },
    },
    async (_request, _reply, input): Promise<GetWalletsResponse> => catalogue.getWallets(input.query()),
  )
}
