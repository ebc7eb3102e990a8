import { sendKeys, setViewport } from '@web/test-runner-commands'
import { sweep } from './axeSweep.ts'
import type { Mounted } from './helpers.ts'
import {
  assert,
  buttonByName,
  connectWallet,
  deepActive,
  equal,
  frames,
  headingOf,
  installWallet,
  mountWithoutChain,
  waitFor,
} from './helpers.ts'

/**
 * The name and on-ramp views on their own: focus, the SPEC section 5 rule red and
 * announced, axe in both themes at desktop and 375 px, 200 % zoom, and right to left. The service
 * behind them is end-to-end territory (test/e2e/names-onramp.test.ts).
 */

let page: Mounted | undefined
let wallet: ReturnType<typeof installWallet> | undefined

afterEach(async () => {
  page?.cleanup()
  wallet?.remove()
  page = undefined
  wallet = undefined
  document.documentElement.style.height = ''
  await setViewport({ width: 800, height: 600 })
})

const shadow = () => page?.modal.shadowRoot as ShadowRoot

/** axe in both themes at desktop and 375 px (`axeSweep.ts`), with the page as tall as the window. */
async function axeSweep(view: string) {
  document.documentElement.style.height = '100%'
  await sweep(page?.modal as HTMLElement, view)
}

async function openView(
  view: 'RegisterAccountName' | 'RegisterAccountNameSuccess' | 'OnRamp',
  attributes = {},
  data?: Record<string, unknown>,
) {
  wallet = installWallet()
  page = mountWithoutChain({ features: 'send,names,onramp', ...attributes })
  await connectWallet(page)
  await page.modal.open({ view, ...(data ? { data } : {}) })
}

const RULE = 'Wallet-side name: letters, digits and hyphens, at least 4 characters'

describe('RegisterAccountName and RegisterAccountNameSuccess', function () {
  this.timeout(60_000)

  it('error: abc breaks the SPEC rule: red under the field, announced, the field invalid and described by it', async () => {
    await openView('RegisterAccountName')
    const input = await waitFor(
      () => shadow().querySelector<HTMLInputElement>('input[name="name"]'),
      'the field',
    )
    await waitFor(() => deepActive() === input, 'focus on the name field')
    equal(headingOf(page?.modal as HTMLElement)?.textContent, 'Register a name')
    await sendKeys({ type: 'abc' })
    const error = await waitFor(
      () => shadow().querySelector('form [role="alert"] [part="error"]'),
      'the rule',
    )
    equal(error.textContent, RULE)
    equal(input.getAttribute('aria-invalid'), 'true')
    assert(
      input.getAttribute('aria-describedby')?.includes(error.id ?? '-'),
      'the field is described by the error',
    )
    assert(
      getComputedStyle(error).color !== getComputedStyle(input).color,
      'the error has its own (danger) colour',
    )
    // Register with a broken name: the rule again, focus back on the field, nothing signed.
    ;(buttonByName(page?.modal as HTMLElement, /^Register/) as HTMLButtonElement).click()
    await frames()
    equal(deepActive(), input)
    equal(wallet?.controls.pending(), 0)
    await axeSweep('RegisterAccountName, rule broken')
  })

  it('behavior: at 375 px and 200 % zoom the form fits and scrolls, no sideways scroll', async () => {
    await openView('RegisterAccountName')
    await waitFor(() => shadow().querySelector('input[name="name"]'), 'the field')
    for (const size of [
      { width: 375, height: 667 },
      { width: 640, height: 360 },
    ]) {
      await setViewport(size)
      await frames()
      assert(document.documentElement.scrollWidth <= size.width, `no sideways scroll at ${size.width}`)
      const submit = buttonByName(page?.modal as HTMLElement, /^Register/) as HTMLElement
      const body = shadow().querySelector('.body') as HTMLElement
      body.scrollTop = body.scrollHeight
      await frames()
      const box = submit.getBoundingClientRect()
      assert(
        box.right <= size.width && box.bottom <= size.height,
        `Register reachable at ${size.width}×${size.height}`,
      )
    }
  })

  it('default: the success view says the name is yours and Done takes focus, then returns to Account', async () => {
    await openView('RegisterAccountNameSuccess', {}, { name: 'demo-user.wallet.test' })
    const done = await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Done'), 'Done')
    await waitFor(() => deepActive() === done, 'focus on Done')
    equal(shadow().querySelector('[role="status"] h3')?.textContent, 'demo-user.wallet.test is yours')
    await axeSweep('RegisterAccountNameSuccess')
    done.click()
    await waitFor(() => page?.modal.walletConfig.$modal.get().router.view === 'Account', 'Account')
  })

  it('args: in Arabic the view is right to left and the rule is in Arabic', async () => {
    await openView('RegisterAccountName', { locale: 'ar' })
    await waitFor(() => shadow().querySelector('input[name="name"]'), 'the field')
    equal(shadow().querySelector('.root')?.getAttribute('dir'), 'rtl')
    await sendKeys({ type: 'abc' })
    const error = await waitFor(
      () => shadow().querySelector('form [role="alert"] [part="error"]'),
      'the rule',
    )
    equal(error.textContent, 'اسم المحفظة: حروف وأرقام وشرطات، 4 أحرف على الأقل')
    await axeSweep('RegisterAccountName, ar')
  })
})

describe('OnRamp', function () {
  this.timeout(60_000)

  it('error: without a wallet service the failure is red and announced, and focus is on the first field', async () => {
    await openView('OnRamp')
    equal(headingOf(page?.modal as HTMLElement)?.textContent, 'Buy crypto')
    const alert = await waitFor(
      () => shadow().querySelector('form [role="alert"] [part="error"]'),
      'the error',
    )
    assert(alert.textContent?.startsWith('That did not work:'), alert.textContent ?? '')
    await waitFor(() => deepActive()?.tagName === 'SELECT', 'focus on the token')
    await axeSweep('OnRamp, no service')
  })
})
