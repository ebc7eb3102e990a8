import { setViewport } from '@web/test-runner-commands'
import { navigate } from '../../src/core/actions/navigate.ts'
import type { Mounted } from './helpers.ts'
import {
  assert,
  buttonByName,
  configOf,
  connectWallet,
  deepActive,
  equal,
  frames,
  giveBalance,
  installWallet,
  mountWithoutChain,
  openModal,
  waitFor,
} from './helpers.ts'

/**
 * The views keep what the person did (in the stores, not in a view that dies when the
 * wallet's approval replaces it) and open with the person in view. Each fails on the code before.
 */

let page: Mounted | undefined
let wallets: ReturnType<typeof installWallet>[] = []

afterEach(async () => {
  page?.cleanup()
  for (const installed of wallets) installed.remove()
  page = undefined
  wallets = []
  await setViewport({ width: 800, height: 600 })
})

function wallet(options: Parameters<typeof installWallet>[0] = {}) {
  const installed = installWallet(options)
  wallets.push(installed)
  return installed
}

const modalOf = () => page?.modal as HTMLElement
const inModal = (selector: string) => modalOf().shadowRoot?.querySelector<HTMLElement>(selector) ?? undefined

/** Types into a React-controlled input as a person would (the value setter, then `input`). */
function type(input: HTMLInputElement, value: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value)
  input.dispatchEvent(new Event('input', { bubbles: true }))
}

describe('Send keeps what was typed while another view replaces it', () => {
  it('behavior: a send declined while the approval view is shown comes back with the amount, the receiver and the error', async () => {
    const demo = wallet()
    page = mountWithoutChain({ theme: 'light' })
    await connectWallet(page)
    await giveBalance(page, demo.controls.address)
    await openModal(page)
    ;(await waitFor(() => buttonByName(modalOf(), 'Send'), 'Send')).click()
    const form = await waitFor(() => inModal('form'), 'the send form')
    const amount = form.querySelector<HTMLInputElement>('input[name="amount"]') as HTMLInputElement
    const receiver = form.querySelector<HTMLInputElement>('input[name="receiver"]') as HTMLInputElement
    type(amount, '0.25')
    type(receiver, '0x70997970C51812Dc3A010C7D01B50E2d73dC79C8')
    await frames()
    demo.controls.autoApprove(false)
    ;(form as HTMLFormElement).requestSubmit()
    await waitFor(() => demo.controls.pending() === 1, 'the wallet to ask')
    // The embedded wallet's approval replaces the Send view while it asks (core/embedded.ts).
    const config = configOf(page)
    navigate(config, 'ApproveTransaction')
    await waitFor(() => !inModal('form'), 'the form to go')
    demo.controls.reject()
    await waitFor(() => config.$send.get().status === 'error', 'the send to fail')
    navigate(config, 'back')
    const again = await waitFor(() => inModal('form'), 'the send form again')
    equal(again.querySelector<HTMLInputElement>('input[name="amount"]')?.value, '0.25')
    equal(
      again.querySelector<HTMLInputElement>('input[name="receiver"]')?.value,
      '0x70997970C51812Dc3A010C7D01B50E2d73dC79C8',
    )
    await waitFor(
      () => (modalOf().shadowRoot?.textContent ?? '').includes('User rejected the request'),
      'the wallet’s refusal on the form',
    )
  })

  it('behavior: a send in flight when the view comes back still says it is sending, with what was typed', async () => {
    const demo = wallet()
    page = mountWithoutChain({ theme: 'light' })
    await connectWallet(page)
    await giveBalance(page, demo.controls.address)
    await openModal(page)
    ;(await waitFor(() => buttonByName(modalOf(), 'Send'), 'Send')).click()
    const form = await waitFor(() => inModal('form'), 'the send form')
    type(form.querySelector('input[name="amount"]') as HTMLInputElement, '0.5')
    type(
      form.querySelector('input[name="receiver"]') as HTMLInputElement,
      '0x70997970C51812Dc3A010C7D01B50E2d73dC79C8',
    )
    await frames()
    demo.controls.autoApprove(false)
    ;(form as HTMLFormElement).requestSubmit()
    await waitFor(() => demo.controls.pending() === 1, 'the wallet to ask')
    const config = configOf(page)
    navigate(config, 'Networks')
    await waitFor(() => !inModal('form'), 'the form to go')
    navigate(config, 'back')
    const again = await waitFor(() => inModal('form'), 'the send form again')
    equal(config.$send.get().status, 'sending')
    equal(again.querySelector<HTMLInputElement>('input[name="amount"]')?.value, '0.5')
    assert(
      (again.textContent ?? '').includes('Approve the transaction in your wallet'),
      `still sending: ${again.textContent}`,
    )
    demo.controls.reject()
  })
})

describe('Account opens with the person in view', () => {
  for (const [label, width, height] of [
    ['a desktop', 800, 600],
    ['375 px', 375, 667],
    ['200 % zoom', 640, 360],
  ] as const) {
    it(`behavior: on ${label} the heading has focus and the avatar, address and balance are in view`, async () => {
      const demo = wallet()
      page = mountWithoutChain({ theme: 'light', features: 'names,onramp,send,swaps' })
      await setViewport({ width, height })
      await connectWallet(page)
      await giveBalance(page, demo.controls.address)
      await openModal(page)
      await waitFor(() => inModal('[part="network-button"]'), 'Account')
      await frames()
      const active = deepActive()
      equal(active?.localName, 'h2', 'focus on the heading')
      equal(active?.textContent, 'Account')
      const body = inModal('.body') as HTMLElement
      equal(body.scrollTop, 0, 'the panel is not scrolled')
      const view = body.getBoundingClientRect()
      for (const selector of ['.avatar', '[data-address]', '[part="balance"]']) {
        const box = inModal(selector)?.getBoundingClientRect()
        assert(box, `${selector} is shown`)
        assert(
          box.top >= view.top - 1 && box.bottom <= view.bottom + 1,
          `${selector} in view (${box.top}–${box.bottom} in ${view.top}–${view.bottom})`,
        )
      }
    })
  }
})
