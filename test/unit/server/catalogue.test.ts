import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.ts'
import { addWallet } from '../../../server/catalogue/customWallets.ts'
import { wallets as walletsTable } from '../../../server/db/schema.ts'
import { demoWallet, type RegistryWallet, seedLinks } from '../../../server/db/seed.ts'
import { createProject } from '../../../server/projects/store.ts'
import {
  analyticsConfigResponse,
  apiErrorBody,
  getWalletsResponse,
  isSafeWalletLink,
  originsResponse,
  projectConfigResponse,
} from '../../../src/protocol/api/index.ts'
import { openTestDatabase, rawRequest, sdk, type TestDatabase, testLogger } from './helpers.ts'

const metamask = 'c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96'
const rainbow = '1ae92b26df02f0abca6304df07debccd18262fdf5fe82daa81593582dac9a369'
const rabby = 'fbc8d86ad914ebd733fec4812b4b7af5ca709fdd9e75a930115e5baa02c4ef4c'
const minerva = 'dea4ab675289353a508956c4f821bc4e9141d9f99a5d244ae7af92b4d575db6d'
const seededCount = 114

let testDb: TestDatabase
let app: FastifyInstance

before(async () => {
  testDb = await openTestDatabase('catalogue')
  app = await buildApp(
    testDb.config({ devOrigins: ['http://localhost:5173', 'https://*.example.com', 'http://127.0.0.1:*'] }),
    { database: testDb.database, logger: testLogger },
  )
  await createProject(testDb.database.db, {
    id: 'quiet',
    name: 'Analytics off',
    origins: ['https://quiet.example.org'],
    analyticsEnabled: false,
  })
})

after(async () => {
  await app?.close()
  await testDb?.close()
})

async function get(url: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url, headers })
}

function errorOf(body: string) {
  return apiErrorBody.parse(JSON.parse(body)).error
}

async function wallets(query: string) {
  const response = await get(`/getWallets?${sdk()}&${query}`)
  assert.equal(response.statusCode, 200, response.body)
  return getWalletsResponse.parse(response.json())
}

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

describe('/getWallets', () => {
  test('default: first page of 40 and the total count', async () => {
    const { data, count } = await wallets('')
    assert.equal(count, seededCount)
    assert.equal(data.length, 40)
    assert.equal(data[0]?.name, 'Rainbow')
  })

  test('default: entries follow the catalogue entry of SPEC section 3', async () => {
    const { data } = await wallets(`include=${metamask},${rabby}`)
    const metamaskEntry = data.find((entry) => entry.id === metamask)
    assert.deepEqual(metamaskEntry, {
      id: metamask,
      name: 'MetaMask',
      image_id: metamask,
      chains: ['eip155:1'],
      mobile_link: 'metamask:',
      desktop_link: null,
      webapp_link: null,
      rdns: 'io.metamask',
      badge_type: 'none',
    })
    const rabbyEntry = data.find((entry) => entry.id === rabby)
    assert.equal(rabbyEntry?.rdns, 'io.rabby')
    assert.match(rabbyEntry?.webapp_link ?? '', /^https:\/\/chrome\.google\.com/)
  })

  test('behavior: the demo wallet is in the catalogue with its rdns', async () => {
    const { data } = await wallets('search=demo')
    assert.deepEqual(
      data.map((entry) => [entry.id, entry.rdns]),
      [[demoWallet.id, 'dev.wallet-elements.demo']],
    )
  })

  test('behavior: pages are 1-based, contiguous and deterministic', async () => {
    const first = await wallets('page=1&entries=10')
    const second = await wallets('page=2&entries=10')
    const both = await wallets('page=1&entries=20')
    assert.deepEqual([...first.data, ...second.data], both.data)
    assert.deepEqual(await wallets('page=2&entries=10'), second)
    const last = await wallets('page=12&entries=10')
    assert.equal(last.data.length, seededCount - 110)
    const beyond = await wallets('page=13&entries=10')
    assert.deepEqual(beyond, { data: [], count: seededCount })
    const max = await wallets('entries=100')
    assert.equal(max.data.length, 100)
  })

  test('behavior: search matches names without regard to case, prefixes first', async () => {
    const { data, count } = await wallets('search=METAmask')
    assert.equal(count, 1)
    assert.equal(data[0]?.id, metamask)
    const wallet = await wallets('search=wallet&entries=100')
    assert.ok(wallet.count > 10)
    assert.ok(wallet.data.every((entry) => /wallet/i.test(entry.name)))
    const prefixed = wallet.data.findIndex((entry) => !/^wallet/i.test(entry.name))
    assert.ok(wallet.data.slice(prefixed).every((entry) => !/^wallet/i.test(entry.name)))
    assert.equal((await wallets('search=%25')).count, 0, 'a % is matched literally')
    assert.equal((await wallets('search=%20%20')).count, seededCount, 'blank search does not filter')
  })

  test('behavior: include keeps only the listed ids, exclude drops them', async () => {
    const included = await wallets(`include=${metamask},${rainbow}`)
    assert.equal(included.count, 2)
    assert.deepEqual(new Set(included.data.map((entry) => entry.id)), new Set([metamask, rainbow]))
    const excluded = await wallets(`exclude=${metamask},${rainbow}&entries=100&page=1`)
    assert.equal(excluded.count, seededCount - 2)
    assert.ok(excluded.data.every((entry) => entry.id !== metamask && entry.id !== rainbow))
    const both = await wallets(`include=${metamask},${rainbow}&exclude=${rainbow}`)
    assert.deepEqual(
      both.data.map((entry) => entry.id),
      [metamask],
    )
  })

  test('behavior: chains keeps wallets that support any of the networks', async () => {
    const bsc = await wallets('chains=eip155:56&entries=100')
    assert.equal(bsc.count, 13)
    assert.ok(bsc.data.every((entry) => entry.chains.includes('eip155:56')))
    const polygon = await wallets('chains=eip155:137&entries=100')
    const either = await wallets('chains=eip155:56,eip155:137&entries=100')
    const union = new Set([...bsc.data, ...polygon.data].map((entry) => entry.id))
    assert.equal(either.count, union.size)
    assert.equal((await wallets('chains=cosmos:cosmoshub-4')).count, 1)
    const local = await wallets('chains=eip155:31337')
    assert.deepEqual(
      local.data.map((entry) => entry.id),
      [demoWallet.id],
    )
  })

  test('behavior: badge_type=certified keeps certified wallets; none does not filter', async () => {
    assert.equal((await wallets('badge_type=certified')).count, 0)
    assert.equal((await wallets('badge_type=none')).count, seededCount)
    const added = await addWallet(testDb.database.db, {
      name: 'Certified Test Wallet',
      badgeType: 'certified',
    })
    const certified = await wallets('badge_type=certified')
    assert.deepEqual(
      certified.data.map((entry) => entry.id),
      [added.id],
    )
    const all = await wallets('entries=100&page=2')
    assert.equal(all.count, seededCount + 1)
    assert.equal(all.data.at(-1)?.id, added.id, 'new wallets go last')
  })

  const badParameters: [string, string, RegExp][] = [
    ['page=0', 'page', /at least 1/],
    ['page=abc', 'page', /whole number/],
    ['page=1.5', 'page', /whole number/],
    ['entries=101', 'entries', /at most 100/],
    ['entries=0', 'entries', /at least 1/],
    ['chains=eip155', 'chains', /Invalid CAIP-2 network id/],
    ['chains=eip155:1,solana', 'chains', /Invalid CAIP-2 network id/],
    ['badge_type=gold', 'badge_type', /badge_type/],
    [`search=${'x'.repeat(101)}`, 'search', /at most 100/],
    ['include=a%20b', 'include', /include/],
    ['exclude=%3Cscript%3E', 'exclude', /exclude/],
    ['page=1&page=2', 'page', /give it once/],
  ]
  for (const [query, field, message] of badParameters) {
    test(`error: ${query.slice(0, 40)} answers 400 naming ${field}`, async () => {
      const response = await get(`/getWallets?${sdk()}&${query}`)
      assert.equal(response.statusCode, 400)
      const error = errorOf(response.body)
      assert.equal(error.code, 'BAD_REQUEST')
      assert.equal(error.field, field)
      assert.match(error.message, message)
    })
  }
})

describe('catalogue links', () => {
  test('error: the seed keeps only https links and wallet schemes, falling back to the universal link', () => {
    const entry = (mobile: string, universal: string, browser: string): RegistryWallet => ({
      id: 'x',
      name: 'X',
      homepage: '',
      chains: [],
      app: { browser },
      mobile: { native: mobile, universal },
      desktop: { native: 'vbscript:msgbox(1)', universal: 'file:///c:/wallet.exe' },
    })
    assert.deepEqual(seedLinks(entry('javascript:alert(1)', 'https://x.example/app', 'data:text/html,x')), {
      links: { mobileLink: 'https://x.example/app', desktopLink: null, webappLink: null },
      dropped: [
        'mobile_link javascript:alert(1)',
        'desktop_link vbscript:msgbox(1)',
        'desktop_link file:///c:/wallet.exe',
        'webapp_link data:text/html,x',
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
      ] as const) {
        if (link !== null) assert.ok(isSafeWalletLink(kind, link), `${row.name} ${kind} ${link}`)
      }
    }
    const oneInch = rows.find((row) => row.name === '1inch Wallet')
    assert.ok(oneInch, 'a wallet whose native link is not a URL keeps its universal one')
    assert.match(oneInch.mobileLink ?? '', /^https:\/\//)
  })
})

describe('images', () => {
  test('default: a wallet logo with its type, cache headers and a strong ETag', async () => {
    const response = await get(`/getWalletImage/${metamask}`)
    assert.equal(response.statusCode, 200)
    assert.equal(response.headers['content-type'], 'image/jpeg')
    assert.equal(response.headers['cache-control'], 'public, max-age=86400')
    const etag = String(response.headers.etag)
    assert.match(etag, /^"[\w-]+"$/)
    assert.deepEqual([...response.rawPayload.subarray(0, 3)], [0xff, 0xd8, 0xff])
  })

  test('behavior: If-None-Match with the ETag answers 304 without a body', async () => {
    const first = await get(`/getWalletImage/${metamask}`)
    const etag = String(first.headers.etag)
    const again = await get(`/getWalletImage/${metamask}`, { 'if-none-match': etag })
    assert.equal(again.statusCode, 304)
    assert.equal(again.rawPayload.length, 0)
    assert.equal(again.headers.etag, etag)
    const listed = await get(`/getWalletImage/${metamask}`, { 'if-none-match': `"other", W/${etag}` })
    assert.equal(listed.statusCode, 304)
    const stale = await get(`/getWalletImage/${metamask}`, { 'if-none-match': '"stale"' })
    assert.equal(stale.statusCode, 200)
  })

  test('behavior: HEAD answers the headers only', async () => {
    const response = await app.inject({ method: 'HEAD', url: `/getWalletImage/${metamask}` })
    assert.equal(response.statusCode, 200)
    assert.equal(response.headers['content-type'], 'image/jpeg')
    assert.equal(response.rawPayload.length, 0)
  })

  test('behavior: the converted Minerva logo is a PNG and the demo wallet logo an SVG', async () => {
    const png = await get(`/getWalletImage/${minerva}`)
    assert.equal(png.headers['content-type'], 'image/png')
    const svg = await get(`/getWalletImage/${demoWallet.id}`)
    assert.equal(svg.headers['content-type'], 'image/svg+xml')
    assert.match(String(svg.headers['content-security-policy']), /sandbox/)
  })

  for (const [path, type] of [
    ['/public/getAssetImage/eip155:1', 'image/svg+xml'],
    ['/public/getAssetImage/eip155%3A31337', 'image/svg+xml'],
    ['/public/getAssetImage/eip155:31338', 'image/svg+xml'],
    ['/public/getAssetImage/solana', 'image/svg+xml'],
    ['/public/getCurrencyImage/USD', 'image/svg+xml'],
    ['/public/getCurrencyImage/eur', 'image/svg+xml'],
    ['/public/getTokenImage/ETH', 'image/svg+xml'],
    ['/public/getTokenImage/SOL', 'image/svg+xml'],
    ['/public/getTokenImage/usdc', 'image/svg+xml'],
  ] as const) {
    test(`default: ${path} is served without a project`, async () => {
      const response = await get(path, { origin: 'https://anywhere.test' })
      assert.equal(response.statusCode, 200)
      assert.equal(response.headers['content-type'], type)
      assert.equal(response.headers['access-control-allow-origin'], '*')
      assert.ok(response.headers.etag)
    })
  }

  test('error: an unknown id answers 404, a malformed one 400 naming id', async () => {
    for (const path of [
      '/getWalletImage/unknown',
      '/public/getTokenImage/DOGE',
      '/public/getAssetImage/eip155:5',
    ]) {
      const response = await get(path)
      assert.equal(response.statusCode, 404, path)
      assert.equal(errorOf(response.body).code, 'NOT_FOUND')
    }
    const bad = await get('/getWalletImage/bad%20id')
    assert.equal(bad.statusCode, 400)
    assert.equal(errorOf(bad.body).field, 'id')
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
