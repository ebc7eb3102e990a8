// The wallet list (/getWallets) and the wallet images.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { addWallet } from '../../../server/catalogue/customWallets.ts'
import { demoWallet } from '../../../server/db/seed.ts'
import {
  app,
  errorOf,
  get,
  metamask,
  minerva,
  rabby,
  rainbow,
  seededCount,
  startCatalogueService,
  testDb,
  wallets,
} from './catalogue-helpers.ts'
import { sdk } from './helpers.ts'

startCatalogueService()

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
      app_store: 'https://apps.apple.com/us/app/metamask/id1438144202',
      play_store: 'https://play.google.com/store/apps/details?id=io.metamask',
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
