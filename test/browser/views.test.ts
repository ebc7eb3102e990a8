import { sendKeys } from '@web/test-runner-commands'
import {
  assert,
  buttonByName,
  connectWallet,
  deepActive,
  dialogOf,
  equal,
  giveBalance,
  headingOf,
  innerButton,
  openModal,
  waitFor,
} from './helpers.ts'
import {
  cleanUpAfterEach,
  inModal,
  LIGHT_DANGER,
  mountModal,
  openSend,
  text,
  wallet,
} from './views-helpers.ts'

/**
 * The accessibility and usability audit of the modal's views, one test per finding: focus and errors here;
 * layout (200 % zoom, 375 px) in views-layout.test.ts; locales, right to left and inline mode in
 * views-locales.test.ts. Each fails on the code before the fix.
 */

cleanUpAfterEach()

describe('focus never falls to <body>', () => {
  it('behavior: opening by keyboard lands on Connect’s first control, not on the panel', async () => {
    // The page discovers wallets once it is idle (off the first paint, one frame after the idle
    // callback); opened before that, the heading takes focus and the rows arrive after it.
    let discovering = false
    window.addEventListener('eip6963:requestProvider', () => (discovering = true), { once: true })
    wallet()
    const mounted = mountModal()
    const button = await waitFor(() => {
      const inner = innerButton(mounted.button)
      return inner && !inner.disabled && inner
    }, 'the wallet button')
    await waitFor(() => discovering, 'the page to discover wallets once idle')
    button.focus()
    await sendKeys({ press: 'Enter' })
    await waitFor(() => dialogOf(mounted.modal), 'the dialog')
    const row = await waitFor(() => buttonByName(mounted.modal, 'Demo Wallet'), 'Demo Wallet')
    await waitFor(() => deepActive() === row, 'focus on the first wallet')
  })

  it('behavior: choosing a wallet moves focus to the waiting view’s heading; Try again keeps it in the dialog', async () => {
    const demo = wallet({ autoApprove: false })
    const mounted = mountModal()
    innerButton(mounted.button)?.focus()
    await openModal(mounted)
    const row = await waitFor(() => buttonByName(mounted.modal, 'Demo Wallet'), 'Demo Wallet')
    row.focus()
    await sendKeys({ press: 'Enter' })
    await waitFor(() => demo.controls.pending() === 1, 'the wallet prompt')
    await waitFor(() => deepActive() === headingOf(mounted.modal), 'focus on the heading')
    equal(headingOf(mounted.modal)?.textContent, 'Connect Wallet')
    demo.controls.reject()
    const retry = await waitFor(() => buttonByName(mounted.modal, 'Try again'), 'Try again')
    await waitFor(() => deepActive() === retry, 'focus on Try again')
    await sendKeys({ press: 'Enter' })
    // Try again goes away while the wallet is asked again: focus goes to the heading, not the page.
    await waitFor(() => !buttonByName(mounted.modal, 'Try again'), 'the retry to go')
    await waitFor(() => deepActive() === headingOf(mounted.modal), 'focus back on the heading')
    equal(document.activeElement === document.body, false)
  })

  it('behavior: the WalletConnect QR view puts focus on Copy link', async () => {
    const mounted = mountModal({ 'relay-url': 'ws://127.0.0.1:9', 'project-id': 'focus' })
    await openModal(mounted)
    const row = await waitFor(() => buttonByName(mounted.modal, /WalletConnect/), 'WalletConnect')
    await waitFor(() => deepActive() === row, 'focus on the first control')
    await sendKeys({ press: 'Enter' })
    const copy = await waitFor(() => buttonByName(mounted.modal, 'Copy link'), 'Copy link')
    await waitFor(() => deepActive() === copy, 'focus on Copy link')
    // Without a link yet, Copy link says it cannot act rather than dropping focus.
    equal(copy.getAttribute('aria-disabled'), 'true')
  })

  it('behavior: Send puts focus on the first invalid field; while sending, Send keeps focus (aria-disabled)', async () => {
    const demo = wallet()
    const mounted = mountModal()
    await connectWallet(mounted)
    await giveBalance(mounted, demo.controls.address)
    const form = await openSend(mounted)
    const submit = form.querySelector<HTMLButtonElement>('[type="submit"]') as HTMLButtonElement
    submit.focus()
    await sendKeys({ press: 'Enter' })
    const amount = form.querySelector<HTMLInputElement>('input[name="amount"]') as HTMLInputElement
    await waitFor(() => deepActive() === amount, 'focus on Amount')
    await sendKeys({ type: '1' })
    const receiver = form.querySelector<HTMLInputElement>('input[name="receiver"]') as HTMLInputElement
    receiver.focus()
    await sendKeys({ type: '0x70997970C51812Dc3A010C7D01B50E2d73dC79C8' })
    demo.controls.autoApprove(false)
    submit.focus()
    await sendKeys({ press: 'Enter' })
    await waitFor(() => demo.controls.pending() === 1, 'the transaction prompt')
    equal(submit.getAttribute('aria-disabled'), 'true')
    equal(deepActive(), submit, 'focus stays on Send while sending')
    equal(amount.readOnly, true, 'the fields are read-only while sending')
    demo.controls.reject()
    await waitFor(() => submit.getAttribute('aria-disabled') === 'false', 'the form back')
    equal(deepActive(), submit)
  })

  it('behavior: a pending network switch keeps focus on the network chosen', async () => {
    const demo = wallet()
    const mounted = mountModal()
    await connectWallet(mounted)
    await openModal(mounted)
    ;(await waitFor(() => buttonByName(mounted.modal, /^Local Chain\s*Network/), 'network')).click()
    const second = await waitFor(() => buttonByName(mounted.modal, /^Local Chain 2/), 'Local Chain 2')
    demo.controls.autoApprove(false)
    second.focus()
    await sendKeys({ press: 'Enter' })
    await waitFor(() => demo.controls.pending() === 1, 'the switch prompt')
    equal(second.getAttribute('aria-disabled'), 'true')
    equal(deepActive(), second, 'focus stays on the network')
    demo.controls.reject()
    await waitFor(() => second.getAttribute('aria-disabled') === 'false', 'the list back')
    await waitFor(() => text().includes('User rejected the request.'), 'the error')
  })
})

describe('errors look and read as errors', () => {
  it('error: Connection declined is red, has an icon and is in an alert', async () => {
    const demo = wallet({ autoApprove: false })
    const mounted = mountModal()
    await openModal(mounted)
    ;(await waitFor(() => buttonByName(mounted.modal, 'Demo Wallet'), 'Demo Wallet')).click()
    await waitFor(() => demo.controls.pending() === 1, 'the wallet prompt')
    demo.controls.reject()
    const message = await waitFor(
      () =>
        [...(mounted.modal.shadowRoot?.querySelectorAll<HTMLElement>('.message') ?? [])].find((element) =>
          element.textContent?.includes('Connection declined'),
        ),
      'the message',
    )
    equal(getComputedStyle(message).color, LIGHT_DANGER)
    assert(message.querySelector('svg'), 'an icon besides the colour')
    assert(message.closest('[role="alert"]'), 'announced')
  })

  it('error: Signature declined is red and announced; a blocked close says why', async () => {
    const demo = wallet()
    const mounted = mountModal()
    mounted.modal.config = {
      siwx: {
        required: true,
        addSession: async () => {},
        getSessions: async () => [],
        revokeSession: async () => {},
      },
    }
    await openModal(mounted)
    ;(await waitFor(() => buttonByName(mounted.modal, 'Demo Wallet'), 'Demo Wallet')).click()
    await waitFor(() => headingOf(mounted.modal)?.textContent === 'Sign in', 'the sign-in view')
    // The avatar has a size (it had none).
    const avatar = inModal('.avatar') as HTMLElement
    equal(JSON.stringify([avatar.offsetWidth, avatar.offsetHeight]), '[64,64]')
    await sendKeys({ press: 'Escape' })
    const why = await waitFor(
      () =>
        [...(mounted.modal.shadowRoot?.querySelectorAll<HTMLElement>('[role="alert"] .message') ?? [])].find(
          (element) => element.textContent === 'Sign in or disconnect to close',
        ),
      'the reason',
    )
    equal(getComputedStyle(why).color, LIGHT_DANGER)
    assert(dialogOf(mounted.modal)?.hasAttribute('data-shake'), 'and the shake')
    demo.controls.autoApprove(false)
    ;(await waitFor(() => buttonByName(mounted.modal, 'Sign in'), 'Sign in')).click()
    await waitFor(() => demo.controls.pending() === 1, 'the signature prompt')
    demo.controls.reject()
    const declined = await waitFor(
      () =>
        [...(mounted.modal.shadowRoot?.querySelectorAll<HTMLElement>('.message') ?? [])].find(
          (element) => element.textContent === 'Signature declined',
        ),
      'Signature declined',
    )
    equal(getComputedStyle(declined).color, LIGHT_DANGER)
    assert(declined.closest('[role="alert"]') && declined.querySelector('svg'), 'announced, with an icon')
  })

  it('error: Send marks each invalid field (aria-invalid, aria-describedby), with no alert inside a status', async () => {
    const demo = wallet()
    const mounted = mountModal()
    await connectWallet(mounted)
    await giveBalance(mounted, demo.controls.address)
    const form = await openSend(mounted)
    const amount = form.querySelector<HTMLInputElement>('input[name="amount"]') as HTMLInputElement
    const receiver = form.querySelector<HTMLInputElement>('input[name="receiver"]') as HTMLInputElement
    const describedBy = (field: HTMLElement) =>
      (field.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => mounted.modal.shadowRoot?.getElementById(id)?.textContent)
        .join(' | ')

    form.requestSubmit()
    await waitFor(() => amount.getAttribute('aria-invalid') === 'true', 'Amount invalid')
    equal(receiver.getAttribute('aria-invalid'), 'true')
    assert(describedBy(amount).includes('An amount and receiver address are required'), describedBy(amount))
    assert(describedBy(receiver).includes('An amount and receiver address are required'))

    const type = (input: HTMLInputElement, value: string) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value)
      input.dispatchEvent(new Event('input', { bubbles: true }))
    }
    type(amount, '1')
    type(receiver, '0x1234')
    form.requestSubmit()
    await waitFor(
      () => receiver.getAttribute('aria-invalid') === 'true' && !amount.hasAttribute('aria-invalid'),
      'receiver only',
    )
    equal(describedBy(receiver), 'Invalid EVM address')
    await waitFor(() => deepActive() === receiver, 'focus on the receiver')

    type(amount, '999999')
    type(receiver, '0x70997970C51812Dc3A010C7D01B50E2d73dC79C8')
    form.requestSubmit()
    await waitFor(() => amount.getAttribute('aria-invalid') === 'true', 'amount invalid')
    assert(describedBy(amount).startsWith('Insufficient balance'), describedBy(amount))
    equal(receiver.hasAttribute('aria-invalid'), false)
    equal(mounted.modal.shadowRoot?.querySelectorAll('[role="status"] [role="alert"]').length, 0)
    const error = mounted.modal.shadowRoot?.getElementById(
      amount.getAttribute('aria-describedby')?.split(' ')[0] ?? '',
    )
    equal(getComputedStyle(error as HTMLElement).color, LIGHT_DANGER)
  })
})
