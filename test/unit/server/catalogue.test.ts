// Project endpoints, the origin allow-list, CORS, catalogue links, and the routes over real HTTP.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.ts'
import { wallets as walletsTable } from '../../../server/db/schema.ts'
import { type RegistryWallet, seedLinks } from '../../../server/db/seed.ts'
import {
  analyticsConfigResponse,
  getWalletsResponse,
  isSafeWalletLink,
  originsResponse,
  projectConfigResponse,
} from '../../../src/protocol/api/index.ts'
import { app, errorOf, get, metamask, rainbow, startCatalogueService, testDb } from './catalogue-helpers.ts'
import { rawRequest, sdk, testLogger } from './helpers.ts'

startCatalogueService()

describe('project endpoints', () => {
  test('default: /appkit/v1/config returns the features object', async () => {
    const response = await get(`/appkit/v1/config?${sdk()}`)
    assert.equal(response.statusCode, 200)
    const { features } = projectConfigResponse.parse(response.json())
    assert.equal(features.email, true)
    // No social credentials on this service: it offers none of the project's six.
    assert.deepEqual(features.socials, [])
  })

  test('/appkit/v1/config offers the social providers the service has credentials for, in the SPEC order', async () => {
    const base = testDb.config({
      devOrigins: ['http://localhost:5173', 'https://*.example.com', 'http://127.0.0.1:*'],
    })
    const social = {
      ...base.embedded.social,
      credentials: {
        github: { clientId: 'gh', clientSecret: 'gh-secret' },
        google: { clientId: 'g', clientSecret: 'g-secret' },
      },
    }
    const withSocial = await buildApp(
      { ...base, embedded: { ...base.embedded, social } },
      { database: testDb.database, logger: testLogger },
    )
    try {
      const response = await withSocial.inject({
        method: 'GET',
        url: `/appkit/v1/config?${sdk()}`,
        headers: { origin: 'http://127.0.0.1:5173' },
      })
      assert.equal(response.statusCode, 200, response.body)
      assert.deepEqual(projectConfigResponse.parse(response.json()).features.socials, ['google', 'github'])
    } finally {
      await withSocial.close()
    }
  })

  test('default: /projects/v1/origins returns the allow-list', async () => {
    const response = await get(`/projects/v1/origins?${sdk()}`)
    assert.equal(response.statusCode, 200)
    assert.deepEqual(originsResponse.parse(response.json()).allowedOrigins, [
      'http://127.0.0.1:*',
      'http://localhost:5173',
      'https://*.example.com',
    ])
  })

  test('behavior: /getAnalyticsConfig is per project, on for the dev project', async () => {
    const on = await get(`/getAnalyticsConfig?${sdk()}`)
    assert.deepEqual(analyticsConfigResponse.parse(on.json()), { isAnalyticsEnabled: true })
    const off = await get(`/getAnalyticsConfig?${sdk('quiet')}`)
    assert.deepEqual(analyticsConfigResponse.parse(off.json()), { isAnalyticsEnabled: false })
  })

  test('error: a missing projectId answers 400 Project ID Not Configured', async () => {
    const response = await get('/getWallets?st=wallet-elements&sv=0.1.0')
    assert.equal(response.statusCode, 400)
    assert.deepEqual(errorOf(response.body), {
      code: 'PROJECT_ID_NOT_CONFIGURED',
      message: 'Project ID Not Configured',
      field: 'projectId',
    })
    const empty = await get('/appkit/v1/config?projectId=&st=a&sv=1')
    assert.equal(errorOf(empty.body).message, 'Project ID Not Configured')
  })

  test('error: an unknown projectId answers 401 Invalid Project ID', async () => {
    for (const id of ['nobody', 'bad%20id']) {
      const response = await get(`/getWallets?projectId=${id}&st=a&sv=1`)
      assert.equal(response.statusCode, 401)
      assert.equal(errorOf(response.body).message, 'Invalid Project ID')
      assert.equal(errorOf(response.body).code, 'INVALID_PROJECT_ID')
    }
  })

  test('error: st and sv are required and named when missing or bad', async () => {
    const noSt = await get('/getWallets?projectId=dev-project&sv=1')
    assert.equal(noSt.statusCode, 400)
    assert.equal(errorOf(noSt.body).field, 'st')
    assert.match(errorOf(noSt.body).message, /Missing query parameter st/)
    const badSv = await get('/getWallets?projectId=dev-project&st=a&sv=has%20space')
    assert.equal(badSv.statusCode, 400)
    assert.equal(errorOf(badSv.body).field, 'sv')
  })

  test('error: an unknown route answers 404 in the error shape', async () => {
    const response = await get('/nothing-here')
    assert.equal(response.statusCode, 404)
    assert.equal(errorOf(response.body).code, 'NOT_FOUND')
  })
})

describe('origin allow-list', () => {
  const allowed = [
    'http://localhost:5173',
    'https://app.example.com',
    'http://127.0.0.1:4173',
    'http://127.0.0.1',
  ]
  const refused = [
    'http://localhost:5174',
    'https://localhost:5173',
    'https://example.com',
    'https://a.b.example.com',
    'http://app.example.com',
    'https://app.example.com.evil.test',
    'https://appexample.com',
    'https://app.example.com:8443',
    'null',
  ]

  for (const origin of allowed) {
    test(`behavior: ${origin} is allowed and reflected`, async () => {
      const response = await get(`/getAnalyticsConfig?${sdk()}`, { origin })
      assert.equal(response.statusCode, 200, response.body)
      assert.equal(response.headers['access-control-allow-origin'], origin)
      assert.match(String(response.headers.vary), /Origin/)
    })
  }

  for (const origin of refused) {
    test(`error: ${origin} answers 403 Invalid App Configuration`, async () => {
      const response = await get(`/getWallets?${sdk()}`, { origin })
      assert.equal(response.statusCode, 403)
      assert.deepEqual(errorOf(response.body), {
        code: 'INVALID_APP_CONFIGURATION',
        message: 'Invalid App Configuration',
      })
      assert.equal(response.body.includes('MetaMask'), false)
    })
  }

  test('behavior: requests without Origin (server to server) are allowed', async () => {
    const response = await get(`/projects/v1/origins?${sdk()}`)
    assert.equal(response.statusCode, 200)
    assert.equal(response.headers['access-control-allow-origin'], undefined)
  })

  test('behavior: each project has its own list', async () => {
    const response = await get(`/getAnalyticsConfig?${sdk('quiet')}`, { origin: 'http://localhost:5173' })
    assert.equal(response.statusCode, 403)
    const own = await get(`/getAnalyticsConfig?${sdk('quiet')}`, { origin: 'https://quiet.example.org' })
    assert.equal(own.statusCode, 200)
  })
})

describe('CORS preflight', () => {
  const preflight = (url: string, origin: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin, 'access-control-request-method': 'POST', ...headers },
    })

  test('behavior: an allowed origin gets 204 with the methods and its headers', async () => {
    const response = await preflight(`/e?${sdk()}`, 'https://shop.example.com', {
      'access-control-request-headers': 'content-type',
    })
    assert.equal(response.statusCode, 204)
    assert.equal(response.headers['access-control-allow-origin'], 'https://shop.example.com')
    assert.equal(response.headers['access-control-allow-methods'], 'GET, HEAD, POST')
    assert.equal(response.headers['access-control-allow-headers'], 'content-type')
    assert.equal(response.headers['access-control-max-age'], '600')
  })

  test('error: a refused origin gets 403 and no CORS grant', async () => {
    const response = await preflight(`/v1/?chainId=eip155:31337&projectId=dev-project`, 'https://evil.test')
    assert.equal(response.statusCode, 403)
    assert.equal(response.headers['access-control-allow-methods'], undefined)
  })

  test('error: an unknown project gets 401', async () => {
    const response = await preflight('/getWallets?projectId=nobody', 'http://localhost:5173')
    assert.equal(response.statusCode, 401)
  })

  test('behavior: public image routes allow any origin', async () => {
    const response = await preflight(`/getWalletImage/${metamask}`, 'https://anywhere.test')
    assert.equal(response.statusCode, 204)
    assert.equal(response.headers['access-control-allow-origin'], '*')
  })
})

describe('catalogue links', () => {
  test('error: the seed keeps only https links and wallet schemes, falling back to the universal link', () => {
    const entry = (mobile: string, universal: string, browser: string): RegistryWallet => ({
      id: 'x',
      name: 'X',
      homepage: '',
      chains: [],
      app: { browser, ios: 'javascript:alert(document.cookie)//', android: 'http://play.x.example/app' },
      mobile: { native: mobile, universal },
      desktop: { native: 'vbscript:msgbox(1)', universal: 'file:///c:/wallet.exe' },
    })
    assert.deepEqual(seedLinks(entry('javascript:alert(1)', 'https://x.example/app', 'data:text/html,x')), {
      links: {
        mobileLink: 'https://x.example/app',
        desktopLink: null,
        webappLink: null,
        appStore: null,
        playStore: null,
      },
      dropped: [
        'mobile_link javascript:alert(1)',
        'desktop_link vbscript:msgbox(1)',
        'desktop_link file:///c:/wallet.exe',
        'webapp_link data:text/html,x',
        'app_store javascript:alert(document.cookie)//',
        'play_store http://play.x.example/app',
      ],
    })
    assert.deepEqual(seedLinks(entry('rainbow:', '', 'https://app.x.example')).links.mobileLink, 'rainbow:')
  })

  test('behavior: every link of the seeded catalogue is one the modal may open', async () => {
    const rows = await testDb.database.db.select().from(walletsTable)
    assert.ok(rows.length > 100)
    for (const row of rows) {
      for (const [kind, link] of [
        ['mobile_link', row.mobileLink],
        ['desktop_link', row.desktopLink],
        ['webapp_link', row.webappLink],
        ['app_store', row.appStore],
        ['play_store', row.playStore],
      ] as const) {
        if (link !== null) assert.ok(isSafeWalletLink(kind, link), `${row.name} ${kind} ${link}`)
      }
    }
    const oneInch = rows.find((row) => row.name === '1inch Wallet')
    assert.ok(oneInch, 'a wallet whose native link is not a URL keeps its universal one')
    assert.match(oneInch.mobileLink ?? '', /^https:\/\//)
    // The registry's store pages (`app.ios`, `app.android`) are seeded for a phone without the app.
    const trust = rows.find((row) => row.name === 'Trust Wallet')
    assert.equal(trust?.appStore, 'https://apps.apple.com/app/apple-store/id1288339409')
    assert.equal(trust?.playStore, 'https://play.google.com/store/apps/details?id=com.wallet.crypto.trustapp')
    assert.ok(rows.filter((row) => row.appStore !== null).length > 80)
  })
})

describe('over real HTTP on 127.0.0.1', () => {
  let url = ''
  let server: FastifyInstance

  before(async () => {
    server = await buildApp(testDb.config(), { database: testDb.database, logger: testLogger })
    url = await server.listen({ host: '127.0.0.1', port: 0 })
  })
  after(async () => {
    await server?.close()
  })

  test('default: the catalogue, CORS, preflight and images', async () => {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/)
    const list = await rawRequest(`${url}/getWallets?${sdk()}&entries=5`, {
      headers: { origin: 'http://localhost:5173' },
    })
    assert.equal(list.status, 200)
    assert.equal(list.headers['access-control-allow-origin'], 'http://localhost:5173')
    const body = getWalletsResponse.parse(JSON.parse(list.text))
    assert.equal(body.data.length, 5)

    const refused = await rawRequest(`${url}/getWallets?${sdk()}`, {
      headers: { origin: 'https://evil.test' },
    })
    assert.equal(refused.status, 403)
    assert.equal(errorOf(refused.text).message, 'Invalid App Configuration')

    const preflight = await rawRequest(`${url}/e?${sdk()}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    assert.equal(preflight.status, 204)
    assert.equal(preflight.headers['access-control-allow-origin'], 'http://localhost:5173')

    const image = await rawRequest(`${url}/getWalletImage/${rainbow}`)
    assert.equal(image.status, 200)
    assert.equal(image.headers['content-type'], 'image/jpeg')
    const cached = await rawRequest(`${url}/getWalletImage/${rainbow}`, {
      headers: { 'if-none-match': String(image.headers.etag) },
    })
    assert.equal(cached.status, 304)

    const health = await fetch(`${url}/healthz`)
    assert.deepEqual(await health.json(), { status: 'ok', database: 'ok' })
  })
})
