import { sendKeys, setViewport } from '@web/test-runner-commands'
import loaders from '../../src/shared/i18n/loaders.ts'
import { LOCALES } from '../../src/ui/i18n/locales.ts'
import type { Mounted } from './helpers.ts'
import {
  assert,
  buttonByName,
  configOf,
  connectWallet,
  deepActive,
  dialogOf,
  equal,
  frames,
  giveBalance,
  headingOf,
  innerButton,
  installWallet,
  mountWithoutChain,
  openModal,
  waitFor,
} from './helpers.ts'

/**
 * The issue-12 audit, one test per finding: focus, errors, layout (200 % zoom, 375 px), locales,
 * right to left and inline mode. Each fails on the code before the fix.
 */

let page: Mounted | undefined
let wallets: ReturnType<typeof installWallet>[] = []

afterEach(async () => {
  page?.cleanup()
  for (const wallet of wallets) wallet.remove()
  page = undefined
  wallets = []
  document.documentElement.removeAttribute('dir')
  await setViewport({ width: 800, height: 600 })
})

const LIGHT_DANGER = 'rgb(201, 42, 42)'

function wallet(options: Parameters<typeof installWallet>[0] = {}) {
  const installed = installWallet(options)
  wallets.push(installed)
  return installed
}

function mountModal(attributes: Record<string, string> = {}) {
  page = mountWithoutChain({ theme: 'light', ...attributes })
  return page
}

const modalOf = () => page?.modal as HTMLElement
const inModal = (selector: string) => modalOf().shadowRoot?.querySelector<HTMLElement>(selector) ?? undefined
const text = () => modalOf().shadowRoot?.textContent ?? ''

async function openSend(mounted: Mounted) {
  await openModal(mounted)
  ;(await waitFor(() => buttonByName(modalOf(), 'Send'), 'Send')).click()
  return waitFor(() => inModal('form'), 'the send form') as Promise<HTMLFormElement>
}

/** WCAG contrast ratio of two `rgb()` colours. */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    }) as [number, number, number]
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl
  }
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (high + 0.05) / (low + 0.05)
}

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

describe('layout', () => {
  it('behavior: at 200 % zoom the header stays put while the body scrolls', async () => {
    for (let i = 0; i < 6; i++) wallet({ name: `Wallet number ${i + 1}` })
    const mounted = mountModal()
    // 1280 × 720 at 200 %: the page is 640 × 360 CSS pixels.
    await setViewport({ width: 640, height: 360 })
    await openModal(mounted)
    await waitFor(() => buttonByName(mounted.modal, 'Wallet number 6'), 'the wallets')
    const body = inModal('.body') as HTMLElement
    assert(body.scrollHeight > body.clientHeight, 'the body overflows (the test needs it to)')
    body.scrollTop = body.scrollHeight
    await frames()
    const close = inModal('[part="close-button"]') as HTMLElement
    const box = close.getBoundingClientRect()
    assert(box.top >= 0 && box.bottom <= 360, `Close is on screen (top ${box.top})`)
    const last = buttonByName(mounted.modal, 'Wallet number 6') as HTMLElement
    assert(last.getBoundingClientRect().bottom <= 360, 'the last wallet is reachable by scrolling')
  })

  it('behavior: the QR code fits the space with a 4-module quiet zone; Copy link stays on screen', async () => {
    const mounted = mountModal({ 'relay-url': 'ws://127.0.0.1:9', 'project-id': 'qr' })
    await setViewport({ width: 640, height: 360 })
    await openModal(mounted)
    ;(await waitFor(() => buttonByName(mounted.modal, /WalletConnect/), 'WalletConnect')).click()
    const qr = await waitFor(() => inModal('.qr'), 'the QR area')
    const copy = await waitFor(() => buttonByName(mounted.modal, 'Copy link'), 'Copy link')
    const box = qr.getBoundingClientRect()
    assert(
      box.width < 280 && Math.abs(box.width - box.height) < 1,
      `a smaller square (${box.width}×${box.height})`,
    )
    assert(
      copy.getBoundingClientRect().bottom <= 360,
      `Copy link on screen (${copy.getBoundingClientRect().bottom})`,
    )
    // The code itself (drawn by the same component once a link exists): 4 light modules all round.
    const { QrCode } = await import('../../src/ui/components/QrCode.tsx')
    const { createRoot } = await import('react-dom/client')
    const { flushSync } = await import('react-dom')
    const { createElement } = await import('react')
    const host = document.createElement('div')
    document.body.append(host)
    const root = createRoot(host)
    flushSync(() =>
      root.render(createElement(QrCode, { value: 'wc:abc@2?relay-protocol=irn&symKey=00', label: 'QR' })),
    )
    const svg = host.querySelector('svg') as SVGSVGElement
    const size = Number(svg.getAttribute('viewBox')?.split(' ')[2])
    const points = [...(svg.querySelector('path')?.getAttribute('d') ?? '').matchAll(/M(\d+) (\d+)/g)].map(
      (match) => [Number(match[1]), Number(match[2])],
    )
    equal(Math.min(...points.flat()), 4, 'no dark module in the first 4')
    equal(Math.max(...points.flat()), size - 5, 'nor in the last 4')
    root.unmount()
    host.remove()
  })

  it('behavior: a long wallet name is clamped with an ellipsis and keeps the row height', async () => {
    const long = 'A wallet with a very long name that would never fit on one line of the list, really'
    wallet()
    wallet({ name: long })
    const mounted = mountModal()
    await openModal(mounted)
    const row = await waitFor(() => buttonByName(mounted.modal, 'A wallet with'), 'the long name')
    const short = buttonByName(mounted.modal, 'Demo Wallet') as HTMLElement
    equal(row.offsetHeight, short.offsetHeight, 'same row height')
    const name = row.querySelector('.name') as HTMLElement
    equal(getComputedStyle(name).textOverflow, 'ellipsis')
    assert(name.scrollWidth > name.clientWidth, 'the name is cut')
    equal(name.textContent, long, 'the whole name is still its text (and accessible name)')
  })

  it('behavior: at 375 px the button shrinks and truncates, the page does not scroll sideways; aria-expanded; its name starts with what it shows', async () => {
    const demo = wallet()
    const header = document.createElement('header')
    header.style.cssText =
      'display:flex;justify-content:space-between;align-items:center;gap:8px;padding:0 32px'
    header.innerHTML = '<strong>wallet-elements</strong>'
    document.body.append(header)
    try {
      const mounted = mountModal()
      header.append(mounted.button)
      await setViewport({ width: 375, height: 667 })
      await connectWallet(mounted)
      await giveBalance(mounted, demo.controls.address)
      const inner = await waitFor(
        () => innerButton(mounted.button)?.textContent?.includes('ETH') && innerButton(mounted.button),
        'the balance on the button',
      )
      await frames()
      equal(
        document.documentElement.scrollWidth <= 375,
        true,
        `page width ${document.documentElement.scrollWidth}`,
      )
      assert(inner.getBoundingClientRect().right <= 375 - 32 + 1, 'the button stays inside the header')
      const balance = inner.querySelector<HTMLElement>('.balance') as HTMLElement
      equal(getComputedStyle(balance).textOverflow, 'ellipsis')
      // The balance gives way first: the short address stays whole.
      const address = inner.querySelector<HTMLElement>('[part="address"]') as HTMLElement
      assert(address.scrollWidth <= address.clientWidth, 'the address is not cut')
      // The name is the visible text, then the word Account (no aria-label replacing it).
      equal(inner.hasAttribute('aria-label'), false)
      const visible = [...inner.children]
        .filter((child) => !child.classList.contains('visually-hidden'))
        .map((child) => child.textContent)
        .join('')
      assert((inner.textContent ?? '').startsWith(visible), `${inner.textContent} / ${visible}`)
      equal(inner.textContent?.endsWith(', Account'), true)
      equal(inner.getAttribute('aria-expanded'), 'false')
      inner.click()
      await waitFor(() => dialogOf(mounted.modal), 'the dialog')
      await waitFor(() => inner.getAttribute('aria-expanded') === 'true', 'aria-expanded true while open')
    } finally {
      header.remove()
    }
  })

  it('behavior: a one-result search leaves no blank below it; Max is at least 24 × 24 px', async () => {
    const demo = wallet()
    const mounted = mountModal()
    await openModal(mounted)
    await mounted.modal.open({ view: 'AllWallets' })
    const list = await waitFor(() => inModal('.virtual'), 'the list')
    await waitFor(() => list.querySelectorAll('li').length === 1, 'one row')
    assert(list.getBoundingClientRect().height < 100, `list height ${list.getBoundingClientRect().height}`)
    ;(await waitFor(() => buttonByName(mounted.modal, 'Demo Wallet'), 'Demo Wallet')).click()
    await waitFor(() => configOf(mounted).$account.get(), 'connected')
    await giveBalance(mounted, demo.controls.address)
    await openSend(mounted)
    const max = await waitFor(() => buttonByName(mounted.modal, 'Max'), 'Max')
    const box = max.getBoundingClientRect()
    assert(box.width >= 24 && box.height >= 24, `Max is ${box.width} × ${box.height}`)
  })

  it('behavior: focus rings are not clipped by the scrolling areas', async () => {
    wallet()
    const mounted = mountModal()
    await openModal(mounted)
    const row = await waitFor(() => buttonByName(mounted.modal, 'Demo Wallet'), 'Demo Wallet')
    const ring = (element: HTMLElement) => {
      const style = getComputedStyle(element)
      const reach = Number.parseFloat(style.outlineWidth) + Number.parseFloat(style.outlineOffset)
      const box = element.getBoundingClientRect()
      return {
        top: box.top - reach,
        left: box.left - reach,
        right: box.right + reach,
        bottom: box.bottom + reach,
      }
    }
    const inside = (element: HTMLElement, scroller: HTMLElement) => {
      const outer = scroller.getBoundingClientRect()
      const r = ring(element)
      return r.top >= outer.top && r.left >= outer.left && r.right <= outer.right && r.bottom <= outer.bottom
    }
    await sendKeys({ press: 'Tab' })
    await sendKeys({ down: 'Shift' })
    await sendKeys({ press: 'Tab' })
    await sendKeys({ up: 'Shift' })
    await waitFor(() => deepActive() === row, 'focus on the first wallet')
    equal(getComputedStyle(row).outlineStyle, 'solid', 'a ring is drawn')
    assert(inside(row, inModal('.body') as HTMLElement), 'the ring fits in the body')
    await mounted.modal.open({ view: 'AllWallets' })
    const listRow = await waitFor(() => inModal('.virtual .item'), 'a row of the list')
    for (let i = 0; i < 4 && deepActive() !== listRow; i++) await sendKeys({ press: 'Tab' })
    equal(deepActive(), listRow, 'Tab reaches the list')
    equal(getComputedStyle(listRow).outlineStyle, 'solid', 'a ring is drawn')
    assert(inside(listRow, inModal('.virtual') as HTMLElement), 'the ring fits in the list')
  })

  it('behavior: the current network is marked by more than the focus ring (tint, edge, check)', async () => {
    wallet()
    const mounted = mountModal()
    await connectWallet(mounted)
    await openModal(mounted)
    ;(await waitFor(() => buttonByName(mounted.modal, /^Local Chain\s*Network/), 'network')).click()
    const current = await waitFor(() => inModal('[aria-current="true"]'), 'the current network')
    const other = inModal('[aria-current="false"]') as HTMLElement
    other.focus()
    await sendKeys({ press: 'Shift' })
    const style = getComputedStyle(current)
    equal(style.outlineStyle, 'none', 'no ring on the current network while it is not focused')
    equal(style.borderInlineStartWidth, '4px')
    assert(style.backgroundColor !== getComputedStyle(other).backgroundColor, 'a tint')
    assert(current.querySelector('.check svg'), 'a check mark')
  })

  it('behavior: the page behind the open dialog does not scroll; its overflow is restored after', async () => {
    const mounted = mountModal()
    document.documentElement.style.overflow = 'auto'
    try {
      await openModal(mounted)
      equal(getComputedStyle(document.documentElement).overflow, 'hidden')
      await sendKeys({ press: 'Escape' })
      await waitFor(() => !dialogOf(mounted.modal), 'closed')
      equal(document.documentElement.style.overflow, 'auto')
    } finally {
      document.documentElement.style.overflow = ''
    }
  })

  for (const theme of ['light', 'dark']) {
    it(`behavior: input borders reach 3:1 and placeholders 4.5:1 (${theme})`, async () => {
      const mounted = mountModal({ theme })
      await openModal(mounted)
      await mounted.modal.open({ view: 'AllWallets' })
      const search = (await waitFor(() => inModal('input[type="search"]'), 'the search')) as HTMLInputElement
      const panel = dialogOf(mounted.modal) as HTMLElement
      const style = getComputedStyle(search)
      const border = contrast(style.borderTopColor, style.backgroundColor)
      const againstPanel = contrast(style.borderTopColor, getComputedStyle(panel).backgroundColor)
      const placeholder = contrast(getComputedStyle(search, '::placeholder').color, style.backgroundColor)
      assert(border >= 3 && againstPanel >= 3, `border ${border.toFixed(2)} / ${againstPanel.toFixed(2)}`)
      assert(placeholder >= 4.5, `placeholder ${placeholder.toFixed(2)}`)
    })
  }
})

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
