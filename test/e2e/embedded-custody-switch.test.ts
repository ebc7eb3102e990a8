// A project leaves operator custody: its earlier people are asked to secure their wallet at their next
// visit, and once they do, the operator's shares open nothing. The recovery views open at their top.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core'
import { getAddress } from 'viem'
import { runProjectCli } from '../../server/cli/project.ts'
import { walletShareSets, walletUsers } from '../../server/db/schema.ts'
import { createCustody } from '../../server/embedded/custody.ts'
import { kekRing } from '../../server/embedded/kek.ts'
import { createShareSets } from '../../server/embedded/shareSets.ts'
import { withSharedKeys } from '../../src/frame/keys/shares.ts'
import {
  closedAfterSignIn,
  codeOf,
  connections,
  modal,
  nextMail,
  signWithApproval,
  submitEmail,
  walletFrame,
} from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

const PASSWORD = 'granite owl 42 lantern'
const PHONE = { width: 375, height: 667 }

describe('embedded wallet: a project leaves operator custody', { timeout: 300_000 }, () => {
  let stack: TestStack
  let browser: Browser
  const contexts: BrowserContext[] = []
  const projectId = process.env.DEV_PROJECT_ID || 'dev-project'
  const dappUrl = () => new URL('/dapp.html', stack.urls.demo).href

  const database = () => {
    const found = stack.serviceDatabase
    assert.ok(found, 'the service database')
    return found
  }

  /** `npm run project -- …` against the service's database, as the operator runs it. */
  async function projectCli(...argv: string[]) {
    const out: string[] = []
    const err: string[] = []
    const code = await runProjectCli(argv, {
      database: database(),
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    })
    assert.equal(code, 0, err.join('\n'))
    return out.join('\n')
  }

  /** The operator's view of a person's shares: the database and the KEK beside it. */
  async function operatorShares(email: string) {
    const { db } = database()
    const [user] = await db.select().from(walletUsers).where(eq(walletUsers.email, email))
    assert.ok(user)
    const sets = createShareSets(
      db,
      createCustody(db, kekRing([Buffer.from(stack.walletKek, 'base64')], 'WALLET_KEK')),
    )
    const set = await sets.current(user.id)
    assert.ok(set)
    return { set, sets }
  }

  const phonePage = async () => {
    const context = await newContext(browser)
    contexts.push(context)
    const page = await context.newPage()
    await page.setViewportSize(PHONE)
    await page.goto(dappUrl())
    return page
  }

  /**
   * The view's heading and its first row (the passkey button where the frame has WebAuthn, else the
   * first field) are in the page's viewport, as the person sees them, and the modal's header above.
   */
  async function opensAtItsTop(page: Page, frame: FrameLocator, heading: string, step: string) {
    await frame.getByRole('heading', { name: heading }).waitFor()
    // Let the modal lay the frame out at its height and the focus land.
    await page.waitForTimeout(500)
    const frameBox = await page.locator('iframe[data-wallet-frame]').boundingBox()
    assert.ok(frameBox, `${step}: the frame is shown`)
    const inPage = async (locator: ReturnType<FrameLocator['locator']>) => {
      const box = await locator.boundingBox()
      assert.ok(box, `${step}: shown`)
      return box
    }
    const title = await inPage(frame.getByRole('heading', { name: heading }))
    const firstRow = await inPage(frame.locator('.panel > :is(.actions, .form)').first())
    // The modal's header (its title, back and close) stays on top: what is under it is not seen.
    const header = await modal(page).locator('[part="header"]').boundingBox()
    assert.ok(header && header.y >= 0, `${step}: the modal's header is in view`)
    const top = header.y + header.height
    const within = (box: { y: number; height: number }) =>
      box.y >= top - 1 && box.y + box.height <= PHONE.height
    assert.ok(
      within(title),
      `${step}: the heading is in view below the modal's header (its top at ${Math.round(title.y)} px, the header's bottom at ${Math.round(top)} px)`,
    )
    assert.ok(within(firstRow), `${step}: the first row is in view (at ${Math.round(firstRow.y)} px)`)
  }

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack({ solana: true }), launchBrowser()])
  })
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {})
    await browser?.close()
    await projectCli('set', '--id', projectId, '--custody', 'user').catch(() => {})
    await stack?.stop()
  })

  it("default: signed in under operator custody; after the switch to user custody the next visit asks them to secure their wallet; with a password set, the operator's shares open nothing", async () => {
    assert.match(
      await projectCli('set', '--id', projectId, '--custody', 'operator'),
      /custody operator: the operator can sign for every user of this project/,
    )
    const email = `switched.${Date.now()}@example.com`
    const page = await phonePage()
    await submitEmail(page, email)
    await modal(page)
      .getByLabel('Code')
      .fill(codeOf(await nextMail(stack, email, 0)))
    // Operator custody: nothing to set up; the modal closes, connected.
    await modal(page).waitFor({ state: 'detached', timeout: 60_000 })
    const { eip155 } = await connections(page)
    assert.equal(eip155?.status, 'connected')
    const address = eip155?.address ?? ''

    // What the operator holds: the recovery share and the auth share, which open the key.
    const before = await operatorShares(email)
    assert.equal(before.set.recoveryMethod, 'operator')
    const oldRecovery = new Uint8Array(await before.sets.openShare(before.set, 'recovery'))
    const oldAuth = new Uint8Array(await before.sets.openShare(before.set, 'auth'))
    const accounts = { eip155: getAddress(before.set.evmAddress), solana: before.set.solanaAddress }
    assert.equal(await withSharedKeys([oldRecovery.slice(), oldAuth.slice()], accounts, () => true), true)

    // The operator switches the project: the CLI says whom that does not cover yet.
    const switched = await projectCli('set', '--id', projectId, '--custody', 'user')
    const counted = /the operator can still recover (\d+) (?:person|people) of this project/.exec(switched)
    assert.ok(counted, switched)
    assert.equal(counted[1], '1', 'this person, the one signed in under operator custody')
    assert.match(
      await projectCli('list'),
      /custody user\n {2}custody user: the operator can still recover 1 person/,
    )

    // The next visit (the session restored): the frame asks, in words that say why.
    await page.reload()
    const frame = walletFrame(page)
    const why = frame.getByText('This site could recover your wallet until now, and so could sign for it.', {
      exact: false,
    })
    await opensAtItsTop(page, frame, 'Protect your wallet', 'the set-up on the next visit')
    await why.waitFor()
    // Later: Account says the site can still recover the wallet, and offers the set-up again.
    await closedAfterSignIn(page)
    await page.locator('wallet-button').getByRole('button').click()
    await frame.getByText('This site can recover your wallet (and could sign for it)').waitFor()
    await modal(page)
      .getByText(
        'This site can still recover this wallet, and so could sign for it: set up your own recovery.',
      )
      .waitFor()
    await modal(page).getByRole('button', { name: 'Set up recovery' }).click()
    await opensAtItsTop(page, frame, 'Protect your wallet', 'the set-up from Account after the switch')
    await why.waitFor()
    await frame.getByLabel('Recovery password').fill(PASSWORD)
    await frame.getByLabel('Repeat the password').fill(PASSWORD)
    const setUp = frame.getByRole('button', { name: 'Set up recovery', exact: true })
    for (let attempt = 0; attempt < 5 && (await setUp.isVisible()); attempt++) {
      await setUp.click().catch(() => {})
      await page.waitForTimeout(300)
    }
    // Back on Account: only the person can use the keys now.
    await frame.getByText("Only you can use this wallet's keys").waitFor({ timeout: 60_000 })
    assert.equal(await modal(page).getByRole('button', { name: 'Set up recovery' }).count(), 0)
    await modal(page).getByRole('button', { name: 'Close' }).click()
    await modal(page).waitFor({ state: 'detached' })

    // The operator's stored recovery share is gone; a new set replaced the one it held.
    const afterSetUp = await operatorShares(email)
    assert.equal(afterSetUp.set.recoveryMethod, 'password')
    assert.equal(afterSetUp.set.recoveryShare, null, "the operator's recovery share is deleted")
    assert.notEqual(afterSetUp.set.setId, before.set.setId, 'a new share set')
    const [row] = await database()
      .db.select({ recoveryShare: walletShareSets.recoveryShare })
      .from(walletShareSets)
      .where(eq(walletShareSets.setId, before.set.setId))
    assert.equal(row, undefined, 'no row keeps the old set')
    assert.doesNotMatch(await projectCli('list'), /the operator can still recover/, 'nobody is left')

    // The attack: the operator tries its shares. Its kept recovery share with the auth share it holds
    // now: refused (another set); it has no recovery share of the new set to try.
    const authNow = new Uint8Array(await afterSetUp.sets.openShare(afterSetUp.set, 'auth'))
    await assert.rejects(withSharedKeys([oldRecovery.slice(), authNow], accounts, () => true))
    await assert.rejects(afterSetUp.sets.openShare(afterSetUp.set, 'recovery'))

    // The person still signs, with the new set.
    await signWithApproval(page, address, 'Mine alone now')
  })

  it('behavior: at 375 px the recovery set-up opens at its top: the heading and the first row in view, not scrolled away by the focus', async () => {
    const email = `phone.${Date.now()}@example.com`
    const page = await phonePage()
    await submitEmail(page, email)
    await modal(page)
      .getByLabel('Code')
      .fill(codeOf(await nextMail(stack, email, 0)))
    const frame = walletFrame(page)
    await opensAtItsTop(page, frame, 'Protect your wallet', 'the set-up at sign-in')
    // The focus is on the first field all the same (typing goes there).
    assert.equal(
      await frame.getByLabel('Recovery password').evaluate((input) => input === document.activeElement),
      true,
    )
    await closedAfterSignIn(page)

    // From Account, scrolled down to its "Set up recovery": the set-up opens at its top all the same.
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .click()
    const setUp = modal(page).getByRole('button', { name: 'Set up recovery' })
    await setUp.scrollIntoViewIfNeeded()
    await setUp.click()
    await opensAtItsTop(page, frame, 'Protect your wallet', 'the set-up from Account')
  })
})
