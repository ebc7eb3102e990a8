import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { type Hex, verifyMessage, verifyTypedData } from 'viem'
import { answerInFrame, connections, modal, signInByEmail, walletFrame } from './embedded-helpers.ts'
import { launchBrowser, startTestStack, type TestStack } from './harness.ts'
import { approvalButtonsInView, phoneContext, walletFrameOf } from './phone-emulation.ts'

/** A typed-data request with more rows than a phone's screen holds (an order with many fields). */
const longOrder = (address: Hex) => ({
  domain: { name: 'Long Order Exchange', version: '1', chainId: 31337, verifyingContract: address },
  types: {
    Order: [
      { name: 'maker', type: 'address' },
      { name: 'taker', type: 'address' },
      ...Array.from({ length: 14 }, (_, index) => ({ name: `leg${index + 1}`, type: 'uint256' })),
      { name: 'memo', type: 'string' },
    ],
  },
  primaryType: 'Order' as const,
  message: {
    maker: address,
    taker: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    ...Object.fromEntries(
      Array.from({ length: 14 }, (_, index) => [`leg${index + 1}`, String(1000 + index)]),
    ),
    memo: 'Fourteen legs, settled together',
  },
})

/** The frame's approval as the person sees it on opening: its scroll, what has focus, its heading. */
const openedAs = async (page: Page) =>
  (await walletFrameOf(page)).evaluate(() => ({
    scrollTop: document.scrollingElement?.scrollTop ?? -1,
    focused: document.activeElement?.id ?? document.activeElement?.localName ?? '',
    scrolls: (document.scrollingElement?.scrollHeight ?? 0) > window.innerHeight,
  }))

/**
 * The embedded wallet's approval on a phone (an iPhone emulated in Chromium): a long request opens at
 * its top with Approve and Reject in view (a bar that stays at the bottom of the frame, inside the
 * visual viewport); where the engine cannot prove the frame visible (iOS: WebKit, no
 * IntersectionObserver v2), the approval is a tab of its own, which closes itself once answered (or,
 * where the browser will not close it, says where to go), and the page has the signature, also when
 * its tab was frozen meanwhile.
 */
describe('embedded wallet: the approval on a phone', { timeout: 300_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let context: BrowserContext | undefined

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
  })
  after(async () => {
    await context?.close()
    await browser?.close()
    await stack?.stop()
  })

  const dappUrl = () => new URL('/dapp.html', stack.urls.demo).href

  it('default: a long typed-data request opens at its top, focused on its heading, with Approve and Reject inside the visual viewport; each new request opens at its top again', async () => {
    context = await phoneContext(browser)
    const page = await context.newPage()
    await page.goto(dappUrl())
    await signInByEmail(page, stack, `phone.${Date.now()}@example.com`)
    const address = (await connections(page)).eip155?.address as Hex
    assert.match(address, /^0x[0-9a-fA-F]{40}$/)

    const sign = (typed: ReturnType<typeof longOrder>) =>
      page.evaluate(
        ([from, data]) =>
          document
            .querySelector('wallet-modal')
            ?.getProvider('eip155')
            .request({ method: 'eth_signTypedData_v4', params: [from, data] }) as Promise<Hex>,
        [address, JSON.stringify(typed)] as const,
      )
    const typed = longOrder(address)
    for (const round of [1, 2]) {
      const signature = sign(typed)
      signature.catch(() => {})
      await walletFrame(page).getByText('Fourteen legs, settled together').waitFor()
      await walletFrame(page).locator('button[data-action="approve"]:not([aria-disabled])').waitFor()
      const opened = await openedAs(page)
      assert.ok(opened.scrolls, `round ${round}: the request is taller than the frame's room`)
      assert.equal(opened.scrollTop, 0, `round ${round}: the request opens at its top`)
      assert.equal(opened.focused, 'approval-title', `round ${round}: its heading has focus`)
      const inView = await approvalButtonsInView(page)
      assert.ok(
        inView.approve && inView.reject,
        `round ${round}: Approve and Reject in view: ${inView.detail}`,
      )
      // The person reads down to the end (the frame scrolls; the bar stays), then approves.
      await (await walletFrameOf(page)).evaluate(() => document.scrollingElement?.scrollTo(0, 1e6))
      assert.ok(
        (await approvalButtonsInView(page)).approve,
        `round ${round}: Approve still in view at the end`,
      )
      await answerInFrame(page, 'Approve')
      assert.ok(await verifyTypedData({ address, ...typed, signature: await signature }))
      await modal(page).waitFor({ state: 'detached' })
    }
  })

  it('behavior: without IntersectionObserver v2 (iOS), the approval is a tab of its own; approved there, it closes and the page, frozen meanwhile, has the signature once it is back', async () => {
    await context?.close()
    context = await phoneContext(browser, { withoutVisibilityTracking: true })
    const page = await context.newPage()
    await page.goto(dappUrl())
    await signInByEmail(page, stack, `phone.window.${Date.now()}@example.com`)
    const address = (await connections(page)).eip155?.address as Hex
    const message = 'Signed on a phone, in a tab of its own'
    const signature = page.evaluate((text) => window.dapp.signMessage(text), message)
    signature.catch(() => {})
    const review = walletFrame(page).getByRole('button', { name: 'Review in a new window' })
    await walletFrame(page).locator('button[data-action="approve"]:not([aria-disabled])').waitFor()
    assert.ok((await approvalButtonsInView(page)).approve, 'the frame’s button in view')
    const opened = context.waitForEvent('page')
    await review.click()
    const tab = await opened
    await tab.getByText(message).waitFor()
    // A tab, as a phone opens it (no popup's size asked for on a touch screen).
    assert.deepEqual(
      await tab.evaluate(() => [window.innerWidth, window.innerHeight]),
      [390, 844],
      'a phone-sized tab',
    )

    // The site's tab is frozen while the person is in the approval tab, as a phone does to a tab in the
    // background: its timers (the frame's look at the window among them) wait until it is back.
    // Chromium still delivers the window's message to the frozen frame; the case where it arrives only
    // after the window closed (iOS suspends the whole process) is test/unit/frame/approvalWindow.test.ts's.
    const site = await context.newCDPSession(page)
    await site.send('Page.setWebLifecycleState', { state: 'frozen' })
    const approve = tab.locator('button[data-action="approve"]:not([aria-disabled])')
    await approve.click()
    await site.send('Page.setWebLifecycleState', { state: 'active' })
    // Back on the site: the frame takes the decision, the tab closes, the page has its signature.
    const closed = tab.isClosed() ? Promise.resolve() : tab.waitForEvent('close')
    assert.ok(await verifyMessage({ address, message, signature: await signature }))
    await closed
    assert.equal(tab.isClosed(), true, 'the approval tab closed')

    // A browser that refuses to close the tab (its close does nothing): the tab says where to go.
    const again = 'Signed again, the tab left open'
    const second = page.evaluate((text) => window.dapp.signMessage(text), again)
    second.catch(() => {})
    await walletFrame(page).locator('button[data-action="approve"]:not([aria-disabled])').waitFor()
    const reopened = context.waitForEvent('page')
    await review.click()
    const kept = await reopened
    await kept.getByText(again).waitFor()
    await kept.evaluate(() => {
      window.close = () => {}
    })
    await kept.locator('button[data-action="approve"]:not([aria-disabled])').click()
    assert.ok(await verifyMessage({ address, message: again, signature: await second }))
    await kept
      .getByRole('status')
      .filter({ hasText: `Approved. You can go back to ${new URL(dappUrl()).host}.` })
      .waitFor()
    assert.equal(kept.isClosed(), false)
    await kept.close()
  })
})
