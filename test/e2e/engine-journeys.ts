/**
 * The core journeys (the browser wallet's and the e-mail sign-in's), written once for the engines
 * beyond Chromium: Firefox (over WebDriver BiDi with puppeteer-core, test/e2e/embedded-firefox.test.ts)
 * and WebKit (WebDriver classic with test/e2e/webdriver.ts, test/e2e/webkit.test.ts). Each engine gives
 * an {@link EngineTab}: scripts in the page or in the wallet frame, and a person's click at a point of
 * the viewport (real pointer input: the modal's focus handling, the frame's user activation). Elements
 * are found from a script, through open shadow roots, by selector and text.
 */
import assert from 'node:assert/strict'
import { createPublicClient, type Hex, http, parseEther, stringToHex, verifyMessage } from 'viem'
import { devAccount } from '../../server/dev/chain/index.ts'
import { codeOf, nextMail } from './embedded-helpers.ts'
import type { TestStack } from './harness.ts'

/** What a journey needs of one tab (a page, or the frame's approval window) in an engine. */
export interface EngineTab {
  goto(url: string): Promise<void>
  /** Runs `fn` in the page with `args` (JSON), awaiting a promise it answers. */
  evaluate<T, A extends unknown[]>(fn: (...args: A) => T, ...args: A): Promise<Awaited<T>>
  /** Runs `fn` in the wallet frame (the modal's `iframe[data-wallet-frame]`, its own origin) of this page. */
  evaluateInFrame<T, A extends unknown[]>(fn: (...args: A) => T, ...args: A): Promise<Awaited<T>>
  /** A person's click at viewport point (`x`, `y`) of this tab. */
  clickAt(x: number, y: number): Promise<void>
  /** Keys typed into what has focus. */
  type(text: string): Promise<void>
  /** The next top-level window opened whose URL starts with `prefix`, once it is there. */
  waitForWindow(prefix: string): Promise<EngineTab>
  /** Whether a window whose URL starts with `prefix` is open. */
  windowOpen(prefix: string): Promise<boolean>
  /** A new tab of the same browser (its cookies and storage) at `url`. */
  openTab(url: string): Promise<EngineTab>
  close(): Promise<void>
}

/** Waits for `probe` to answer something truthy. */
export async function until<T>(
  what: string,
  probe: () => Promise<T>,
  timeoutMs = 30_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  for (;;) {
    const value = await probe().catch((error: unknown) => {
      last = error
      return undefined
    })
    if (value) return value as NonNullable<T>
    if (Date.now() > deadline)
      throw new Error(`Timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** A pattern a page script can rebuild (a RegExp does not cross as JSON). */
type Text = { source: string; flags: string } | null
const text = (pattern?: RegExp): Text => (pattern ? { source: pattern.source, flags: pattern.flags } : null)

/**
 * In the page: the centre of the first visible element matching `selector` (in the shadow root of the
 * element `host`, or with `host` '' in the document, and every open shadow root inside) whose text
 * matches `pattern`, scrolled into view; `null` when there is none or something else is on top of it.
 */
function centreOf(host: string, selector: string, pattern: Text): { x: number; y: number } | null {
  const wanted = pattern ? new RegExp(pattern.source, pattern.flags) : null
  const search = (root: Document | ShadowRoot): Element | null => {
    for (const element of root.querySelectorAll(selector)) {
      const box = element.getBoundingClientRect()
      if (box.width > 0 && box.height > 0 && (!wanted || wanted.test(element.textContent ?? '')))
        return element
    }
    for (const element of root.querySelectorAll('*')) {
      const inner = element.shadowRoot ? search(element.shadowRoot) : null
      if (inner) return inner
    }
    return null
  }
  const start = host ? document.querySelector(host)?.shadowRoot : document
  const found = start ? search(start) : null
  if (!found) return null
  found.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' })
  const box = found.getBoundingClientRect()
  // Not under something else (the modal's backdrop still fading, a prompt): the point hits it or its
  // own shadow content.
  const x = box.left + box.width / 2
  const y = box.top + box.height / 2
  let root: Document | ShadowRoot = document
  let hit: Element | null = null
  for (;;) {
    const next: Element | null = root.elementFromPoint(x, y)
    if (!next || next === hit) break
    hit = next
    if (!next.shadowRoot || next.shadowRoot === root) break
    root = next.shadowRoot
  }
  if (hit && hit !== found && !found.contains(hit)) return null
  return { x, y }
}

/**
 * A person's click on the element `selector` (matching `pattern`) in `host`'s shadow root (`''`: the
 * whole page), once it is there and on top.
 */
export async function press(tab: EngineTab, host: string, selector: string, pattern?: RegExp): Promise<void> {
  // Only once it has stopped moving (the modal's opening animation, a list that grows above it): a
  // click at the old place would land on something else.
  const point = await until(`${host} ${selector}${pattern ? ` ${pattern}` : ''}`, async () => {
    const first = await tab.evaluate(centreOf, host, selector, text(pattern))
    for (let probe = 0; probe < 2; probe++) {
      await new Promise((resolve) => setTimeout(resolve, 150))
      const again = await tab.evaluate(centreOf, host, selector, text(pattern))
      if (!first || !again || first.x !== again.x || first.y !== again.y) return undefined
    }
    return first
  })
  await tab.clickAt(point.x, point.y)
}

/** Clicks the field `selector` (which focuses it), clears it, and types `value`. */
export async function fill(tab: EngineTab, host: string, selector: string, value: string): Promise<void> {
  await press(tab, host, selector)
  await tab.evaluate(() => {
    let active = document.activeElement
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
    if (active instanceof HTMLInputElement) active.select()
  })
  await tab.type(value)
}

/** The text of the modal's dialog (its shadow root), '' while closed. */
export const modalText = (tab: EngineTab) =>
  tab.evaluate(
    () =>
      document.querySelector('wallet-modal')?.shadowRoot?.querySelector('[role="dialog"]')?.textContent ?? '',
  )

/** Waits until the modal's dialog shows `pattern`; a failure says what it showed instead. */
export const modalShows = (tab: EngineTab, pattern: RegExp) =>
  until(`the modal to show ${pattern}`, async () => pattern.test(await modalText(tab))).catch(
    async (error: Error) => {
      const shown = await tab
        .evaluate(() => {
          const root = document.querySelector('wallet-modal')?.shadowRoot
          const view = root?.querySelector<HTMLElement>('[part="panel"]')?.dataset.view ?? 'closed'
          // Its words, not the styles its parts render beside them.
          const body = root?.querySelector('[part="body"]')?.cloneNode(true) as Element | undefined
          for (const style of body?.querySelectorAll('style') ?? []) style.remove()
          const text = body?.textContent?.replace(/\s+/g, ' ').trim() ?? ''
          return `${view}: ${text.slice(-300)}`
        })
        .catch(() => 'unknown')
      throw new Error(`${error.message}; the modal shows ${shown}`, { cause: error })
    },
  )

/** The modal's connection on EVM: status and first account. */
export const evmConnection = (tab: EngineTab) =>
  tab.evaluate(() => {
    const record = document.querySelector('wallet-modal')?.walletConfig.$connections.get().eip155
    return { status: record?.status ?? 'none', address: record?.accounts[0] ?? '' }
  })

/** Presses the Demo Wallet's Approve (its prompt, in its own shadow root on the page). */
const approveInDemoWallet = (tab: EngineTab) => press(tab, '', '[data-demo-wallet="approve"]')

/**
 * The browser-wallet journey on the demo page: open the modal, connect the Demo Wallet, sign a message
 * (verified with viem), send 1.5 ETH from the Send view (receipt and balance on the chain), switch to
 * the second local chain, disconnect. Timings of each step go to `log`.
 */
export async function browserWalletJourney(
  tab: EngineTab,
  stack: TestStack,
  log: (line: string) => void = () => {},
): Promise<void> {
  const step = async (name: string, run: () => Promise<void>) => {
    const started = Date.now()
    await run()
    log(`${name}: ${Date.now() - started} ms`)
  }
  const wallet = devAccount(0).address
  const chain = createPublicClient({ transport: http(stack.urls.chain) })

  await step('open the modal', async () => {
    await tab.goto(stack.urls.demo)
    await press(tab, 'wallet-button', 'button', /Connect Wallet/)
    // The whole Connect view: e-mail and social sign-in above the wallets (they load after the list).
    await modalShows(tab, /Continue with Google[\s\S]*Demo Wallet[\s\S]*All wallets/)
    // The dialog is the modal one, and focus went into it (keyboard users start there).
    const focusInside = await tab.evaluate(() => {
      const host = document.querySelector('wallet-modal')
      return document.activeElement === host && Boolean(host?.shadowRoot?.activeElement)
    })
    assert.equal(focusInside, true, 'focus moved into the dialog')
  })

  await step('connect the Demo Wallet', async () => {
    await press(tab, 'wallet-modal', 'button', /Demo Wallet/)
    await approveInDemoWallet(tab)
    const connected = await until('connected on EVM', async () => {
      const now = await evmConnection(tab)
      return now.status === 'connected' ? now : undefined
    })
    assert.equal(connected.address.toLowerCase(), wallet.toLowerCase())
    await until('the account button', () =>
      tab.evaluate(() =>
        /0xf39F…2266/.test(
          document.querySelector('wallet-button')?.shadowRoot?.querySelector('button')?.textContent ?? '',
        ),
      ),
    )
  })

  await step('sign a message', async () => {
    const message = 'Hello from the engines'
    await tab.evaluate((text) => {
      const record = window as unknown as { signed?: unknown }
      record.signed = undefined
      const provider = document.querySelector('wallet-modal')?.getProvider('eip155')
      void provider
        ?.request({
          method: 'personal_sign',
          params: [
            text,
            document.querySelector('wallet-modal')?.walletConfig.$connections.get().eip155?.accounts[0],
          ],
        })
        .then(
          (signature) => {
            record.signed = { signature }
          },
          (error: { message?: string }) => {
            record.signed = { error: error.message }
          },
        )
    }, message)
    await approveInDemoWallet(tab)
    const signed = await until('the signature', () =>
      tab.evaluate(() => (window as unknown as { signed?: { signature?: string; error?: string } }).signed),
    )
    assert.equal(signed.error, undefined)
    assert.ok(await verifyMessage({ address: wallet, message, signature: signed.signature as Hex }))
  })

  await step('send a transaction', async () => {
    const receiver = '0x70997970C51812Dc3A010C7D01B50E2d73dC79C8'
    const before = await chain.getBalance({ address: receiver })
    await press(tab, 'wallet-button', 'button', /Account/)
    await press(tab, 'wallet-modal', '[part="send-button"]')
    await fill(tab, 'wallet-modal', 'input[name="amount"]', '1.5')
    await fill(tab, 'wallet-modal', 'input[name="receiver"]', receiver)
    await press(tab, 'wallet-modal', '[part="send-submit"]')
    await approveInDemoWallet(tab)
    await modalShows(tab, /Sent 1\.5 ETH to 0x7099…79C8/)
    assert.equal(await chain.getBalance({ address: receiver }), before + parseEther('1.5'))
    await press(tab, 'wallet-modal', '[part="send-result"] button', /Done/)
  })

  await step('switch network', async () => {
    await press(tab, 'wallet-modal', '[part="network-button"]')
    await press(tab, 'wallet-modal', '[part="network-item"]', /Local Chain 2/)
    // The Demo Wallet does not know the second chain: it is added (its prompt), then switched to.
    await approveInDemoWallet(tab)
    await until('on Local Chain 2', () =>
      tab.evaluate(
        () =>
          document.querySelector('wallet-modal')?.walletConfig.$network.get()?.caipNetworkId ===
          'eip155:31338',
      ),
    )
    await modalShows(tab, /Local Chain 2/)
  })

  await step('disconnect', () => disconnectFromAccount(tab))
}

/**
 * In the wallet frame of `tab`: the centre, in the page's viewport, of the frame's first visible
 * button whose text is `name` and is armed (no `aria-disabled`); `null` until there is one.
 */
async function frameButton(tab: EngineTab, name: RegExp) {
  const inFrame = await tab.evaluateInFrame(
    (source: string, flags: string) => {
      const wanted = new RegExp(source, flags)
      for (const button of document.querySelectorAll('button')) {
        const box = button.getBoundingClientRect()
        if (
          box.width > 0 &&
          wanted.test(button.textContent?.trim() ?? '') &&
          !button.hasAttribute('aria-disabled')
        ) {
          button.scrollIntoView({ block: 'nearest', behavior: 'instant' })
          const shown = button.getBoundingClientRect()
          return { x: shown.left + shown.width / 2, y: shown.top + shown.height / 2 }
        }
      }
      return null
    },
    name.source,
    name.flags,
  )
  if (!inFrame) return null
  const frame = await tab.evaluate(() => {
    const element = document
      .querySelector('wallet-modal')
      ?.shadowRoot?.querySelector<HTMLIFrameElement>('iframe[data-wallet-frame]')
    if (!element) return null
    const box = element.getBoundingClientRect()
    return { x: box.left + element.clientLeft, y: box.top + element.clientTop }
  })
  return frame ? { x: frame.x + inFrame.x, y: frame.y + inFrame.y } : null
}

/** {@link frameButton} once it has stopped moving (the frame's first height is corrected a moment later). */
async function stillFrameButton(tab: EngineTab, name: RegExp) {
  const first = await frameButton(tab, name)
  await new Promise((resolve) => setTimeout(resolve, 150))
  const again = await frameButton(tab, name)
  return first && again && first.x === again.x && first.y === again.y ? again : null
}

/** A person's click on the wallet frame's button `name`, once it is armed and still. */
export async function pressInFrame(tab: EngineTab, name: RegExp): Promise<void> {
  const point = await until(`${name} in the wallet frame`, () => stillFrameButton(tab, name), 60_000)
  await tab.clickAt(point.x, point.y)
}

/**
 * The e-mail journey on the demo dapp: the address, the mailed code, the recovery set-up put off in
 * the frame, connected on EVM; then a message signed with approval (the frame's Approve, or, where the
 * engine cannot prove the frame is visible, the approval window it opens), verified with viem. Answers
 * the address and how the approval went (`frame` or `window`).
 */
export async function emailJourney(
  tab: EngineTab,
  stack: TestStack,
  email: string,
): Promise<{ address: Hex; approvedIn: 'frame' | 'window' }> {
  await tab.goto(new URL('/dapp.html', stack.urls.demo).href)
  await press(tab, 'wallet-button', 'button', /Connect Wallet/)
  await fill(tab, 'wallet-modal', 'input[type="email"]', email)
  await press(tab, 'wallet-modal', 'form button[type="submit"]')
  const mail = await nextMail(stack, email, 0)
  await press(tab, 'wallet-modal', 'input[autocomplete="one-time-code"]')
  assert.doesNotMatch(await modalText(tab), /could not load embedded wallet/)
  await tab.type(codeOf(mail))
  // A new wallet is offered the recovery set-up in the frame: put off with Later.
  await pressInFrame(tab, /^Later$/)
  const address = (
    await until(
      'connected on EVM',
      async () => {
        const now = await evmConnection(tab)
        return now.status === 'connected' ? now : undefined
      },
      60_000,
    )
  ).address as Hex
  assert.match(address, /^0x[0-9a-fA-F]{40}$/)

  const message = 'Hello from the embedded wallet'
  await tab.evaluate((text) => {
    const record = window as unknown as { signed?: unknown }
    record.signed = undefined
    window.dapp.signMessage(text).then(
      (signature) => {
        record.signed = { signature }
      },
      (error: { message?: string }) => {
        record.signed = { error: error.message }
      },
    )
  }, message)
  await until('the request in the frame', () =>
    tab.evaluateInFrame((text: string) => document.body.textContent?.includes(text) ?? false, message),
  )
  const approve = await until('Approve in the frame', () =>
    stillFrameButton(tab, /^(Approve|Review in a new window)$/),
  )
  const label = await tab.evaluateInFrame(
    () => document.querySelector('button[data-action="approve"]')?.textContent?.trim() ?? '',
  )
  const approvalUrl = new URL('/approve', stack.urls.frame).href
  let approvedIn: 'frame' | 'window' = 'frame'
  if (label === 'Review in a new window') {
    // No IntersectionObserver v2: the frame opens its approval window, where the person approves.
    approvedIn = 'window'
    const opened = tab.waitForWindow(approvalUrl)
    await tab.clickAt(approve.x, approve.y)
    const review = await opened
    await until('the request in the approval window', () =>
      review.evaluate((text: string) => document.body.textContent?.includes(text) ?? false, message),
    )
    await press(review, '', 'button[data-action="approve"]:not([aria-disabled])')
  } else {
    await tab.clickAt(approve.x, approve.y)
  }
  const signed = await until('the signature', () =>
    tab.evaluate(() => (window as unknown as { signed?: { signature?: string; error?: string } }).signed),
  )
  assert.equal(signed.error, undefined)
  assert.ok(await verifyMessage({ address, message, signature: signed.signature as Hex }))
  if (approvedIn === 'window')
    await until('the approval window closed', async () => !(await tab.windowOpen(approvalUrl)))
  return { address, approvedIn }
}

/**
 * A phone's first open (the tab a phone: narrow, touch) on the demo page with no browser wallet: the
 * Connect view as a bottom sheet (the screen's width, on its bottom edge), offering the e-mail sign-in,
 * the socials, the catalogue's WalletConnect wallets and the generic WalletConnect entry, and no
 * browser wallet.
 */
export async function phoneOpenJourney(tab: EngineTab, stack: TestStack): Promise<void> {
  await tab.goto(new URL('/?demoWallet=off', stack.urls.demo).href)
  await press(tab, 'wallet-button', 'button', /Connect Wallet/)
  for (const offered of [/Continue with Google/, /Rainbow/, /MetaMask/, /WalletConnect/, /All wallets/])
    await modalShows(tab, offered)
  assert.doesNotMatch(await modalText(tab), /Demo Wallet/)
  const sheet = await tab.evaluate(() => {
    const root = document.querySelector('wallet-modal')?.shadowRoot
    const panel = root?.querySelector<HTMLElement>('[part="panel"]')
    const box = panel?.getBoundingClientRect()
    return {
      view: panel?.dataset.view,
      email: Boolean(root?.querySelector('input[type="email"]')),
      left: box?.left,
      right: box && Math.round(box.right),
      bottom: box && Math.round(box.bottom),
      width: document.documentElement.clientWidth,
      height: window.innerHeight,
    }
  })
  assert.equal(sheet.view, 'Connect')
  assert.equal(sheet.email, true, 'the e-mail field is offered')
  assert.deepEqual(
    [sheet.left, sheet.right, sheet.bottom],
    [0, sheet.width, sheet.height],
    'a bottom sheet: the whole width, on the bottom edge',
  )
}

/** From a connected page: Account from the button, then {@link disconnectFromAccount}. */
export async function disconnectJourney(tab: EngineTab): Promise<void> {
  await press(tab, 'wallet-button', 'button', /Account/)
  await disconnectFromAccount(tab)
}

/** From the Account view: Disconnect, and the button offers to connect again. */
async function disconnectFromAccount(tab: EngineTab): Promise<void> {
  await press(tab, 'wallet-modal', '[part="disconnect-button"]')
  await until('disconnected', async () => (await evmConnection(tab)).status === 'disconnected')
  await until('Connect Wallet again', () =>
    tab.evaluate(
      () =>
        document.querySelector('wallet-button')?.shadowRoot?.querySelector('button')?.textContent ===
        'Connect Wallet',
    ),
  )
}

/**
 * WalletConnect from the generic entry on the demo page with no browser wallet: the pairing link of
 * the QR code view pasted into the demo phone wallet in another tab, its proposal approved there;
 * connected with the wallet's account; a message signed over the session, approved in the wallet and
 * verified with viem; disconnected from Account, which ends the session in the wallet too.
 */
export async function walletConnectJourney(tab: EngineTab, stack: TestStack): Promise<void> {
  const wallet = devAccount(0).address
  await tab.goto(new URL('/?demoWallet=off', stack.urls.demo).href)
  await press(tab, 'wallet-button', 'button', /Connect Wallet/)
  // Once the view is whole (the catalogue's wallets come in above the entry and move it down).
  await modalShows(tab, /All wallets/)
  await press(tab, 'wallet-modal', 'button', /WalletConnect/)
  await modalShows(tab, /Copy link/)
  const uri = await until('the pairing link', () =>
    tab.evaluate(() => document.querySelector('wallet-modal')?.walletConfig.$pairing.get().uri),
  ).catch(async (error: Error) => {
    // Say what the pairing was doing instead (its status and error) and what the view showed.
    const pairing = await tab.evaluate(() => {
      const { uri: _uri, ...rest } = document.querySelector('wallet-modal')?.walletConfig.$pairing.get() ?? {}
      return JSON.stringify(rest)
    })
    throw new Error(`${error.message}; the pairing: ${pairing}; the view: ${await modalText(tab)}`, {
      cause: error,
    })
  })
  assert.match(uri, /^wc:[0-9a-f]{64}@2\?/)
  // The link pasted into the wallet's pairing field, as a person does with a copied link.
  const phone = await tab.openTab(new URL('/wallets/phone.html', stack.urls.demo).href)
  await fill(phone, '', '#uri', uri)
  await until('Pair enabled', () =>
    phone.evaluate(() => document.querySelector<HTMLButtonElement>('#pair')?.disabled === false),
  )
  await press(phone, '', '#pair')
  await press(phone, '', '#proposal button.approve')
  const connected = await until('connected over WalletConnect', async () => {
    const now = await evmConnection(tab)
    return now.status === 'connected' ? now : undefined
  })
  assert.equal(connected.address.toLowerCase(), wallet.toLowerCase())

  const message = 'Signed over WalletConnect'
  await tab.evaluate(
    (text, from) => {
      const record = window as unknown as { signed?: unknown }
      record.signed = undefined
      void document
        .querySelector('wallet-modal')
        ?.getProvider('eip155')
        .request({ method: 'personal_sign', params: [text, from] })
        .then(
          (signature) => {
            record.signed = { signature }
          },
          (error: { message?: string }) => {
            record.signed = { error: error.message }
          },
        )
    },
    stringToHex(message),
    wallet,
  )
  await press(phone, '', '#requests article button.approve')
  const signed = await until('the signature', () =>
    tab.evaluate(() => (window as unknown as { signed?: { signature?: string; error?: string } }).signed),
  )
  assert.equal(signed.error, undefined)
  assert.ok(await verifyMessage({ address: wallet, message, signature: signed.signature as Hex }))

  await disconnectJourney(tab)
  await until('the session gone from the wallet', () =>
    phone.evaluate(() => document.getElementById('sessions-empty')?.hidden === false),
  )
  await phone.close()
}
