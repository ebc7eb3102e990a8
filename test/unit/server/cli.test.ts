import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.ts'
import { customWalletId } from '../../../server/catalogue/customWallets.ts'
import { getWalletsResponse } from '../../../src/protocol/api/index.ts'
import { openTestDatabase, runCli, sdk, type TestDatabase, testLogger } from './helpers.ts'

const minervaLogo = fileURLToPath(
  new URL(
    '../../../server/data/seed/logos/dea4ab675289353a508956c4f821bc4e9141d9f99a5d244ae7af92b4d575db6d.png',
    import.meta.url,
  ),
)

let testDb: TestDatabase
let app: FastifyInstance
let scratch = ''

before(async () => {
  testDb = await openTestDatabase('cli')
  app = await buildApp(testDb.config({ devProjectId: null }), {
    database: testDb.database,
    logger: testLogger,
  })
  scratch = await mkdtemp(join(tmpdir(), 'wallet-elements-cli-'))
})

after(async () => {
  await app?.close()
  await testDb?.close()
  if (scratch) await rm(scratch, { recursive: true, force: true })
})

const cli = (...argv: string[]) => runCli(testDb.database, ...argv)

const analyticsConfig = (projectId: string, origin?: string) =>
  app.inject({
    url: `/getAnalyticsConfig?${sdk(projectId)}`,
    headers: origin === undefined ? {} : { origin },
  })

describe('project commands', () => {
  test('behavior: a wildcard on a shared hosting domain is allowed with a warning', async () => {
    const created = await cli(
      'create',
      '--id',
      'preview',
      '--name',
      'Preview',
      '--origin',
      'https://my-app-*.vercel.app',
    )
    assert.equal(created.code, 0, created.err)
    assert.match(
      created.err,
      /^Warning: https:\/\/my-app-\*\.vercel\.app allows sites on vercel\.app, a shared hosting domain where anyone can publish one/,
    )
    const allowed = await cli(
      'allow-origin',
      '--id',
      'preview',
      '--origin',
      'https://*.netlify.app',
      '--origin',
      'https://ok.example.com',
    )
    assert.equal(allowed.code, 0)
    assert.equal(allowed.err.split('\n').length, 1, allowed.err)
    assert.match(allowed.err, /netlify\.app/)
    const quiet = await cli('allow-origin', '--id', 'preview', '--origin', 'https://*.example.com')
    assert.equal(quiet.err, '')
    const refused = await cli('allow-origin', '--id', 'preview', '--origin', 'https://app.*.example.com')
    assert.equal(refused.code, 1)
    assert.match(refused.err, /"https:\/\/app\.\*\.example\.com" is not an origin pattern/)
  })

  test('default: create, list and list --json', async () => {
    const created = await cli(
      'create',
      '--id',
      'shop',
      '--name',
      'Shop',
      '--origin',
      'https://shop.example.com',
      '--origin',
      'https://*.preview.example.com/',
    )
    assert.equal(created.code, 0, created.err)
    assert.match(created.out, /Created project shop/)
    const listed = await cli('list')
    assert.equal(listed.code, 0)
    assert.match(listed.out, /shop {2}Shop {2}\(analytics on\)/)
    assert.match(listed.out, /https:\/\/\*\.preview\.example\.com\n/)
    const json = JSON.parse((await cli('list', '--json')).out) as { id: string; origins: string[] }[]
    assert.deepEqual(json.find((project) => project.id === 'shop')?.origins, [
      'https://*.preview.example.com',
      'https://shop.example.com',
    ])
    const allowed = await analyticsConfig('shop', 'https://pr-12.preview.example.com')
    assert.equal(allowed.statusCode, 200)
  })

  test('behavior: allow-origin and remove-origin change what the API accepts at once', async () => {
    assert.equal((await analyticsConfig('shop', 'http://localhost:3000')).statusCode, 403)
    const allowed = await cli('allow-origin', '--id', 'shop', '--origin', 'http://localhost:3000')
    assert.equal(allowed.code, 0, allowed.err)
    assert.equal((await analyticsConfig('shop', 'http://localhost:3000')).statusCode, 200)
    const removed = await cli('remove-origin', '--id', 'shop', '--origin', 'http://localhost:3000')
    assert.equal(removed.code, 0, removed.err)
    assert.equal((await analyticsConfig('shop', 'http://localhost:3000')).statusCode, 403)
  })

  test('behavior: set --analytics off turns the project analytics switch off', async () => {
    const result = await cli('set', '--id', 'shop', '--analytics', 'off', '--name', 'Shop (EU)')
    assert.equal(result.code, 0, result.err)
    assert.deepEqual((await analyticsConfig('shop')).json(), { isAnalyticsEnabled: false })
    assert.match((await cli('list')).out, /Shop \(EU\) {2}\(analytics off\)/)
  })

  test('behavior: custody: user by default; --custody operator is shown with the one line that the operator can sign', async () => {
    assert.match((await cli('list')).out, /shop {2}Shop \(EU\) {2}\(analytics off\) {2}custody user\n/)
    const created = await cli('create', '--id', 'custodian', '--name', 'Custodian', '--custody', 'operator')
    assert.equal(created.code, 0, created.err)
    assert.match(
      created.out,
      /custody operator\n {2}custody operator: the operator can sign for every user of this project/,
    )
    const set = await cli('set', '--id', 'custodian', '--custody', 'user')
    assert.doesNotMatch(set.out, /the operator can sign/)
    const wrong = await cli('set', '--id', 'custodian', '--custody', 'nobody')
    assert.equal(wrong.code, 2)
    assert.match(wrong.err, /^--custody must be user or operator/)
  })

  test('error: refused changes exit 1 with a clear message', async () => {
    const duplicate = await cli('create', '--id', 'shop', '--name', 'Again')
    assert.equal(duplicate.code, 1)
    assert.match(duplicate.err, /already exists/)
    const badOrigin = await cli(
      'create',
      '--id',
      'other',
      '--name',
      'Other',
      '--origin',
      'https://x.test/path',
    )
    assert.equal(badOrigin.code, 1)
    assert.match(badOrigin.err, /not an origin pattern/)
    const unknown = await cli('allow-origin', '--id', 'nobody', '--origin', 'https://x.test')
    assert.equal(unknown.code, 1)
    assert.match(unknown.err, /No project has id "nobody"/)
    const notListed = await cli('remove-origin', '--id', 'shop', '--origin', 'https://never.test')
    assert.equal(notListed.code, 1)
    assert.match(notListed.err, /does not list/)
  })

  test('error: usage mistakes exit 2 with the usage', async () => {
    for (const argv of [
      ['create', '--id', 'x'],
      ['create', '--id', 'bad id', '--name', 'X'],
      ['allow-origin', '--id', 'shop'],
      ['frobnicate'],
      ['list', '--colour'],
      ['set', '--id', 'shop', '--analytics', 'maybe'],
    ]) {
      const result = await cli(...argv)
      assert.equal(result.code, 2, argv.join(' '))
      assert.match(result.err, /Usage: npm run project/)
    }
    const help = await cli('--help')
    assert.equal(help.code, 0)
    assert.match(help.out, /allow-origin --id ID --origin ORIGIN/)
  })
})

describe('wallet commands', () => {
  const wallets = async (query: string) =>
    getWalletsResponse.parse((await app.inject({ url: `/getWallets?${sdk('shop')}&${query}` })).json())

  test('default: add-wallet adds a catalogue entry with its logo', async () => {
    const result = await cli(
      'add-wallet',
      '--name',
      'Acme Wallet',
      '--image',
      minervaLogo,
      '--rdns',
      'com.acme.wallet',
      '--mobile-link',
      'acme://',
      '--desktop-link',
      'https://desktop.acme.test',
      '--webapp-link',
      'https://app.acme.test',
      '--app-store',
      'https://apps.apple.com/app/id123456789',
      '--play-store',
      'https://play.google.com/store/apps/details?id=com.acme.wallet',
      '--chain',
      'eip155:1',
      '--chain',
      'eip155:31337',
    )
    assert.equal(result.code, 0, result.err)
    const id = customWalletId('Acme Wallet')
    assert.match(result.out, new RegExp(id))
    const { data } = await wallets('search=acme')
    assert.deepEqual(data, [
      {
        id,
        name: 'Acme Wallet',
        image_id: id,
        chains: ['eip155:1', 'eip155:31337'],
        mobile_link: 'acme://',
        desktop_link: 'https://desktop.acme.test',
        webapp_link: 'https://app.acme.test',
        app_store: 'https://apps.apple.com/app/id123456789',
        play_store: 'https://play.google.com/store/apps/details?id=com.acme.wallet',
        rdns: 'com.acme.wallet',
        badge_type: 'none',
      },
    ])
    const logo = await app.inject({ url: `/getWalletImage/${id}` })
    assert.equal(logo.statusCode, 200)
    assert.equal(logo.headers['content-type'], 'image/png')
  })

  test('behavior: add-wallet again updates the entry; without --image it gets a placeholder', async () => {
    const before = (await wallets('')).count
    const result = await cli('add-wallet', '--name', 'Acme Wallet', '--rdns', 'com.acme.wallet')
    assert.equal(result.code, 0, result.err)
    assert.equal((await wallets('')).count, before)
    const logo = await app.inject({ url: `/getWalletImage/${customWalletId('Acme Wallet')}` })
    assert.equal(logo.headers['content-type'], 'image/svg+xml')
  })

  test('error: a taken rdns, a bad link or a non-image file is refused', async () => {
    const taken = await cli('add-wallet', '--name', 'Copycat', '--rdns', 'io.metamask')
    assert.equal(taken.code, 1)
    assert.match(taken.err, /io\.metamask is already used by MetaMask/)
    const badLink = await cli('add-wallet', '--name', 'Linky', '--mobile-link', 'not a link')
    assert.equal(badLink.code, 1)
    for (const [option, link] of [
      ['--mobile-link', 'javascript:alert(document.cookie)//'],
      ['--mobile-link', 'data:text/html,<script>alert(1)</script>'],
      ['--desktop-link', 'vbscript:msgbox(1)'],
      ['--desktop-link', 'file:///etc/passwd'],
      ['--mobile-link', 'http://wallet.example'],
    ] as const) {
      const refused = await cli('add-wallet', '--name', 'Linky', option, link)
      assert.equal(refused.code, 1, link)
      assert.match(
        refused.err,
        /must be https:\/\/ or the wallet's own scheme such as example: \(never javascript:/,
      )
    }
    const webapp = await cli('add-wallet', '--name', 'Linky', '--webapp-link', 'linky:')
    assert.equal(webapp.code, 1)
    assert.match(webapp.err, /The web app link must be an https:\/\/ URL/)
    // A store link is a page on the web: a script, the store app's own scheme or plain http is refused.
    for (const [option, link, label] of [
      ['--app-store', 'javascript:alert(document.cookie)//', 'The App Store link'],
      ['--app-store', 'itms-apps://apps.apple.com/app/id1', 'The App Store link'],
      ['--play-store', 'market://details?id=com.linky', 'The Google Play link'],
      ['--play-store', 'http://play.google.com/store/apps/details?id=com.linky', 'The Google Play link'],
    ] as const) {
      const refused = await cli('add-wallet', '--name', 'Linky', option, link)
      assert.equal(refused.code, 1, link)
      assert.match(refused.err, new RegExp(`${label} must be an https:// URL`))
    }
    const ok = await cli(
      'add-wallet',
      '--name',
      'Linky',
      '--mobile-link',
      'linky://',
      '--webapp-link',
      'https://linky.example',
    )
    assert.equal(ok.code, 0, ok.err)
    const text = join(scratch, 'logo.png')
    await writeFile(text, 'this is not an image')
    const notImage = await cli('add-wallet', '--name', 'Texty', '--image', text)
    assert.equal(notImage.code, 1)
    assert.match(notImage.err, /JPEG, PNG, GIF, WebP or SVG/)
    const missing = await cli('add-wallet', '--name', 'Ghost', '--image', join(scratch, 'absent.png'))
    assert.equal(missing.code, 1)
    assert.match(missing.err, /Cannot read/)
  })

  test('default: remove-wallet removes the entry and its logo', async () => {
    const id = customWalletId('Acme Wallet')
    const result = await cli('remove-wallet', '--id', id)
    assert.equal(result.code, 0, result.err)
    assert.equal((await wallets('search=acme')).count, 0)
    assert.equal((await app.inject({ url: `/getWalletImage/${id}` })).statusCode, 404)
    assert.equal((await cli('remove-wallet', '--id', id)).code, 1)
  })
})
