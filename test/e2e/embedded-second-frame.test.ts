import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { answerInFrame, connections, modal, signInByEmail, walletFrame } from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

type Heard = { id?: string; type: string; payload?: { code?: unknown; preferredAccountType?: string } }

/**
 * What a second frame gets without the person: a script of the site opens its own iframe to the wallet
 * frame's URL, handshakes with a nonce of its choice, and, the session being in the frame origin's storage
 * for this site, acts signed in. It asks for the user and for the other account type. The e-mail is in no
 * message it hears, and the account type does not change without the person's click on Approve in a visible
 * frame: the request waits in the script's own (hidden) frame, where no one can see or click it.
 */
describe('embedded wallet: a second frame opened by the page', { timeout: 180_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let page: Page
  const email = `second.${Date.now()}@example.com`
  const nonce = randomBytes(16).toString('base64url')

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
    page = await (await newContext(browser)).newPage()
    await page.goto(new URL('/dapp.html', stack.urls.demo).href)
    await signInByEmail(page, stack, email)
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  /** The script's own frame: loaded, handshaken, every message it hears kept in `window.heard`. */
  const openOwnFrame = () =>
    page.evaluate(
      async ({ frameUrl, nonce }) => {
        const frame = document.createElement('iframe')
        frame.id = 'own-wallet'
        frame.src = `${frameUrl}/?projectId=dev-project&chainId=eip155:31337&version=4#nonce=${nonce}`
        document.body.append(frame)
        await new Promise((resolve) => frame.addEventListener('load', resolve))
        const channel = new MessageChannel()
        const heard: unknown[] = []
        const scope = window as unknown as { heard: unknown[]; ask: (type: string, payload: unknown) => void }
        scope.heard = heard
        channel.port1.onmessage = (event) => heard.push(event.data)
        let id = 0
        scope.ask = (type, payload) => channel.port1.postMessage({ id: `own-${++id}`, type, payload })
        frame.contentWindow?.postMessage(
          { type: 'wallet-elements:frame-handshake', nonce },
          new URL(frameUrl).origin,
          [channel.port2],
        )
      },
      { frameUrl: stack.urls.frame, nonce },
    )
  const ask = (type: string, payload: unknown) =>
    page.evaluate(
      ([type, payload]) =>
        (window as unknown as { ask: (type: string, payload: unknown) => void }).ask(type as string, payload),
      [type, payload] as const,
    )
  const heard = () => page.evaluate(() => (window as unknown as { heard: Heard[] }).heard)
  const answerTo = async (type: string, after = 0) => {
    for (let poll = 0; poll < 200; poll++) {
      const found = (await heard()).slice(after).find((message) => message.type.startsWith(`${type}_`))
      if (found) return found
      await page.waitForTimeout(50)
    }
    throw new Error(`no answer to ${type}`)
  }

  it('attack: the page asks its own frame for the user and switches the account type: no e-mail, no switch without Approve', async () => {
    const eoa = (await connections(page)).eip155?.address
    await openOwnFrame()
    await answerTo('FRAME')
    // Signed in there too: the user, its connection, its accounts.
    await ask('IS_CONNECTED', {})
    assert.deepEqual((await answerTo('IS_CONNECTED')).payload, { isConnected: true })
    await ask('GET_USER', { chainId: 'eip155:31337' })
    const user = await answerTo('GET_USER')
    assert.equal(user.type, 'GET_USER_SUCCESS')
    assert.equal(user.payload?.preferredAccountType, 'eoa')

    // The other account type, both ways of asking: each waits for a person in a frame nobody sees.
    const before = (await heard()).length
    await ask('SET_PREFERRED_ACCOUNT', { type: 'smartAccount' })
    await ask('INIT_SMART_ACCOUNT', {})
    await answerTo('APPROVAL', before)
    await page.waitForTimeout(2000)
    assert.deepEqual(
      (await heard()).filter((message) => /^(SET_PREFERRED_ACCOUNT|INIT_SMART_ACCOUNT)_/.test(message.type)),
      [],
      'the switch was answered without the person',
    )
    await ask('GET_USER', { chainId: 'eip155:31337' })
    const still = (await heard()).filter((message) => message.type === 'GET_USER_SUCCESS')
    for (let poll = 0; poll < 100 && still.length < 2; poll++) {
      await page.waitForTimeout(50)
      still.splice(
        0,
        still.length,
        ...(await heard()).filter((message) => message.type === 'GET_USER_SUCCESS'),
      )
    }
    assert.equal(still.at(-1)?.payload?.preferredAccountType, 'eoa')

    // The modal still has the EOA, and Account shows the person their e-mail: drawn by the wallet frame.
    assert.equal((await connections(page)).eip155?.address, eoa)
    await page.locator('wallet-button').getByRole('button').click()
    const type = modal(page).locator('[part="account-type"]')
    await type.getByText('EOA', { exact: true }).waitFor()
    await walletFrame(page).getByText(email).waitFor()
    assert.equal(await modal(page).getByText(email).count(), 0, 'the e-mail is not in the page')

    // Whatever the page heard, on its own frame's channel: never the e-mail.
    const everything = JSON.stringify(await heard())
    assert.ok(everything.includes('GET_USER_SUCCESS'))
    assert.ok(!everything.toLowerCase().includes(email.toLowerCase()), 'the e-mail reached the page')
  })

  it('the modal’s own switch: the person approves in the visible frame, and only then it changes', async () => {
    await modal(page).getByRole('button', { name: 'Switch to a smart account' }).click()
    await walletFrame(page).getByRole('heading', { name: 'Switch to a smart account' }).waitFor()
    await answerInFrame(page, 'Approve')
    await modal(page).locator('[part="account-type"]').getByText('Smart account', { exact: true }).waitFor()
    // Back on Account, the frame draws the e-mail again.
    await walletFrame(page).getByText(email).waitFor()
  })
})
