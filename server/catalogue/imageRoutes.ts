import type { FastifyInstance } from 'fastify'
import type { ImageKind } from '../../src/protocol/api/index.ts'
import { apiErrorBody, imageKinds, imageParams } from '../../src/protocol/api/index.ts'
import type { Db } from '../db/database.ts'
import { notFound } from '../errors.ts'
import { route } from '../http/route.ts'
import { getImage } from './images.ts'

/** Browsers and CDNs may keep images a day; the ETag lets them revalidate cheaply after that. */
const cacheControl = 'public, max-age=86400'

const summaries: Record<ImageKind, string> = {
  wallet: "A wallet's logo",
  asset: "A network's image",
  currency: "A currency's image",
  token: "A token's image",
}

/**
 * Whether an `If-None-Match` header matches an ETag (weak comparison, as RFC 9110 asks for it).
 *
 * @example
 * etagMatches('W/"abc", "def"', '"def"') // true
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false
  const wanted = etag.replace(/^W\//, '')
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag.replace(/^W\//, '') === wanted)
}

/**
 * The public image endpoints: wallet logos, network (asset), currency and token images, with cache
 * headers, a strong ETag and 304 answers to `If-None-Match`.
 *
 * @example
 * registerImageRoutes(app, database.db)
 */
export function registerImageRoutes(app: FastifyInstance, db: Db): void {
  for (const [kind, prefix] of Object.entries(imageKinds) as [ImageKind, string][]) {
    route(
      app,
      {
        method: 'GET',
        url: `${prefix}:id`,
        config: { access: 'public' },
        summary: summaries[kind],
        tags: ['images'],
        params: imageParams,
        responses: {
          200: { description: 'The image, cached a day, with a strong ETag.', type: 'image/*' },
          304: { description: 'The copy whose ETag was sent is current.' },
          404: { description: '`NOT_FOUND`: no image has this id.', schema: apiErrorBody },
        },
      },
      async (request, reply, input) => {
        const { id } = input.params()
        const image = await getImage(db, kind, id)
        if (!image) throw notFound(`No ${kind} image has id ${id}`)
        reply
          .header('cache-control', cacheControl)
          .header('etag', image.etag)
          .header('x-content-type-options', 'nosniff')
          .header('cross-origin-resource-policy', 'cross-origin')
        if (image.contentType === 'image/svg+xml') {
          // An SVG opened on its own must not run scripts on the service's origin.
          reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        }
        if (etagMatches(request.headers['if-none-match'], image.etag)) return reply.code(304).send()
        return reply.type(image.contentType).send(image.data)
      },
    )
  }
}
