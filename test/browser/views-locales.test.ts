import { sendKeys } from '@web/test-runner-commands'
import loaders from '../../src/shared/i18n/loaders.ts'
import { LOCALES } from '../../src/ui/i18n/locales.ts'
import type { Mounted } from './helpers.ts'
import {
  assert,
  buttonByName,
  configOf,
  connectWallet,
  dialogOf,
  equal,
  giveBalance,
  headingOf,
  innerButton,
  installWallet,
  mountWithoutChain,
  openModal,
  waitFor,
} from './helpers.ts'
import { cleanUpAfterEach, inModal, mountModal, text, wallet } from './views-helpers.ts'

/**
 * The views' audit (see views.test.ts): locales, amounts in the language, right to left and inline
 * mode. Each fails on the code before the fix.
 */

cleanUpAfterEach()

describe('locales', () => {
  it('behavior: each of the 12 languages renders Connect and Account without a missing string', async function () {
    this.timeout(60_000)
    const warnings: string[] = []
    const warn = console.warn
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '))
    try {
      for (const locale of LOCALES) {
        const messages = (await loaders[locale]()).default
        const demo = installWallet()
        const mounted = mountWithoutChain({ locale })
        try {
          await waitFor(
            () => innerButton(mounted.button)?.textContent === messages.connectWallet,
            `${locale}: the button`,
          )
          await openModal(mounted)
          await waitFor(
            () => headingOf(mounted.modal)?.textContent === messages.connectWallet,
            `${locale}: Connect`,
          )
          equal(dialogOf(mounted.modal)?.closest('[lang]')?.getAttribute('lang'), locale)
          ;(await waitFor(() => buttonByName(mounted.modal, 'Demo Wallet'), `${locale}: the wallet`)).click()
          await waitFor(
            () => configOf(mounted).$account.get() && !dialogOf(mounted.modal),
            `${locale}: connected`,
          )
          await openModal(mounted)
          await waitFor(
            () => headingOf(mounted.modal)?.textContent === messages.account,
            `${locale}: Account`,
          )
          await waitFor(
            () => mounted.modal.shadowRoot?.textContent?.includes(messages.disconnect),
            `${locale}: strings`,
          )
        } finally {
          mounted.cleanup()
          demo.remove()
        }
      }
      equal(warnings.filter((line) => line.includes('catalogue')).join('\n'), '', 'no missing string')
    } finally {
      console.warn = warn
    }
  })

  it('behavior: changing the locale switches the open modal; amounts use its separators', async () => {
    const demo = wallet()
    const mounted = mountModal()
    await connectWallet(mounted)
    await giveBalance(mounted, demo.controls.address)
    await openModal(mounted)
    await waitFor(() => text().includes('10,000.000 ETH'), 'English')
    mounted.modal.setAttribute('locale', 'de')
    await waitFor(() => headingOf(mounted.modal)?.textContent === 'Konto', 'German')
    await waitFor(() => text().includes('10.000,000 ETH'), 'German separators')
    equal(dialogOf(mounted.modal)?.closest('[lang]')?.getAttribute('lang'), 'de')
  })
})

describe('amounts in the language', () => {
  it('behavior: German takes "0,5" as half a token, and Max fills the field with a comma', async () => {
    const demo = wallet()
    const mounted = mountModal({ locale: 'de' })
    await connectWallet(mounted, 'Demo Wallet')
    await giveBalance(mounted, demo.controls.address)
    await openModal(mounted)
    ;(await waitFor(() => buttonByName(mounted.modal, 'Senden'), 'Senden')).click()
    const form = (await waitFor(() => inModal('form'), 'the form')) as HTMLFormElement
    const amount = form.querySelector<HTMLInputElement>('input[name="amount"]') as HTMLInputElement
    equal(amount.placeholder, '0,0')
    ;(await waitFor(() => buttonByName(mounted.modal, 'Max.'), 'Max.')).click()
    await waitFor(() => amount.value === '10000', 'Max')
    amount.focus()
    amount.select()
    await sendKeys({ type: '0,5' })
    const receiver = form.querySelector<HTMLInputElement>('input[name="receiver"]') as HTMLInputElement
    receiver.focus()
    await sendKeys({ type: '0x70997970C51812Dc3A010C7D01B50E2d73dC79C8' })
    demo.controls.autoApprove(false)
    form.requestSubmit()
    await waitFor(() => demo.controls.pending() === 1, 'the wallet asked (not "Ungültiger Betrag")')
    const prompt = [...document.querySelectorAll('[data-demo-wallet="prompt"]')]
      .map((host) => host.shadowRoot?.textContent ?? '')
      .join(' | ')
    assert(prompt.includes('Send 0.5 ETH'), `the wallet is asked for 0.5 ETH: ${prompt}`)
    demo.controls.reject()
  })
})

describe('right to left', () => {
  /** Opens Networks over Connect (so there is a Back) and checks the header is mirrored. */
  const mirrored = async (mounted: Mounted) => {
    await openModal(mounted)
    const { navigate } = await import('../../src/core/actions/navigate.ts')
    navigate(configOf(mounted), 'Networks')
    const back = await waitFor(() => inModal('[part="back-button"]'), 'the back button')
    const close = inModal('[part="close-button"]') as HTMLElement
    assert(
      back.getBoundingClientRect().left > close.getBoundingClientRect().left,
      'Back on the right, Close on the left',
    )
    equal(getComputedStyle(back.querySelector('svg') as SVGElement).transform, 'matrix(-1, 0, 0, 1, 0, 0)')
  }

  it('behavior: with ar the panel mirrors, the back chevron flips, and amounts keep “10,000.000 ETH”', async () => {
    const demo = wallet()
    const mounted = mountModal({ locale: 'ar' })
    await mirrored(mounted)
    equal(inModal('.root')?.getAttribute('dir'), 'rtl')
    await sendKeys({ press: 'Escape' })
    await waitFor(() => !dialogOf(mounted.modal), 'closed')
    await connectWallet(mounted, 'Demo Wallet')
    await giveBalance(mounted, demo.controls.address)
    await openModal(mounted)
    const amount = await waitFor(() => inModal('[part="balance"] bdi'), 'the balance')
    await waitFor(() => amount.textContent?.includes('ETH'), 'the amount')
    // Where the amount and the ticker are drawn: the ticker must come after (right of) the number.
    const box = (node: Node) => {
      const range = document.createRange()
      range.selectNodeContents(node)
      return range.getBoundingClientRect()
    }
    const number = box(amount.firstChild as Node)
    const ticker = box(amount.lastChild as Node)
    equal(amount.lastChild?.textContent, 'ETH')
    assert(ticker.left > number.right, `the ticker after the amount: ${amount.textContent}`)
  })

  it('behavior: dir="rtl" on the page mirrors the panel in any language', async () => {
    document.documentElement.setAttribute('dir', 'rtl')
    wallet()
    const mounted = mountModal()
    await mirrored(mounted)
  })
})

describe('inline mode', () => {
  it('behavior: <wallet-modal inline> shows the views in the page, takes no focus, and closing returns to Account or Connect', async () => {
    wallet()
    const before = document.createElement('p')
    before.textContent = 'Page text before the modal'
    document.body.append(before)
    try {
      const outside = document.createElement('button')
      outside.textContent = 'A page button'
      document.body.append(outside)
      outside.focus()
      const mounted = mountModal({ inline: '' })
      const region = await waitFor(() => inModal('[role="region"]'), 'the views in the page')
      await waitFor(() => buttonByName(mounted.modal, 'Demo Wallet'), 'Connect')
      equal(dialogOf(mounted.modal), undefined, 'no dialog')
      equal(inModal('.overlay'), undefined, 'no backdrop')
      equal(getComputedStyle(region).position, 'relative')
      assert(region.getBoundingClientRect().top >= before.getBoundingClientRect().bottom, 'in the page flow')
      equal(document.activeElement, outside, 'the page keeps its focus')
      equal(getComputedStyle(document.documentElement).overflow, 'visible', 'the page still scrolls')
      equal(inModal('[part="close-button"]'), undefined, 'no Close on the home view')
      ;(buttonByName(mounted.modal, 'Demo Wallet') as HTMLElement).click()
      await waitFor(() => headingOf(mounted.modal)?.textContent === 'Account', 'Account after connecting')
      ;(await waitFor(() => buttonByName(mounted.modal, /^Local Chain\s*Network/), 'network')).click()
      await waitFor(() => headingOf(mounted.modal)?.textContent === 'Select network', 'Networks')
      ;(inModal('[part="close-button"]') as HTMLElement).click()
      await waitFor(() => headingOf(mounted.modal)?.textContent === 'Account', 'closing returns to Account')
      ;(await waitFor(() => buttonByName(mounted.modal, 'Disconnect'), 'Disconnect')).click()
      await waitFor(() => headingOf(mounted.modal)?.textContent === 'Connect Wallet', 'and to Connect')
      equal(mounted.events.filter((event) => event.type === 'wallet-close').length, 0, 'nothing closed')
      outside.remove()
    } finally {
      before.remove()
    }
  })
})
