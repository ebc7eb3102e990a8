/** Helpers of the embedded wallet's end-to-end tests and bench: the dev inbox, the modal, the frame. */
import assert from 'node:assert/strict'
import type { BrowserContext, FrameLocator, Page } from 'playwright-core'
import { createPublicClient, createWalletClient, type Hex, http, parseEther, verifyMessage } from 'viem'
import { devAccount } from '../../server/dev/chain/index.ts'
import type { TestStack } from './harness.ts'

/** Mail the local stack caught for an address, newest first (the dev inbox's JSON). */
export async function inbox(
  stack: TestStack,
  to: string,
): Promise<{ subject: string; text: string; receivedAt: number }[]> {
  const response = await fetch(`${stack.urls.service}/dev/inbox/messages?to=${encodeURIComponent(to)}`)
  return ((await response.json()) as { messages: { subject: string; text: string; receivedAt: number }[] })
    .messages
}

/** Waits for the next mail to an address (more than `seen` of them), and answers it. */
export async function nextMail(stack: TestStack, to: string, seen: number) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const messages = await inbox(stack, to)
    if (messages.length > seen && messages[0]) return messages[0]
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`No new mail to ${to}`)
}

export const codeOf = (mail: { text: string }) => {
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1]
  if (!code) throw new Error('No code in the mail')
  return code
}

/** The device-approval link of a mail: `/device#<token>` on the frame's origin (its host as served). */
export const deviceLinkOf = (stack: TestStack, mail: { text: string }) => {
  const origin = new URL(stack.urls.frame).origin.replace(/[.:/]/g, (c) => `\\${c}`)
  return new RegExp(`(${origin}/device#[A-Za-z0-9_-]{43})`).exec(mail.text)?.[1]
}

export const modal = (page: Page) => page.locator('wallet-modal').getByRole('dialog')
/** The wallet frame (its own origin), laid over the ApproveTransaction view. */
export const walletFrame = (page: Page) => page.frameLocator('iframe[data-wallet-frame]')

/**
 * Answers the wallet frame's approval as a person does: clicks Approve or Reject once it is armed, and
 * again if the click did not take. Chromium drops input to a cross-origin frame that has just moved (the
 * modal scrolled or re-laid out under it), and the frame disarms while it is moved or covered (see
 * src/frame/visibility.ts): a person whose click did nothing clicks again; a test must too, or it waits
 * forever on a signature that never started.
 */
export async function answerInFrame(page: Page, answer: 'Approve' | 'Reject') {
  const frame = walletFrame(page)
  const approve = frame.locator('[data-action="approve"]')
  for (let attempt = 0; attempt < 5; attempt++) {
    await frame.getByRole('button', { name: answer }).click()
    // Taken: the view is gone (answered) or Approve is busy signing.
    for (let poll = 0; poll < 40; poll++) {
      if (
        (await approve.count()) === 0 ||
        (await approve.getAttribute('aria-busy').catch(() => null)) === 'true'
      )
        return
      await page.waitForTimeout(50)
    }
  }
  throw new Error(`${answer} in the wallet frame did not take after 5 clicks`)
}

/** Connections of the page's modal, by namespace. */
export const connections = (page: Page) =>
  page.evaluate(() => {
    const all = document.querySelector('wallet-modal')?.walletConfig.$connections.get() ?? {}
    return Object.fromEntries(
      Object.entries(all).map(([namespace, record]) => [
        namespace,
        { status: record?.status, address: record?.accounts[0] },
      ]),
    ) as Record<string, { status: string; address: string | undefined }>
  })

/**
 * After a sign-in: the modal is connected on EVM and on Solana; answers the EVM address. `label` names
 * the sign-in in a failure (a loop over providers).
 */
export async function connectedOnBoth(page: Page, label?: string): Promise<string> {
  const connected = await connections(page)
  assert.equal(connected.eip155?.status, 'connected', label)
  assert.equal(connected.solana?.status, 'connected', label)
  assert.match(connected.eip155?.address ?? '', /^0x[0-9a-fA-F]{40}$/, label)
  return connected.eip155?.address ?? ''
}

/** The social username the modal keeps (SPEC 3 storage key), as stored. */
export const keptUsername = (page: Page) =>
  page.evaluate(() => Object.entries(localStorage).find(([key]) => key.endsWith('social-username'))?.[1])

/** From the page with the modal closed: Connect, the e-mail, Continue. */
export async function submitEmail(page: Page, email: string) {
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await modal(page).getByLabel('Email').fill(email)
  await modal(page).getByRole('button', { name: 'Continue', exact: true }).click()
}

/** Matches a route of the embedded-wallet API whatever its query (`?projectId=`), for `context.route`. */
/**
 * Signs in with the embedded wallet by e-mail from the page's open modal: the address, then the first
 * code mailed to it, until the modal closes.
 *
 * @example
 * await page.goto(new URL('/dapp.html', stack.urls.demo).href)
 * await signInByEmail(page, stack, 'person@example.com')
 */
export async function signInByEmail(page: Page, stack: TestStack, email: string): Promise<void> {
  await submitEmail(page, email)
  await modal(page)
    .getByLabel('Code')
    .fill(codeOf(await nextMail(stack, email, 0)))
  await closedAfterSignIn(page)
}

/**
 * A new wallet in user custody is offered the recovery set-up in the frame right after its sign-in:
 * the person puts it off with Later.
 *
 * @example
 * await modal(page).getByLabel('Code').fill(code)
 * await putOffRecovery(page)
 */
export async function putOffRecovery(page: Page): Promise<void> {
  const later = walletFrame(page).getByRole('button', { name: 'Later', exact: true })
  await later.waitFor({ timeout: 60_000 })
  // Chromium may drop a click on a frame that just moved: click again until the view goes.
  for (let attempt = 0; attempt < 10 && (await later.count()) > 0; attempt++) {
    await later.click({ timeout: 5_000 }).catch(() => {})
    await later.waitFor({ state: 'detached', timeout: 2_000 }).catch(() => {})
  }
}

/**
 * After a sign-in's last step, until the modal closes, putting the recovery set-up off if the frame
 * offers it ({@link putOffRecovery}); the same as waiting for the modal to close when it does not.
 *
 * @example
 * await modal(page).getByLabel('Code').fill(code)
 * await closedAfterSignIn(page)
 */
export async function closedAfterSignIn(root: Page | FrameLocator): Promise<void> {
  const frame = root.frameLocator('iframe[data-wallet-frame]')
  const later = frame.getByRole('button', { name: 'Later', exact: true })
  const closed = root
    .locator('wallet-modal')
    .getByRole('dialog')
    .waitFor({ state: 'detached', timeout: 60_000 })
    .catch(async (error: Error) => {
      // What the wallet frame showed instead, for the failure's message.
      const shown = await frame
        .locator('body')
        .textContent({ timeout: 1_000 })
        .catch(() => 'no frame')
      throw new Error(`${error.message}\nthe wallet frame shows ${JSON.stringify(shown)}`, { cause: error })
    })
  for (;;) {
    const step = await Promise.race([
      closed.then(() => 'closed' as const),
      later.waitFor({ timeout: 60_000 }).then(
        () => 'asked' as const,
        () => 'closed' as const,
      ),
    ])
    if (step === 'closed') break
    // Chromium may drop a click on a frame that just moved: click again until the view goes.
    await later.click({ timeout: 5_000 }).catch(() => {})
    await later.waitFor({ state: 'detached', timeout: 2_000 }).catch(() => {})
  }
  await closed
}

/**
 * Asks for a code for `email` from the page's Connect view, as {@link submitEmail}; when the service
 * answers with the resend cooldown ("Please try again after N seconds", N at most 30), waits that long
 * and presses Continue again. Resolves once the code form shows.
 *
 * @example
 * await submitEmailPastCooldown(page, email)
 * await modal(page).getByLabel('Code').fill(codeOf(await nextMail(stack, email, seen)))
 */
export async function submitEmailPastCooldown(page: Page, email: string): Promise<void> {
  await submitEmail(page, email)
  const cooldown = modal(page)
    .getByRole('alert')
    .filter({ hasText: /^Please try again after \d+ seconds$/ })
  const codeHeading = modal(page).getByRole('heading', { name: 'Enter the code' })
  await cooldown.or(codeHeading).waitFor()
  if (await cooldown.isVisible()) {
    const seconds = Number(/(\d+)/.exec((await cooldown.textContent()) ?? '')?.[1])
    assert.ok(seconds > 0 && seconds <= 30, `a cooldown of at most 30 s: ${seconds}`)
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
    await modal(page).getByRole('button', { name: 'Continue', exact: true }).click()
  }
  await codeHeading.waitFor()
}

/**
 * E-mail and code in a browser the service does not know yet (waiting out a resend cooldown); a known
 * address then waits for the mailed approval link, which `approver`'s browser opens and approves with
 * the code this one shows.
 *
 * @example
 * await signInNewBrowser(stack, second, email, first)
 */
export async function signInNewBrowser(stack: TestStack, page: Page, email: string, approver: Page) {
  const seen = (await inbox(stack, email)).length
  await submitEmailPastCooldown(page, email)
  await modal(page)
    .getByLabel('Code')
    .fill(codeOf(await nextMail(stack, email, seen)))
  await modal(page)
    .getByRole('heading', { name: 'Approve this browser' })
    .waitFor()
    .catch(async (error: Error) => {
      // What the person saw instead, and the mails, for the failure's message.
      const shown = await modal(page)
        .textContent({ timeout: 1_000 })
        .catch(() => 'no modal')
      const frameText = await walletFrame(page)
        .locator('body')
        .textContent({ timeout: 1_000 })
        .catch(() => 'no frame')
      const mails = (await inbox(stack, email)).map((mail) => mail.subject)
      throw new Error(
        `${error.message}\nthe modal shows ${JSON.stringify(shown)}\nthe frame shows ${JSON.stringify(frameText)}\nmails (newest first, ${seen} before): ${JSON.stringify(mails)}`,
        { cause: error },
      )
    })
  const compare = ((await modal(page).locator('.compare-code strong').textContent()) ?? '').trim()
  const mail = await nextMail(stack, email, seen + 1)
  const link = deviceLinkOf(stack, mail)
  assert.ok(link, `an approval link in: ${mail.text}`)
  const approval = await approver.context().newPage()
  await approval.goto(link)
  await approval.getByLabel('Code shown on the browser that is signing in').fill(compare)
  await approval.getByRole('button', { name: 'Approve this browser' }).click()
  await approval.getByText(/Approved/).waitFor()
  await approval.close()
}

/**
 * A person's click on a button of the wallet frame: the mouse at the button's box in the page, so the
 * frame gets a real user activation (a passkey ceremony in a cross-origin frame needs one; playwright's
 * frame clicks carry a synthetic gesture). Clicked again until `done` holds: Chromium drops input to a
 * cross-origin frame that has just moved.
 *
 * @example
 * await pressInFrame(page, 'Use a passkey', async () => (await modal(page).count()) === 0)
 */
/** Whether the wallet frame is what the page has at (`x`, `y`), looking through open shadow roots. */
const frameIsAt = (page: Page, x: number, y: number) =>
  page.evaluate(
    ([px, py]) => {
      let root: Document | ShadowRoot = document
      for (;;) {
        const found: Element | null = root.elementFromPoint(px as number, py as number)
        if (!found) return false
        if (found.shadowRoot && found.shadowRoot !== root) root = found.shadowRoot
        else return found.matches('iframe[data-wallet-frame]')
      }
    },
    [x, y],
  )

export async function pressInFrame(page: Page, name: string | RegExp, done: () => Promise<boolean>) {
  const frame = walletFrame(page)
  const button = frame.getByRole('button', { name, exact: typeof name === 'string' })
  for (let attempt = 0; attempt < 8; attempt++) {
    // Only once the button has stopped moving (the frame's first height is corrected a few ms later, and
    // a click at the old place lands on another button, Cancel say) and on the frame itself (not on the
    // modal's view beneath, where a click navigates away and cancels the frame's view).
    const measure = () => button.boundingBox({ timeout: 5_000 }).catch(() => null)
    const before = await measure()
    await page.waitForTimeout(150)
    const box = await measure()
    const still = before && box && before.x === box.x && before.y === box.y && before.height === box.height
    const x = box ? box.x + box.width / 2 : 0
    const y = box ? box.y + box.height / 2 : 0
    if (still && (await frameIsAt(page, x, y))) await page.mouse.click(x, y)
    for (let poll = 0; poll < 40; poll++) {
      if (await done()) return
      await page.waitForTimeout(50)
    }
  }
  const shown = await frame
    .locator('#app')
    .textContent()
    .catch(() => '')
  const beneath = await modal(page)
    .getByRole('heading')
    .allTextContents()
    .catch(() => [])
  throw new Error(
    `${name} in the wallet frame did not take; the frame shows: ${shown}; the modal: ${beneath.join(' / ') || 'closed'}`,
  )
}

export const apiRoute = (path: string) => (url: URL) => url.pathname === `/embedded/v1/${path}`

/**
 * From the page with the modal closed: the site asks `personal_sign`, the person approves in the
 * frame, and the signature verifies for `address`.
 */
export async function signWithApproval(page: Page, address: string, message: string) {
  const signature = page.evaluate((text) => window.dapp.signMessage(text), message)
  await modal(page).getByRole('heading', { name: 'Approve request' }).waitFor()
  await walletFrame(page).getByText(message).waitFor()
  await answerInFrame(page, 'Approve')
  assert.ok(await verifyMessage({ address: address as Hex, message, signature: (await signature) as Hex }))
}

/** Sends `ether` ETH from dev account 0 to `address` on the stack's first chain, and waits for its receipt. */
export async function fundEth(stack: TestStack, address: string, ether: string) {
  const transport = http(stack.urls.chain)
  const funder = createWalletClient({ account: devAccount(0), transport })
  const hash = await funder.sendTransaction({ to: address as Hex, value: parseEther(ether), chain: null })
  await createPublicClient({ transport }).waitForTransactionReceipt({ hash })
}

/**
 * From the page with the modal closed: the site sends `ether` ETH to `receiver` with viem
 * (`window.dapp.sendEth`), the frame shows the amount, the receiver and the network, the person
 * approves, the receipt on the local chain succeeds and the receiver's balance moved by the amount.
 */
export async function sendWithApproval(page: Page, stack: TestStack, receiver: string, ether: string) {
  const chain = createPublicClient({ transport: http(stack.urls.chain) })
  const before = await chain.getBalance({ address: receiver as Hex })
  const sent = page.evaluate(([to, amount]) => window.dapp.sendEth(to as Hex, amount), [
    receiver,
    ether,
  ] as const)
  await walletFrame(page).getByText(`${ether} ETH`, { exact: true }).waitFor()
  await walletFrame(page).getByText(receiver).waitFor()
  await walletFrame(page).getByText('Local Chain').waitFor()
  await answerInFrame(page, 'Approve')
  assert.equal((await sent).status, 'success')
  assert.equal(await chain.getBalance({ address: receiver as Hex }), before + parseEther(ether))
}

/**
 * The page's own scripts listening to everything they can, from before the page's first script: every
 * MessagePort message in and out (both ends of the modal's channel, listeners and the `onmessage`
 * setter alike) and every window message, recorded as lines in `window.seen`.
 *
 * @example
 * await listenAsPageScript(context)
 * const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen)
 */
export async function listenAsPageScript(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { seen: string[] }).seen = seen
    const record = (kind: string, data: unknown) => {
      try {
        seen.push(`${kind} ${JSON.stringify(data)}`)
      } catch {
        seen.push(`${kind} ${String(data)}`)
      }
    }
    const post = MessagePort.prototype.postMessage
    MessagePort.prototype.postMessage = function (this: MessagePort, data: unknown, ...rest: never[]) {
      record('out', data)
      return post.call(this, data, ...rest)
    } as typeof post
    const listen = MessagePort.prototype.addEventListener
    MessagePort.prototype.addEventListener = function (
      this: MessagePort,
      ...args: Parameters<typeof listen>
    ) {
      if (args[0] === 'message')
        listen.call(this, 'message', (event) => record('in', (event as MessageEvent).data))
      return listen.apply(this, args)
    } as typeof listen
    const onmessage = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage')
    Object.defineProperty(MessagePort.prototype, 'onmessage', {
      configurable: true,
      get() {
        return onmessage?.get?.call(this)
      },
      set(handler: ((event: MessageEvent) => void) | null) {
        onmessage?.set?.call(
          this,
          handler &&
            function (this: MessagePort, event: MessageEvent) {
              record('in', event.data)
              return handler.call(this, event)
            },
        )
      },
    })
    window.addEventListener('message', (event) => record('window', event.data), true)
  })
}

/**
 * The device shares this browser keeps on the frame's origin, opened inside the frame with
 * their non-extractable wrapping keys (as the frame's own code does: src/frame/keys/deviceShare.ts),
 * as hex: what a page script must never see.
 *
 * @example
 * const shares = await deviceSharesIn(page, stack) // ['01a3…']
 */
export async function deviceSharesIn(page: Page, stack: TestStack): Promise<string[]> {
  const frame = page.frames().find((candidate) => candidate.url().startsWith(stack.urls.frame))
  assert.ok(frame, 'the wallet frame is loaded')
  return frame.evaluate(async () => {
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('wallet-frame', 1)
      open.onsuccess = () => resolve(open.result)
      open.onerror = () => reject(open.error)
    })
    const read = <T>(request: (store: IDBObjectStore) => IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        const done = request(database.transaction('keys', 'readonly').objectStore('keys'))
        done.onsuccess = () => resolve(done.result)
        done.onerror = () => reject(done.error)
      })
    const names = (await read((store) => store.getAllKeys())).map(String)
    const shares: string[] = []
    for (const name of names.filter((key) => key.startsWith('device-share:'))) {
      const record = await read<{
        key: CryptoKey
        iv: Uint8Array<ArrayBuffer>
        ciphertext: Uint8Array<ArrayBuffer>
      }>((store) => store.get(name))
      const userId = name.slice('device-share:'.length)
      const share = await crypto.subtle.decrypt(
        {
          name: 'AES-GCM',
          iv: record.iv,
          additionalData: new TextEncoder().encode(`wallet-elements:device-share:v1:${userId}`),
        },
        record.key,
        record.ciphertext,
      )
      shares.push(Array.from(new Uint8Array(share), (byte) => byte.toString(16).padStart(2, '0')).join(''))
    }
    database.close()
    return shares
  })
}

/**
 * This browser loses everything the wallet kept in it (the frame's device share and session, the
 * page's connection), as a new device would, and loads the demo dapp again; its authenticator stays,
 * so a passkey is the one thing the person still has (a synced or roaming passkey).
 *
 * @example
 * await loseWalletData(page, stack)
 * await signInNewBrowser(stack, page, email, approver)
 */
export async function loseWalletData(page: Page, stack: TestStack): Promise<void> {
  const frame = page.frames().find((candidate) => candidate.url().startsWith(stack.urls.frame))
  assert.ok(frame, 'the wallet frame is loaded')
  // The frame's storage is partitioned under the page's site: cleared from inside the frame, and the
  // database deleted before the page leaves. (Asked for and not waited for, the deletion was at times
  // dropped with the frame's document, the browser kept its share, and "Approve this browser" never
  // came: the frame closes its connection after each use, so the deletion is blocked a moment at most.)
  const deleted = await frame.evaluate(
    () =>
      new Promise<string>((resolve) => {
        localStorage.clear()
        sessionStorage.clear()
        const request = indexedDB.deleteDatabase('wallet-frame')
        request.onsuccess = () => resolve('deleted')
        request.onerror = () => resolve(`not deleted: ${request.error?.message}`)
      }),
  )
  assert.equal(deleted, 'deleted', "the frame's key store")
  await page.evaluate(() => {
    localStorage.clear()
    sessionStorage.clear()
  })
  await page.goto('about:blank')
  await page.goto(new URL('/dapp.html', stack.urls.demo).href)
}

/**
 * A CDP virtual authenticator (platform passkeys, user verified, with or without PRF) on `page`'s
 * session: it serves the cross-site wallet frame too. Answers the session and the authenticator's id.
 */
export async function addPasskeyAuthenticator(context: BrowserContext, page: Page, hasPrf = true) {
  const cdp = await context.newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      hasPrf,
      automaticPresenceSimulation: true,
    },
  })
  return { cdp, authenticatorId }
}
