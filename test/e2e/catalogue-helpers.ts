// What the catalogue end-to-end tests share: the stack, a second service whose database they read,
// a browser, the catalogue as served, and ways to open the demo and look into the modal.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core'
import { runProjectCli } from '../../server/cli/project.ts'
import { startService } from '../../server/main.ts'
import type { GetWalletsResponse } from '../../src/protocol/api/index.ts'
import { openTestDatabase, type TestDatabase, testLogger } from '../unit/server/helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

export const DEMO_RDNS = 'dev.wallet-elements.demo'

export const LIMIT = 10_000

export type Seen = { url: URL; method: string; postData: string | null }

export let stack: TestStack
export let browser: Browser
export let own: { url: string; stop(): Promise<void> }
export let ownDb: TestDatabase
export let catalogue: GetWalletsResponse
export const contexts: BrowserContext[] = []

export const cli = async (...argv: string[]) =>
  assert.equal(
    await runProjectCli(argv, {
      database: ownDb.database,
      out: () => {},
      err: (line) => console.error(line),
    }),
    0,
  )

/**
 * A second service whose database the test reads: project `locked` allows only https://example.com
 * (made with the CLI), and its dev project gets the demo's origin once the demo runs.
 */
export async function startOwnService() {
  ownDb = await openTestDatabase('e2e_catalogue')
  await cli('create', '--id', 'locked', '--name', 'Locked', '--origin', 'https://example.com')
  return startService({
    config: { ...ownDb.config(), port: 0, devOrigins: [] },
    database: ownDb.database,
    logger: testLogger,
  })
}

/** A fresh page of the demo, recording every request it makes. */
export async function openDemo(setup?: (page: Page) => Promise<void>) {
  const context = await newContext(browser)
  contexts.push(context)
  const page = await context.newPage()
  const requests: Seen[] = []
  context.on('request', (request: Request) =>
    requests.push({
      url: new URL(request.url()),
      method: request.method(),
      postData: request.postData(),
    }),
  )
  await page.goto(stack.urls.demo)
  await page
    .locator('wallet-button')
    .getByRole('button', { name: 'Connect Wallet' })
    .and(page.locator(':enabled'))
    .waitFor()
  if (setup) await setup(page)
  return { page, requests }
}

export const modal = (page: Page) => page.locator('wallet-modal').getByRole('dialog')
export const openModal = (page: Page) => page.locator('wallet-button').getByRole('button').click()
export const section = (page: Page, name: string) => modal(page).getByRole('region', { name })
export const rows = (scope: Locator) => scope.locator('[data-wallet-id]')
export const service = (requests: Seen[], path: string) =>
  requests.filter(
    (request) => request.url.origin === new URL(stack.urls.service).origin && request.url.pathname === path,
  )
/** The AllWallets list as the modal holds it. */
export const walletsList = (page: Page) =>
  page.evaluate(() => {
    const list = document.querySelector('wallet-modal')!.walletConfig.$walletList.get()
    return { entries: list.entries.map((entry) => entry.id), status: list.status, query: list.query }
  })
export const searched = async (page: Page, query: string) => {
  const list = await walletsList(page)
  return list.query === query && list.status === 'ready'
}

export async function until(what: string, check: () => Promise<boolean> | boolean, timeout = LIMIT) {
  const end = Date.now() + timeout
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Ids of the wallet logos the page asked the service for. */
export const imageIds = (requests: Seen[]) =>
  new Set(
    requests
      .filter((request) => request.url.pathname.startsWith('/getWalletImage/'))
      .map((request) => decodeURIComponent(request.url.pathname.slice('/getWalletImage/'.length))),
  )

/**
 * Starts the stack, a browser and the second service before the calling describe's tests; stops them after.
 */
export function useCatalogueStack(): void {
  before(async () => {
    ;[stack, browser, own] = await Promise.all([startTestStack(), launchBrowser(), startOwnService()])
    await cli('allow-origin', '--id', 'dev-project', '--origin', new URL(stack.urls.demo).origin)
    const query = 'projectId=dev-project&st=wallet-elements&sv=0.1.0'
    const response = await fetch(`${stack.urls.service}/getWallets?${query}&page=1&entries=100`)
    const first = (await response.json()) as GetWalletsResponse
    const rest = await fetch(`${stack.urls.service}/getWallets?${query}&page=2&entries=100`)
    catalogue = {
      count: first.count,
      data: [...first.data, ...((await rest.json()) as GetWalletsResponse).data],
    }
    assert.equal(catalogue.data.length, catalogue.count)
    assert.ok(
      catalogue.data.some((entry) => entry.rdns === DEMO_RDNS),
      'the seed has the Demo Wallet',
    )
  })

  after(async () => {
    for (const context of contexts) await context.close().catch(() => {})
    await browser?.close()
    await own?.stop()
    await ownDb?.close()
    await stack?.stop()
  })
}
