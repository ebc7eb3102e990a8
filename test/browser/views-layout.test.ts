import { sendKeys, setViewport } from '@web/test-runner-commands'
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
  innerButton,
  openModal,
  waitFor,
} from './helpers.ts'
import { cleanUpAfterEach, contrast, inModal, mountModal, openSend, wallet } from './views-helpers.ts'

/**
 * The views' audit (see views.test.ts), layout: 200 % zoom, 375 px, the QR code, long names, focus
 * rings, the current network, the page behind the dialog. Each fails on the code before the fix.
 */

cleanUpAfterEach()

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
