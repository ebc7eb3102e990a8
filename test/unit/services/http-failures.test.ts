/**
 * The modal's HTTP client (src/services/http.ts) and the catalogue call (src/services/catalogue.ts)
 * against tiny local servers that answer the failure modes the service cannot be made to produce on
 * demand (the client against the service itself is in http.test.ts).
 */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { BaseError } from '../../../src/errors/index.ts'
import { getWalletsResponse } from '../../../src/protocol/api/index.ts'
import { HTTP_RETRY_STATUSES } from '../../../src/protocol/constants.ts'
import { getWallets } from '../../../src/services/catalogue.ts'
import { createHttpClient, queryBackoffMs } from '../../../src/services/http.ts'
import { freePort } from '../server/helpers.ts'
import { client, isError, json, localServer, okWallets } from './http-helpers.ts'

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
            app_store: 'javascript:alert(document.cookie)//',
            play_store: 'intent://details?id=evil#Intent;scheme=market;end',
          }),
          entry('local', {
            mobile_link: 'file:///etc/passwd',
            webapp_link: 'rainbow:',
            app_store: 'itms-apps://apps.apple.com/app/id1',
            play_store: 'http://play.google.com/store/apps/details?id=x',
          }),
          entry('good', {
            mobile_link: 'rainbow:',
            desktop_link: 'trust://',
            webapp_link: 'https://app.example',
            app_store: 'https://apps.apple.com/app/id1457119021',
            play_store: 'https://play.google.com/store/apps/details?id=me.rainbow',
          }),
        ],
      }),
    )
    try {
      const page = await getWallets(client({ baseUrl: server.url }).http, { page: 1, entries: 40 })
      assert.deepEqual(
        page.data.map((wallet) => [
          wallet.id,
          wallet.mobile_link,
          wallet.desktop_link,
          wallet.webapp_link,
          wallet.app_store,
          wallet.play_store,
        ]),
        [
          ['evil', null, null, null, null, null],
          ['local', null, null, null, null, null],
          [
            'good',
            'rainbow:',
            'trust://',
            'https://app.example',
            'https://apps.apple.com/app/id1457119021',
            'https://play.google.com/store/apps/details?id=me.rainbow',
          ],
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
