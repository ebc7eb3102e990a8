/**
 * The core journeys on a phone: Chromium's mobile emulation (an iPhone's user agent, 390 × 844, 3×
 * pixels, touch), every step a tap. The demo page with no browser wallet (`?demoWallet=off`), as most
 * phones' browsers are. Then the layout on a phone, view by view (every target at least 44 × 44 px,
 * nothing scrolling sideways at 390 or 320 px), and the two ways a phone closes a dialog: the bottom
 * sheet swiped down, and the browser's back gesture. The same journeys in WebKit: test/e2e/webkit-phone.test.ts.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { type Hex, stringToHex, verifyMessage } from 'viem'
import { devAccount } from '../../server/dev/chain/index.ts'
import { codeOf, modal, nextMail, walletFrame } from './embedded-helpers.ts'
import { launchBrowser, openPhoneWallet, startTestStack, type TestStack } from './harness.ts'
import {
  drag,
  newPhoneContext,
  type SmallTarget,
  sidewaysOverflowIn,
  smallTargetsIn,
  steps,
  TOUCH_TARGET_PX,
  tapInFrame,
} from './phone-helpers.ts'
import { watchShake } from './shake.ts'

const button = (page: Page) => page.locator('wallet-button').getByRole('button')
const heading = (page: Page) => modal(page).getByRole('heading', { level: 2 })
/** The modal's panel: what moves when the sheet is dragged. */
const panel = (page: Page) => page.locator('wallet-modal').locator('[part="panel"]')

/** The page's request through the modal's EIP-1193 provider; its answer lands in `window.answer`. */
const ask = (page: Page, method: string, params: unknown[]) =>
  page.evaluate(
    ([name, values]) => {
      const record = window as unknown as { answer: { result?: unknown; error?: string } | undefined }
      record.answer = undefined
      void document
        .querySelector('wallet-modal')
        ?.getProvider('eip155')
        .request({ method: name, params: values })
        .then(
          (result) => {
            record.answer = { result }
          },
          (error: { message?: string }) => {
            record.answer = { error: error.message ?? String(error) }
          },
        )
    },
    [method, params] as const,
  )
const answer = async (page: Page) => {
  await page.waitForFunction(
    () => (window as unknown as { answer?: unknown }).answer !== undefined,
    undefined,
    {
      timeout: 60_000,
    },
  )
  return page.evaluate(() => (window as unknown as { answer: { result?: unknown; error?: string } }).answer)
}

/** The account the modal shows as connected on EVM ('' when none). */
const evmAccount = (page: Page) =>
  page.evaluate(() => {
    const record = document.querySelector('wallet-modal')?.walletConfig.$connections.get().eip155
    return record?.status === 'connected' ? (record.accounts[0] ?? '') : ''
  })

/** From Account: Disconnect, and the button offers to connect again. */
async function disconnect(page: Page) {
  await button(page).tap()
  await modal(page).locator('[part="disconnect-button"]').tap()
  await button(page)
    .and(page.getByRole('button', { name: 'Connect Wallet' }))
    .waitFor()
  assert.equal(await evmAccount(page), '')
}

/** Typing the code of the mail to `email` into the code view, then Later on the frame's recovery offer. */
async function enterCode(page: Page, stack: TestStack, email: string) {
  const field = modal(page).getByLabel('Code')
  await field.tap()
  await page.keyboard.type(codeOf(await nextMail(stack, email, 0)))
  await tapInFrame(page, 'Later')
}

/** From the open Connect view: the generic WalletConnect entry, and its QR code. */
async function showPairing(page: Page) {
  await modal(page)
    .getByRole('button', { name: /WalletConnect/ })
    .tap()
  await modal(page)
    .getByRole('img', { name: /QR code/ })
    .waitFor()
}

/** From the open Connect view: the e-mail address, Continue, and the code view. */
async function submitEmail(page: Page, email: string) {
  const field = modal(page).getByLabel('Email')
  await field.tap()
  await field.fill(email)
  await modal(page).getByRole('button', { name: 'Continue', exact: true }).tap()
  await modal(page).getByRole('heading', { name: 'Enter the code' }).waitFor()
}

describe('the core journeys on a phone (Chromium mobile emulation, 390 × 844, touch)', {
  timeout: 600_000,
}, () => {
  let stack: TestStack
  let browser: Browser
  const contexts: BrowserContext[] = []

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
  })
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {})
    await browser?.close()
    await stack?.stop()
  })

  /** A new phone (its own storage) on the demo page with no browser wallet. */
  async function phone(path = '/?demoWallet=off') {
    const context = await newPhoneContext(browser)
    contexts.push(context)
    const page = await context.newPage()
    await page.goto(new URL(path, stack.urls.demo).href)
    await button(page).and(page.locator(':enabled')).waitFor()
    return { context, page }
  }

  test('behavior: opens on Connect as a bottom sheet: e-mail, socials and WalletConnect wallets, though no browser wallet is installed', async () => {
    const { page } = await phone()
    await button(page).tap()
    await modal(page).getByRole('heading', { name: 'Connect Wallet' }).waitFor()
    assert.equal(await panel(page).getAttribute('data-view'), 'Connect')
    await modal(page).getByLabel('Email').waitFor()
    await modal(page)
      .getByRole('button', { name: /Continue with Google/ })
      .waitFor()
    await modal(page)
      .getByRole('button', { name: /WalletConnect/ })
      .waitFor()
    // The catalogue's WalletConnect wallets, and the way to all of them.
    await modal(page).getByText('All wallets').waitFor()
    const text = (await modal(page).textContent()) ?? ''
    for (const wallet of ['Rainbow', 'MetaMask'])
      assert.ok(text.includes(wallet), `${wallet} is offered: ${text}`)
    assert.ok(!text.includes('Demo Wallet'), 'no browser wallet is there to offer')
    // A bottom sheet: the panel spans the screen's width and sits on its bottom edge.
    const box = await panel(page).boundingBox()
    assert.ok(
      box && box.x === 0 && box.width === 390 && Math.round(box.y + box.height) === 844,
      JSON.stringify(box),
    )
  })

  test('behavior: e-mail sign-in by the mailed code, a message signed with approval in the wallet frame, then disconnect', async () => {
    const { page } = await phone()
    const email = `phone.${Date.now()}@example.com`
    await button(page).tap()
    await submitEmail(page, email)
    await enterCode(page, stack, email)
    await button(page)
      .and(page.getByRole('button', { name: /^0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}.*, Account$/ }))
      .waitFor({
        timeout: 60_000,
      })
    const address = (await evmAccount(page)) as Hex
    assert.match(address, /^0x[0-9a-fA-F]{40}$/)

    const message = 'Signed on a phone'
    await ask(page, 'personal_sign', [stringToHex(message), address])
    await walletFrame(page).getByText(message).waitFor({ timeout: 30_000 })
    await tapInFrame(page, 'Approve')
    const signed = await answer(page)
    assert.equal(signed.error, undefined)
    assert.ok(await verifyMessage({ address, message, signature: signed.result as Hex }))

    await disconnect(page)
  })

  test('behavior: WalletConnect from the generic entry: Copy link, paired with the demo phone wallet, a signature approved there, then disconnect', async () => {
    const { context, page } = await phone()
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(stack.urls.demo).origin,
    })
    await button(page).tap()
    await showPairing(page)
    await modal(page).getByRole('button', { name: 'Copy link' }).tap()
    await modal(page).getByText('Link copied').waitFor()
    const uri = await page.evaluate(() => navigator.clipboard.readText())
    assert.match(uri, /^wc:[0-9a-f]{64}@2\?/)

    const wallet = await openPhoneWallet(context, stack.urls.demo, uri)
    await wallet
      .getByRole('region', { name: 'Session proposal' })
      .getByRole('button', { name: 'Approve' })
      .tap()
    await page.bringToFront()
    await button(page)
      .and(page.getByRole('button', { name: /^0xf39F…2266.*, Account$/ }))
      .waitFor({ timeout: 30_000 })
    assert.equal((await evmAccount(page)).toLowerCase(), devAccount(0).address.toLowerCase())

    const message = 'Signed over WalletConnect on a phone'
    await ask(page, 'personal_sign', [stringToHex(message), devAccount(0).address])
    await wallet.bringToFront()
    await wallet
      .getByRole('article', { name: 'personal_sign' })
      .getByRole('button', { name: 'Approve' })
      .tap()
    const signed = await answer(page)
    assert.equal(signed.error, undefined)
    assert.ok(
      await verifyMessage({ address: devAccount(0).address, message, signature: signed.result as Hex }),
    )

    await page.bringToFront()
    await disconnect(page)
    await wallet.getByText('No sessions yet.').waitFor()
  })

  test('behavior: every target is at least 44 × 44 px and nothing scrolls sideways, at 390 and at 320 px, view by view', async () => {
    const { page } = await phone()
    const problems: string[] = []
    /** The view shown now (or the page, with the dialog closed), measured at 390 px and at 320 px. */
    const check = async (view: string) => {
      if (await modal(page).count()) await heading(page).waitFor()
      // Its entrance over (each view's own parts were waited for before).
      await page.evaluate(() => new Promise((done) => setTimeout(done, 250)))
      for (const width of [390, 320]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 568 })
        await page.evaluate(
          () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
        )
        const small: SmallTarget[] = await page.evaluate(smallTargetsIn, {
          minimum: TOUCH_TARGET_PX,
          hosts: ['wallet-modal', 'wallet-button'],
        })
        for (const target of small)
          problems.push(`${view} at ${width} px: ${target.control} is ${target.width} × ${target.height}`)
        for (const overflow of await page.evaluate(sidewaysOverflowIn, ['wallet-modal', 'wallet-button']))
          problems.push(`${view} at ${width} px: ${overflow}`)
        const frame = page.frames().find((candidate) => candidate.url().startsWith(stack.urls.frame))
        const frameShown = await page
          .locator('wallet-modal')
          .locator('iframe[data-wallet-frame]')
          .evaluate((element) => (element as HTMLElement).style.opacity === '1')
          .catch(() => false)
        if (frame && frameShown) {
          for (const target of await frame.evaluate(smallTargetsIn, { minimum: TOUCH_TARGET_PX }))
            problems.push(
              `${view} (wallet frame) at ${width} px: ${target.control} is ${target.width} × ${target.height}`,
            )
          for (const overflow of await frame.evaluate(sidewaysOverflowIn, undefined))
            problems.push(`${view} (wallet frame) at ${width} px: ${overflow}`)
        }
      }
      await page.setViewportSize({ width: 390, height: 844 })
    }
    const back = () => modal(page).locator('[part="back-button"]').tap()

    await check('the page with the button')
    await button(page).tap()
    await modal(page).getByText('All wallets').waitFor()
    await check('Connect')
    await modal(page).locator('[part="all-wallets"]').tap()
    await modal(page).getByRole('searchbox').or(modal(page).getByRole('textbox')).first().waitFor()
    await check('All wallets')
    await back()
    await showPairing(page)
    await check('WalletConnect QR code')
    await back()

    const email = `phone.layout.${Date.now()}@example.com`
    await submitEmail(page, email)
    await check('Enter the code')
    await enterCode(page, stack, email)
    await button(page)
      .and(page.getByRole('button', { name: /, Account$/ }))
      .waitFor({ timeout: 60_000 })
    await check('the page with the connected button')
    await button(page).tap()
    await modal(page).locator('[part="disconnect-button"]').waitFor()
    await check('Account')
    // Each view from Account, once what it shows last is there (Send's Max, a small text button).
    for (const [part, view, shown] of [
      ['network-button', 'Networks', '[part="network-item"]'],
      ['send-button', 'Send', '.link-button'],
      ['swap-button', 'Swap', 'input'],
      ['onramp-button', 'Buy crypto', 'input, select'],
      ['register-name-button', 'Register a name', 'input'],
    ] as const) {
      await modal(page).locator(`[part="${part}"]`).tap()
      await modal(page).locator('[part="back-button"]').waitFor()
      await modal(page).locator(shown).first().waitFor()
      await check(view)
      await back()
      await modal(page).locator('[part="disconnect-button"]').waitFor()
    }
    // A signature's approval: the wallet frame laid over the sheet.
    const address = await evmAccount(page)
    await ask(page, 'personal_sign', [stringToHex('Measured on a phone'), address])
    await walletFrame(page).getByRole('button', { name: 'Approve', exact: true }).waitFor({ timeout: 30_000 })
    await check('Approve request')
    await tapInFrame(page, 'Reject')
    assert.match((await answer(page)).error ?? '', /reject/i)

    assert.deepEqual(problems, [])
  })

  describe('closing the sheet as a phone does', () => {
    /** The centre of the sheet's title: where a finger takes the header (not on Back or Close). */
    const grip = async (page: Page) => {
      const box = await heading(page).boundingBox()
      if (!box) throw new Error('no heading')
      // Whole pixels, so the distances the page measures are the ones the finger moved.
      return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) }
    }
    /** Records what the panel's `translate` and `transition` were set to, from now on. */
    const watchPanel = (page: Page) =>
      panel(page).evaluate((element) => {
        const seen = { translate: [] as string[], transition: [] as string[] }
        ;(window as unknown as { panelSeen: typeof seen }).panelSeen = seen
        new MutationObserver(() => {
          const { translate, transition } = (element as HTMLElement).style
          seen.translate.push(translate)
          seen.transition.push(transition)
        }).observe(element, { attributes: true, attributeFilter: ['style'] })
      })
    const panelSeen = (page: Page) =>
      page.evaluate(
        () => (window as unknown as { panelSeen: { translate: string[]; transition: string[] } }).panelSeen,
      )
    /** Opened, and the phone gestures armed (the sheet draggable, its history entry pushed). */
    const openSheet = async (page: Page) => {
      await button(page).tap()
      await panel(page).and(page.locator('[data-draggable]')).waitFor()
      await page.waitForFunction(
        () => typeof (history.state as Record<string, unknown> | null)?.walletModalEntry === 'string',
      )
    }
    const closeCount = (page: Page) =>
      page.evaluate(() => {
        const record = window as unknown as { closes?: number }
        record.closes = 0
        document.addEventListener('wallet-close', () => {
          record.closes = (record.closes ?? 0) + 1
        })
      })

    test('behavior: a short drag follows the finger and settles back; a long slow drag closes; so does a quick flick', async () => {
      const { page } = await phone()
      await closeCount(page)
      await openSheet(page)
      await watchPanel(page)
      const start = await grip(page)
      // 80 px down, then back up to 40: settles back, open.
      const down = { x: start.x, y: start.y + 80 }
      await drag(
        page,
        start,
        [...steps(start, down, 8), ...steps(down, { x: start.x, y: start.y + 40 }, 4)],
        16,
      )
      await page.waitForFunction(() => {
        const element = document
          .querySelector('wallet-modal')
          ?.shadowRoot?.querySelector<HTMLElement>('[part="panel"]')
        return element?.style.translate === '' && element.style.transition === ''
      })
      const followed = await panelSeen(page)
      assert.ok(
        followed.translate.includes('0px 80px'),
        `the sheet followed the finger: ${followed.translate.join(', ')}`,
      )
      assert.ok(
        followed.transition.some((value) => value.startsWith('translate')),
        'and animated back',
      )
      assert.equal(await modal(page).count(), 1, 'still open')

      // 300 px down slowly (0.1 px/ms): past the distance, closes.
      await drag(page, start, steps(start, { x: start.x, y: start.y + 300 }, 60), 50)
      await modal(page).waitFor({ state: 'detached' })
      assert.equal(await page.evaluate(() => (window as unknown as { closes: number }).closes), 1)

      // A tap on the header's Close button is still a tap.
      await openSheet(page)
      await modal(page).locator('[part="close-button"]').tap()
      await modal(page).waitFor({ state: 'detached' })
      assert.equal(await page.evaluate(() => (window as unknown as { closes: number }).closes), 2)

      // 40 px in 20 ms: a flick. (Last: the browser's fling that follows eats the next tap, as on a phone.)
      await openSheet(page)
      const again = await grip(page)
      await drag(page, again, steps(again, { x: again.x, y: again.y + 40 }, 2), 10)
      await modal(page).waitFor({ state: 'detached' })
      assert.equal(await page.evaluate(() => (window as unknown as { closes: number }).closes), 3)
    })

    test('behavior: with reduced motion the sheet follows the finger, then closes without animating', async () => {
      const { page } = await phone()
      await page.emulateMedia({ reducedMotion: 'reduce' })
      await openSheet(page)
      await watchPanel(page)
      const start = await grip(page)
      await drag(page, start, steps(start, { x: start.x, y: start.y + 300 }, 30), 30)
      await modal(page).waitFor({ state: 'detached' })
      const seen = await panelSeen(page)
      assert.ok(seen.translate.includes('0px 300px'), 'it followed the finger')
      assert.deepEqual(
        seen.transition.filter((value) => value !== ''),
        [],
        'no transition was set: it moved only with the finger',
      )
    })

    test('behavior: a close the page refuses brings the sheet back; a view that cannot close does not move', async () => {
      const { page } = await phone()
      await page.evaluate(() =>
        document.addEventListener('wallet-request-close', (event) => {
          if ((window as unknown as { refuse?: boolean }).refuse) event.preventDefault()
        }),
      )
      await page.evaluate(() => {
        ;(window as unknown as { refuse?: boolean }).refuse = true
      })
      await openSheet(page)
      const shook = await watchShake(page)
      const start = await grip(page)
      await drag(page, start, steps(start, { x: start.x, y: start.y + 300 }, 20), 16)
      await shook()
      await page.waitForFunction(
        () =>
          document.querySelector('wallet-modal')?.shadowRoot?.querySelector<HTMLElement>('[part="panel"]')
            ?.style.translate === '',
      )
      assert.equal(await modal(page).count(), 1, 'still open, back in place')
      await page.evaluate(() => {
        ;(window as unknown as { refuse?: boolean }).refuse = false
      })
      await modal(page).locator('[part="close-button"]').tap()
      await modal(page).waitFor({ state: 'detached' })

      // Sign-in required and no session: the sign-in view cannot close, so the sheet does not move.
      await page.evaluate(() => {
        const element = document.querySelector('wallet-modal')
        element?.setAttribute('siwx', 'required')
        void element?.open({ view: 'SIWXSignMessage' })
      })
      await modal(page).getByRole('heading', { name: 'Sign in', exact: true }).waitFor()
      assert.equal(await panel(page).getAttribute('data-draggable'), null)
      await watchPanel(page)
      const grip2 = await grip(page)
      await drag(page, grip2, steps(grip2, { x: grip2.x, y: grip2.y + 300 }, 20), 16)
      await page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      )
      assert.deepEqual((await panelSeen(page)).translate, [], 'the sheet did not move')
      assert.equal(await modal(page).count(), 1)
    })

    test('behavior: the back gesture closes the dialog and the page stays where it was', async () => {
      const { page } = await phone()
      const url = page.url()
      await closeCount(page)
      await openSheet(page)
      await page.goBack({ waitUntil: 'commit' })
      await modal(page).waitFor({ state: 'detached' })
      assert.equal(page.url(), url)
      assert.equal(await page.evaluate(() => (window as unknown as { closes: number }).closes), 1)

      // When the page refuses the close, back leaves it open and its entry is there again.
      await page.evaluate(() =>
        document.addEventListener('wallet-request-close', (event) => event.preventDefault(), { once: true }),
      )
      await openSheet(page)
      const entries = await page.evaluate(() => history.length)
      await page.goBack({ waitUntil: 'commit' })
      await page.waitForFunction(
        () => typeof (history.state as Record<string, unknown> | null)?.walletModalEntry === 'string',
      )
      assert.equal(await modal(page).count(), 1, 'still open')
      assert.equal(await page.evaluate(() => history.length), entries)
      // Now it may close: back closes it.
      await page.goBack({ waitUntil: 'commit' })
      await modal(page).waitFor({ state: 'detached' })
      assert.equal(page.url(), url)
    })

    test("behavior: a page that routes with pushState keeps its URL and state; the dialog's entry goes when it closes by its Close button", async () => {
      const { page } = await phone()
      const origin = new URL(stack.urls.demo).origin
      await page.evaluate(() => history.pushState({ route: 'shop' }, '', '/shop?demoWallet=off'))
      await openSheet(page)
      assert.equal(new URL(page.url()).pathname, '/shop', 'the entry keeps the page URL')
      await modal(page).locator('[part="close-button"]').tap()
      await modal(page).waitFor({ state: 'detached' })
      await page.waitForFunction(
        () =>
          (history.state as { route?: string } | null)?.route === 'shop' &&
          !('walletModalEntry' in (history.state as object)),
      )
      assert.equal(page.url(), `${origin}/shop?demoWallet=off`)
      // One back is the page's own previous route: no entry of the dialog's was left behind.
      await page.goBack({ waitUntil: 'commit' })
      await page.waitForFunction(() => location.pathname === '/')
      assert.equal(await page.evaluate(() => history.state), null)

      // A route the page pushes while the dialog is open stays when the dialog closes.
      await openSheet(page)
      await page.evaluate(() => history.pushState({ route: 'checkout' }, '', '/checkout?demoWallet=off'))
      await modal(page).locator('[part="close-button"]').tap()
      await modal(page).waitFor({ state: 'detached' })
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 100))))
      assert.equal(page.url(), `${origin}/checkout?demoWallet=off`)
      assert.deepEqual(await page.evaluate(() => history.state), { route: 'checkout' })
    })
  })
})
