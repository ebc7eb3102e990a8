import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { axeFindings } from './axe.ts'
import { codeOf, connections, modal, nextMail, submitEmail } from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

type Detail = { address: string; accountType?: string; smartAccountDeployed?: boolean; namespace: string }

/**
 * The embedded wallet's account type on Account (issue 15): an e-mail user switches to a smart account
 * and back (the local chain has the bundler), with the type and the deployed flag shown and in the
 * `wallet-connect` / `wallet-account-change` details; on the second local chain (no bundler) the
 * switch answers `This application might not support Smart Accounts`, red and announced, and the EOA stays.
 */
describe('embedded wallet: EOA and smart account on Account', { timeout: 300_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let page: Page

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const events = (name: string) =>
    page.evaluate((type) => (window as unknown as { seen: Record<string, Detail[]> }).seen[type] ?? [], name)
  const evmAddress = async () => (await connections(page)).eip155?.address

  it('switches an e-mail user to a smart account on Account and back; the events say which', async () => {
    const context = await newContext(browser)
    page = await context.newPage()
    await page.goto(new URL('/dapp.html', stack.urls.demo).href)
    await page.evaluate(() => {
      const element = document.querySelector('wallet-modal')
      element?.setAttribute('networks', 'eip155:31337,eip155:31338')
      const seen: Record<string, unknown[]> = {}
      ;(window as unknown as { seen: typeof seen }).seen = seen
      for (const type of ['wallet-connect', 'wallet-account-change'])
        element?.addEventListener(type, (event) => {
          seen[type] = [...(seen[type] ?? []), (event as CustomEvent).detail]
        })
    })
    const email = `smart.${Date.now()}@example.com`
    await submitEmail(page, email)
    await modal(page)
      .getByLabel('Code')
      .fill(codeOf(await nextMail(stack, email, 0)))
    await modal(page).waitFor({ state: 'detached' })
    const eoa = await evmAddress()
    const [connected] = await events('wallet-connect')
    assert.deepEqual(
      [connected?.address, connected?.accountType, connected?.smartAccountDeployed],
      [eoa, 'eoa', false],
    )

    await page.locator('wallet-button').getByRole('button').click()
    const type = modal(page).locator('[part="account-type"]')
    await type.getByText('EOA', { exact: true }).waitFor()
    await modal(page).getByRole('button', { name: 'Switch to a smart account' }).click()
    await type.getByText('Smart account', { exact: true }).waitFor()
    await type.getByText('Not deployed yet: your first transaction deploys it').waitFor()
    const smart = await evmAddress()
    assert.notEqual(smart, eoa)
    const [changed] = await events('wallet-account-change')
    assert.deepEqual(
      [changed?.address, changed?.accountType, changed?.smartAccountDeployed],
      [smart, 'smartAccount', false],
    )
    assert.deepEqual(await axeFindings(page, 'wallet-modal'), [])

    await modal(page).getByRole('button', { name: 'Switch to the EOA' }).click()
    await type.getByText('EOA', { exact: true }).waitFor()
    assert.equal(await evmAddress(), eoa)
    const back = (await events('wallet-account-change')).at(-1)
    assert.deepEqual([back?.address, back?.accountType], [eoa, 'eoa'])
  })

  it('error: on a network without a bundler: This application might not support Smart Accounts, the EOA stays', async () => {
    const eoa = await evmAddress()
    await modal(page)
      .getByRole('button', { name: /Local Chain\s+Network/ })
      .click()
    await modal(page)
      .getByRole('button', { name: /Local Chain 2/ })
      .click()
    await page.waitForFunction(
      () =>
        document.querySelector('wallet-modal')?.walletConfig.$network.get()?.caipNetworkId === 'eip155:31338',
    )
    if (!(await modal(page).locator('[part="account-type"]').count()))
      await page.locator('wallet-button').getByRole('button').click()
    await modal(page).getByRole('button', { name: 'Switch to a smart account' }).click()
    await modal(page)
      .getByRole('alert')
      .filter({ hasText: 'This application might not support Smart Accounts' })
      .waitFor()
    await modal(page).locator('[part="account-type"]').getByText('EOA', { exact: true }).waitFor()
    assert.equal(await evmAddress(), eoa)
    assert.deepEqual(await axeFindings(page, 'wallet-modal'), [])
  })
})
