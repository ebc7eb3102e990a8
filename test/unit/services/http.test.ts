/**
 * The modal's HTTP client (src/services/http.ts) and the catalogue call (src/services/catalogue.ts)
 * over real HTTP on 127.0.0.1: against the companion service itself, and against tiny local servers
 * that answer the failure modes the service cannot be made to produce on demand.
 */
import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { startService } from '../../../server/main.ts'
import { createProject } from '../../../server/projects/store.ts'
import type { BaseError } from '../../../src/errors/index.ts'
import { analyticsConfigResponse, getWalletsResponse } from '../../../src/protocol/api/index.ts'
import { HTTP_RETRY_STATUSES } from '../../../src/protocol/constants.ts'
import { getWallets } from '../../../src/services/catalogue.ts'
import {
  createHttpClient,
  type HttpClientOptions,
  queryBackoffMs,
  SDK_TYPE,
  SDK_VERSION,
} from '../../../src/services/http.ts'
import { freePort, openTestDatabase, type TestDatabase, testLogger } from '../server/helpers.ts'

/** A fetch that records every URL it is asked for and can add headers (an `Origin`, as a page sends). */
function recordingFetch(headers: Record<string, string> = {}) {
  const urls: URL[] = []
  const fetcher: typeof fetch = (input, init) => {
    urls.push(new URL(String(input)))
    return fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } })
  }
  return { fetch: fetcher, urls }
}

/** A client whose waits are recorded, not slept. */
function client(options: Partial<HttpClientOptions> & { baseUrl: string }) {
  const delays: number[] = []
  const recorder = recordingFetch()
  const http = createHttpClient({
    projectId: 'dev-project',
    fetch: recorder.fetch,
    sleep: async (ms) => {
      delays.push(ms)
    },
    ...options,
  })
  return { http, delays, urls: recorder.urls }
}

type Handler = (request: IncomingMessage, response: ServerResponse, index: number) => void

/** A local server answering with `handler`; `hits` counts the requests it received. */
async function localServer(handler: Handler) {
  const seen: string[] = []
  const server = createServer((request, response) => {
    seen.push(request.url ?? '')
    handler(request, response, seen.length - 1)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

const json = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))

const okWallets = { data: [], count: 0 }

const isError = (name: string, shortMessage?: string) => (error: unknown) => {
  const base = error as BaseError
  assert.equal(base.name, name, `expected ${name}, got ${base.name}: ${base.message}`)
  if (shortMessage !== undefined) assert.equal(base.shortMessage, shortMessage)
  return true
}

let testDb: TestDatabase
let service: Awaited<ReturnType<typeof startService>>

before(async () => {
  testDb = await openTestDatabase('services_http')
  await createProject(testDb.database.db, {
    id: 'shop-only',
    name: 'Shop only',
    origins: ['https://shop.example.com'],
  })
  service = await startService({
    // The wallet frame on a free port: 8788 may be another stack's (suites run side by side).
    env: { FRAME_PORT: '0' },
    config: { ...testDb.config(), port: 0 },
    database: testDb.database,
    logger: testLogger,
  })
})

after(async () => {
  await service?.stop()
  await testDb?.close()
})

describe('createHttpClient against the service', () => {
  test('every request carries projectId, st and sv, and the service accepts them', async () => {
    const { http, urls } = client({ baseUrl: `${service.url}/` })
    assert.equal(http.baseUrl, service.url, 'a trailing slash is dropped')
    const answer = await http.getJson('/getAnalyticsConfig', {}, analyticsConfigResponse)
    assert.equal(typeof answer.isAnalyticsEnabled, 'boolean')
    await http.getJson('/getWallets', { page: 2, entries: 5, search: undefined }, getWalletsResponse)
    await http.postJson('/e', [
      {
        eventId: crypto.randomUUID(),
        url: 'http://127.0.0.1:5173/',
        domain: '127.0.0.1',
        timestamp: Date.now(),
        props: { type: 'track', event: 'MODAL_OPEN', properties: { view: 'Connect' } },
      },
    ])
    assert.equal(urls.length, 3)
    for (const url of urls) {
      assert.equal(url.searchParams.get('projectId'), 'dev-project')
      assert.equal(url.searchParams.get('st'), SDK_TYPE)
      assert.equal(url.searchParams.get('sv'), SDK_VERSION)
    }
    assert.equal(urls[1]?.searchParams.get('page'), '2')
    assert.equal(urls[1]?.searchParams.get('entries'), '5')
    assert.equal(urls[1]?.searchParams.has('search'), false, 'undefined values are left out')
  })

  test('url() builds image and RPC proxy URLs with the project parameters', async () => {
    const { http } = client({ baseUrl: service.url })
    const { data } = await getWallets(http, { page: 1, entries: 1 })
    const entry = data[0]
    assert.ok(entry)
    const image = await fetch(http.url(`/getWalletImage/${encodeURIComponent(entry.image_id)}`))
    assert.equal(image.status, 200)
    assert.match(image.headers.get('content-type') ?? '', /^image\//)
    const rpc = new URL(http.url('/v1/', { chainId: 'eip155:31337' }))
    assert.equal(rpc.pathname, '/v1/')
    assert.equal(rpc.searchParams.get('chainId'), 'eip155:31337')
    assert.equal(rpc.searchParams.get('projectId'), 'dev-project')
  })

  test('an unknown project is `Invalid Project ID`, at once (401 is not retried)', async () => {
    const { http, urls, delays } = client({ baseUrl: service.url, projectId: 'no-such-project' })
    await assert.rejects(
      http.getJson('/getWallets', {}, getWalletsResponse),
      isError('InvalidProjectIdError', 'Invalid Project ID'),
    )
    assert.equal(urls.length, 1)
    assert.deepEqual(delays, [])
  })

  test('a missing project id is `Project ID Not Configured`', async () => {
    const { http, urls } = client({ baseUrl: service.url, projectId: undefined })
    assert.equal(new URL(http.url('/getWallets')).searchParams.has('projectId'), false)
    await assert.rejects(
      http.getJson('/getWallets', {}, getWalletsResponse),
      isError('ProjectIdNotConfiguredError', 'Project ID Not Configured'),
    )
    assert.equal(urls.length, 1)
  })

  test('an origin not on the allow-list is `Invalid App Configuration` after 3 retries', async () => {
    const delays: number[] = []
    const recorder = recordingFetch({ origin: 'https://evil.example.com' })
    const http = createHttpClient({
      baseUrl: service.url,
      projectId: 'shop-only',
      fetch: recorder.fetch,
      sleep: async (ms) => {
        delays.push(ms)
      },
    })
    await assert.rejects(
      http.getJson('/getWallets', {}, getWalletsResponse),
      isError('InvalidAppConfigurationError', 'Invalid App Configuration'),
    )
    assert.equal(recorder.urls.length, 4)
    assert.deepEqual(delays, [150, 300, 600])

    // The same project from its own origin is served.
    const allowed = recordingFetch({ origin: 'https://shop.example.com' })
    const ok = createHttpClient({ baseUrl: service.url, projectId: 'shop-only', fetch: allowed.fetch })
    const page = await getWallets(ok, { page: 1, entries: 2 })
    assert.equal(page.data.length, 2)
  })

  test('a bad parameter (400) is not retried and carries the service message', async () => {
    const { http, urls, delays } = client({ baseUrl: service.url })
    await assert.rejects(http.getJson('/getWallets', { entries: 1000 }, getWalletsResponse), (error) => {
      const base = error as BaseError
      assert.equal(base.name, 'UnknownError')
      assert.match(base.shortMessage, /entries/i)
      return true
    })
    assert.equal(urls.length, 1)
    assert.deepEqual(delays, [])
  })
})

describe('getWallets from another catalogue service', () => {
  test('error: links with a scheme the modal must not open arrive as null; the wallet stays', async () => {
    const entry = (id: string, links: Record<string, string | null>) => ({
      id,
      name: id,
      image_id: id,
      chains: ['eip155:1'],
      mobile_link: null,
      desktop_link: null,
      webapp_link: null,
      rdns: null,
      ...links,
    })
    const server = await localServer((_request, response) =>
      json(response, 200, {
        count: 3,
        data: [
          entry('evil', {
            mobile_link: 'javascript:alert(document.cookie)//',
            desktop_link: 'data:text/html,<script>alert(1)</script>',
            webapp_link: 'vbscript:msgbox(1)',
          }),
          entry('local', { mobile_link: 'file:///etc/passwd', webapp_link: 'rainbow:' }),
          entry('good', {
            mobile_link: 'rainbow:',
            desktop_link: 'trust://',
            webapp_link: 'https://app.example',
          }),
        ],
      }),
    )
    try {
      const page = await getWallets(client({ baseUrl: server.url }).http, { page: 1, entries: 40 })
      assert.deepEqual(
        page.data.map((wallet) => [wallet.id, wallet.mobile_link, wallet.desktop_link, wallet.webapp_link]),
        [
          ['evil', null, null, null],
          ['local', null, null, null],
          ['good', 'rainbow:', 'trust://', 'https://app.example'],
        ],
      )
    } finally {
      await server.close()
    }
  })
})

describe('createHttpClient failure modes', () => {
  test('503 three times, then success: 4 requests, waits of 150, 300 and 600 ms', async () => {
    const server = await localServer((_request, response, index) =>
      index < 3
        ? json(response, 503, { error: { code: 'SERVICE_UNAVAILABLE', message: 'busy' } })
        : json(response, 200, okWallets),
    )
    try {
      const { http, delays } = client({ baseUrl: server.url })
      assert.deepEqual(await http.getJson('/getWallets', {}, getWalletsResponse), okWallets)
      assert.equal(server.seen.length, 4)
      assert.deepEqual(delays, [150, 300, 600])
    } finally {
      await server.close()
    }
  })

  test('one 503 then success: one wait of 150 ms', async () => {
    const server = await localServer((_request, response, index) =>
      index === 0 ? response.writeHead(503).end() : json(response, 200, okWallets),
    )
    try {
      const { http, delays } = client({ baseUrl: server.url })
      await http.getJson('/getWallets', {}, getWalletsResponse)
      assert.equal(server.seen.length, 2)
      assert.deepEqual(delays, [150])
    } finally {
      await server.close()
    }
  })

  test('the real waits: 150 + 300 + 600 ms without an injected sleep', async () => {
    const server = await localServer((_request, response) => response.writeHead(502).end())
    try {
      const http = createHttpClient({ baseUrl: server.url, projectId: 'p', fetch })
      const started = performance.now()
      await assert.rejects(http.getJson('/x', {}, getWalletsResponse), isError('UnknownError'))
      const elapsed = performance.now() - started
      assert.equal(server.seen.length, 4)
      assert.ok(elapsed >= 1_000 && elapsed < 3_000, `took ${elapsed.toFixed(0)} ms`)
    } finally {
      await server.close()
    }
  })

  test('every status of the retry list is retried 3 times; others are not', async () => {
    for (const status of [...HTTP_RETRY_STATUSES, 400, 401, 404, 409, 422, 501]) {
      const server = await localServer((_request, response) => json(response, status, { nope: true }))
      try {
        const { http, delays } = client({ baseUrl: server.url })
        await assert.rejects(http.getJson('/getWallets', {}, getWalletsResponse))
        const retried = HTTP_RETRY_STATUSES.includes(status)
        assert.equal(server.seen.length, retried ? 4 : 1, `status ${status}`)
        assert.deepEqual(delays, retried ? [150, 300, 600] : [], `status ${status}`)
      } finally {
        await server.close()
      }
    }
  })

  test('400 and 404 fail at once with the service message', async () => {
    for (const [status, code] of [
      [400, 'BAD_REQUEST'],
      [404, 'NOT_FOUND'],
    ] as const) {
      const server = await localServer((_request, response) =>
        json(response, status, { error: { code, message: `${code} here`, field: 'page' } }),
      )
      try {
        const { http, delays } = client({ baseUrl: server.url })
        await assert.rejects(http.getJson('/getWallets', {}, getWalletsResponse), (error) => {
          assert.equal((error as BaseError).name, 'UnknownError')
          assert.equal((error as BaseError).shortMessage, `${code} here`)
          return true
        })
        assert.equal(server.seen.length, 1)
        assert.deepEqual(delays, [])
      } finally {
        await server.close()
      }
    }
  })

  test('403 INVALID_APP_CONFIGURATION, and a bare 403, map to `Invalid App Configuration` after retries', async () => {
    for (const body of [{ error: { code: 'INVALID_APP_CONFIGURATION', message: 'x' } }, 'Forbidden']) {
      const server = await localServer((_request, response) =>
        typeof body === 'string' ? response.writeHead(403).end(body) : json(response, 403, body),
      )
      try {
        const { http, delays } = client({ baseUrl: server.url })
        await assert.rejects(
          http.getJson('/getWallets', {}, getWalletsResponse),
          isError('InvalidAppConfigurationError', 'Invalid App Configuration'),
        )
        assert.equal(server.seen.length, 4)
        assert.deepEqual(delays, [150, 300, 600])
      } finally {
        await server.close()
      }
    }
  })

  test('error codes in the body map to the catalogue errors', async () => {
    for (const [code, name] of [
      ['INVALID_PROJECT_ID', 'InvalidProjectIdError'],
      ['PROJECT_ID_NOT_CONFIGURED', 'ProjectIdNotConfiguredError'],
    ] as const) {
      const server = await localServer((_request, response) =>
        json(response, 400, { error: { code, message: 'm' } }),
      )
      try {
        const { http } = client({ baseUrl: server.url })
        await assert.rejects(http.getJson('/getWallets', {}, getWalletsResponse), isError(name))
      } finally {
        await server.close()
      }
    }
  })

  test('a malformed JSON body, or JSON of the wrong shape, is an InvalidResponseError', async () => {
    for (const body of ['{"data": [', '<html>oops</html>', JSON.stringify({ data: 'nope', count: -1 })]) {
      const server = await localServer((_request, response) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(body),
      )
      try {
        const { http, delays } = client({ baseUrl: server.url })
        await assert.rejects(
          http.getJson('/getWallets', {}, getWalletsResponse),
          isError('InvalidResponseError'),
        )
        assert.equal(server.seen.length, 1, 'a 200 is not retried')
        assert.deepEqual(delays, [])
      } finally {
        await server.close()
      }
    }
  })

  test('connection refused: 4 attempts, then an error naming the service', async () => {
    const port = await freePort()
    const { http, urls, delays } = client({ baseUrl: `http://127.0.0.1:${port}` })
    await assert.rejects(http.getJson('/getWallets', {}, getWalletsResponse), (error) => {
      const base = error as BaseError
      assert.equal(base.name, 'UnknownError')
      assert.match(base.shortMessage, new RegExp(`127\\.0\\.0\\.1:${port} could not be reached`))
      return true
    })
    assert.equal(urls.length, 4)
    assert.deepEqual(delays, [150, 300, 600])
  })

  test('a connection reset mid-answer is retried like a network error', async () => {
    const server = await localServer((request, response, index) => {
      if (index === 0) request.socket.destroy()
      else json(response, 200, okWallets)
    })
    try {
      const { http, delays } = client({ baseUrl: server.url })
      assert.deepEqual(await http.getJson('/getWallets', {}, getWalletsResponse), okWallets)
      assert.equal(server.seen.length, 2)
      assert.deepEqual(delays, [150])
    } finally {
      await server.close()
    }
  })

  test('postJson sends text/plain JSON (no preflight) and resolves on 204', async () => {
    let received: { type: string | undefined; body: string; method: string | undefined } | undefined
    const server = await localServer((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8')
      })
      request.on('end', () => {
        received = { type: request.headers['content-type'], body, method: request.method }
        response.writeHead(204).end()
      })
    })
    try {
      const { http } = client({ baseUrl: server.url })
      await http.postJson('/e', [{ a: 1 }])
      assert.equal(received?.method, 'POST')
      assert.match(received?.type ?? '', /^text\/plain/)
      assert.deepEqual(JSON.parse(received?.body ?? ''), [{ a: 1 }])
      assert.match(server.seen[0] ?? '', /^\/e\?projectId=dev-project&st=/)
    } finally {
      await server.close()
    }
  })
})

describe('queryBackoffMs', () => {
  test('starts at 1 s, doubles, and stops at 30 s', () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6, 20].map(queryBackoffMs),
      [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000],
    )
  })
})

describe('getWallets through the client', () => {
  const http = () => client({ baseUrl: service.url }).http

  test('pages of 40 follow each other without overlap, with the catalogue count', async () => {
    const first = await getWallets(http(), { page: 1, entries: 40 })
    const second = await getWallets(http(), { page: 2, entries: 40 })
    assert.equal(first.data.length, 40)
    assert.ok(first.count > 100, `count ${first.count}`)
    assert.equal(second.count, first.count)
    const ids = new Set(first.data.map((entry) => entry.id))
    assert.ok(second.data.every((entry) => !ids.has(entry.id)))
    const lastPage = Math.ceil(first.count / 40)
    const last = await getWallets(http(), { page: lastPage, entries: 40 })
    assert.equal(last.data.length, first.count - (lastPage - 1) * 40)
    const past = await getWallets(http(), { page: lastPage + 1, entries: 40 })
    assert.deepEqual(past, { data: [], count: first.count })
  })

  test('search finds Rainbow, case-insensitively, and an empty search is not sent', async () => {
    const found = await getWallets(http(), { page: 1, entries: 100, search: 'RAIN' })
    assert.ok(found.data.some((entry) => entry.name === 'Rainbow'))
    assert.ok(found.data.every((entry) => /rain/i.test(entry.name)))
    assert.equal(found.count, found.data.length)
    const none = await getWallets(http(), { page: 1, entries: 100, search: 'zzzz-no-such-wallet' })
    assert.deepEqual(none, { data: [], count: 0 })
    const { http: recorded, urls } = client({ baseUrl: service.url })
    await getWallets(recorded, { page: 1, entries: 1, search: '', include: [], exclude: [] })
    assert.deepEqual([...(urls[0]?.searchParams.keys() ?? [])].sort(), [
      'entries',
      'page',
      'projectId',
      'st',
      'sv',
    ])
  })

  test('include keeps only the listed wallets; exclude drops them', async () => {
    const first = await getWallets(http(), { page: 1, entries: 5 })
    const [a, b, c] = first.data
    assert.ok(a && b && c)
    const included = await getWallets(http(), { page: 1, entries: 40, include: [c.id, a.id] })
    assert.deepEqual(included.data.map((entry) => entry.id).sort(), [a.id, c.id].sort())
    assert.equal(included.count, 2)

    const excluded = await getWallets(http(), { page: 1, entries: 5, exclude: [a.id, b.id] })
    assert.equal(excluded.count, first.count - 2)
    assert.ok(excluded.data.every((entry) => entry.id !== a.id && entry.id !== b.id))
    assert.equal(excluded.data[0]?.id, c.id)

    const both = await getWallets(http(), { page: 1, entries: 40, include: [a.id, b.id], exclude: [b.id] })
    assert.deepEqual(
      both.data.map((entry) => entry.id),
      [a.id],
    )
  })
})
