import { sendKeys } from '@web/test-runner-commands'
import type { Mounted } from './helpers.ts'
import {
  assert,
  buttonByName,
  deepActive,
  dialogOf,
  equal,
  innerButton,
  installWallet,
  mount,
  openModal,
  sleep,
  waitFor,
} from './helpers.ts'

let page: Mounted | undefined
let wallet: ReturnType<typeof installWallet> | undefined

afterEach(() => {
  page?.cleanup()
  wallet?.remove()
  page = undefined
  wallet = undefined
})

describe('<wallet-button> and <wallet-modal>', () => {
  it('default: the button says Connect Wallet and opens an accessible dialog on Connect', async () => {
    page = mount()
    const button = await waitFor(() => innerButton(page?.button as HTMLElement), 'button')
    equal(button.textContent?.trim(), 'Connect Wallet')
    const dialog = await openModal(page)
    equal(dialog.getAttribute('aria-modal'), 'true')
    const labelId = dialog.getAttribute('aria-labelledby')
    assert(labelId, 'dialog has aria-labelledby')
    equal(page.modal.shadowRoot?.getElementById(labelId)?.textContent, 'Connect Wallet')
    assert(
      page.events.some((event) => event.type === 'wallet-open'),
      'wallet-open dispatched on document',
    )
    equal(page.modal.walletConfig.$modal.get().router.view, 'Connect')
  })

  it('behavior: lists the EIP-6963 wallet and connects it, with events and the address on the button', async () => {
    wallet = installWallet()
    page = mount()
    await openModal(page)
    const item = await waitFor(
      () => buttonByName(page?.modal as HTMLElement, 'Demo Wallet'),
      'Demo Wallet in the list',
    )
    item.click()
    const connected = await waitFor(
      () => page?.events.find((event) => event.type === 'wallet-connect'),
      'wallet-connect',
    )
    const detail = connected.detail as Record<string, unknown>
    equal(detail.address, wallet.controls.address)
    equal(detail.caipAddress, `eip155:31337:${wallet.controls.address}`)
    equal(detail.chainId, 'eip155:31337')
    equal(detail.namespace, 'eip155')
    equal(
      JSON.stringify(detail.connector),
      JSON.stringify({ id: 'dev.wallet-elements.demo', name: 'Demo Wallet', type: 'injected' }),
    )
    await waitFor(() => !dialogOf(page?.modal as HTMLElement), 'the modal to close after connecting')
    const text = await waitFor(
      () =>
        innerButton(page?.button as HTMLElement)?.textContent?.includes('0xf39F…2266') &&
        innerButton(page?.button as HTMLElement)?.textContent,
      'short address on the button',
    )
    assert(text.includes('0xf39F…2266'))
    // Opening again goes to Account.
    await openModal(page)
    await waitFor(() => page?.modal.shadowRoot?.querySelector('[data-address]'), 'the Account view')
    equal(
      page.modal.shadowRoot?.querySelector('[data-address]')?.getAttribute('data-address'),
      wallet.controls.address,
    )
  })

  it('behavior: wallet-side account change, chain change to an unlisted network, and disconnect update state and events', async () => {
    wallet = installWallet()
    page = mount()
    await openModal(page)
    ;(await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Demo Wallet'), 'Demo Wallet')).click()
    await waitFor(() => page?.modal.walletConfig.$account.get(), 'connected')
    wallet.controls.switchAccount(1)
    const changed = await waitFor(
      () => page?.events.find((event) => event.type === 'wallet-account-change'),
      'account change',
    )
    equal((changed.detail as { address: string }).address, wallet.controls.address)
    wallet.controls.switchChain(1)
    const network = await waitFor(
      () => page?.events.find((event) => event.type === 'wallet-network-change'),
      'network change',
    )
    equal(
      JSON.stringify(network.detail),
      JSON.stringify({ chainId: 'eip155:1', namespace: 'eip155', supported: false }),
    )
    await openModal(page)
    await waitFor(
      () => page?.modal.walletConfig.$modal.get().router.view === 'UnsupportedChain',
      'UnsupportedChain view',
    )
    wallet.controls.disconnect()
    await waitFor(() => page?.events.find((event) => event.type === 'wallet-disconnect'), 'wallet-disconnect')
    equal(page.modal.walletConfig.$status.get(), 'disconnected')
    await waitFor(
      () => innerButton(page?.button as HTMLElement)?.textContent?.trim() === 'Connect Wallet',
      'button back to Connect Wallet',
    )
  })

  it('behavior: Enter opens from the focused button, Escape closes, focus returns to the button', async () => {
    page = mount()
    const button = await waitFor(() => {
      const inner = innerButton(page?.button as HTMLElement)
      return inner && !inner.disabled && inner
    }, 'an enabled button')
    button.focus()
    await sendKeys({ press: 'Enter' })
    const dialog = await waitFor(() => dialogOf(page?.modal as HTMLElement), 'the dialog')
    const active = deepActive()
    assert(active && dialog.contains(active), 'focus moved into the dialog')
    await sendKeys({ press: 'Escape' })
    await waitFor(() => !dialogOf(page?.modal as HTMLElement), 'the dialog to close')
    assert(
      page.events.some((event) => event.type === 'wallet-close'),
      'wallet-close dispatched',
    )
    equal(deepActive(), innerButton(page.button), 'focus back on the wallet button')
  })

  it('behavior: the backdrop closes; a cancelled wallet-request-close keeps it open and shakes for 500 ms', async () => {
    page = mount()
    await openModal(page)
    const overlay = page.modal.shadowRoot?.querySelector('.overlay') as HTMLElement
    const cancel = (event: Event) => event.preventDefault()
    document.addEventListener('wallet-request-close', cancel)
    overlay.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, composed: true }))
    await sleep(50)
    assert(dialogOf(page.modal), 'still open after a cancelled close')
    assert(dialogOf(page.modal)?.hasAttribute('data-shake'), 'shaking')
    await sleep(550)
    assert(!dialogOf(page.modal)?.hasAttribute('data-shake'), 'shake over after 500 ms')
    document.removeEventListener('wallet-request-close', cancel)
    overlay.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, composed: true }))
    await waitFor(() => !dialogOf(page?.modal as HTMLElement), 'closed by the backdrop')
  })

  it('behavior: Tab and Shift+Tab stay inside the dialog', async () => {
    wallet = installWallet()
    page = mount()
    const dialog = await openModal(page)
    await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Demo Wallet'), 'Demo Wallet')
    for (let i = 0; i < 6; i++) {
      if (i % 2) {
        await sendKeys({ down: 'Shift' })
        await sendKeys({ press: 'Tab' })
        await sendKeys({ up: 'Shift' })
      } else {
        await sendKeys({ press: 'Tab' })
      }
      const active = deepActive()
      assert(active && dialog.contains(active), `focus stayed in the dialog (step ${i})`)
    }
  })

  it('behavior: the rejection shows a retry; retry then connects', async () => {
    wallet = installWallet({ autoApprove: false })
    page = mount()
    await openModal(page)
    ;(await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Demo Wallet'), 'Demo Wallet')).click()
    await waitFor(() => wallet?.controls.pending() === 1, 'the wallet prompt')
    wallet.controls.reject()
    await waitFor(
      () => page?.modal.shadowRoot?.textContent?.includes('Connection declined'),
      'declined message',
    )
    const error = await waitFor(
      () => page?.events.find((event) => event.type === 'wallet-error'),
      'wallet-error',
    )
    equal((error.detail as { code: number }).code, 4001)
    ;(await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Try again'), 'Try again')).click()
    await waitFor(() => wallet?.controls.pending() === 1, 'the second prompt')
    wallet.controls.approve()
    await waitFor(() => page?.modal.walletConfig.$account.get(), 'connected after retry')
  })

  it('error: a wallet that throws or returns garbage leaves the modal usable with the error shown', async () => {
    wallet = installWallet()
    wallet.controls.setBehavior('throw')
    page = mount()
    await openModal(page)
    ;(await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Demo Wallet'), 'Demo Wallet')).click()
    await waitFor(
      () => page?.modal.shadowRoot?.textContent?.includes('Demo Wallet internal error'),
      'the wallet error',
    )
    wallet.controls.setBehavior('garbage')
    ;(await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Try again'), 'Try again')).click()
    await waitFor(
      () =>
        page?.modal.shadowRoot?.querySelector('[data-error-code]') &&
        page.modal.walletConfig.$connecting.get()?.status === 'failed' &&
        !page.modal.shadowRoot.textContent?.includes('internal error'),
      'the malformed-response error',
    )
    equal(page.modal.walletConfig.$status.get(), 'disconnected')
    ;(await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Back'), 'Back')).click()
    await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Demo Wallet'), 'back on Connect')
  })

  it('error: a wallet that hangs times out after 10 s with the error shown', async function () {
    this.timeout(20_000)
    wallet = installWallet()
    wallet.controls.setBehavior('hang')
    page = mount()
    await openModal(page)
    ;(await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Demo Wallet'), 'Demo Wallet')).click()
    await sleep(9_000)
    equal(page.modal.walletConfig.$connecting.get()?.status, 'waiting', 'still waiting before 10 s')
    await waitFor(() => page?.modal.walletConfig.$connecting.get()?.status === 'failed', 'timeout', 3_000)
    assert(buttonByName(page.modal, 'Try again'), 'retry offered')
  })

  it('error: invalid attributes dispatch wallet-error, warn once and fall back to defaults', async () => {
    const warnings: string[] = []
    const warn = console.warn
    console.warn = (message: string) => warnings.push(message)
    try {
      page = mount({ networks: 'foo', theme: 'purple' })
      const errors = await waitFor(
        () =>
          (page?.events.filter((event) => event.type === 'wallet-error').length ?? 0) >= 2 && page?.events,
        'two wallet-error events',
      )
      const messages = errors
        .filter((event) => event.type === 'wallet-error')
        .map((event) => (event.detail as { message: string }).message)
      assert(messages.includes('Invalid CAIP-2 network id'), `networks message in ${messages}`)
      assert(
        messages.includes('Expected "light" | "dark" | "system", received "purple"'),
        `theme message in ${messages}`,
      )
      equal(warnings.filter((warning) => warning.includes('networks')).length, 1)
      page.modal.setAttribute('networks', 'foo')
      page.modal.setAttribute('networks', 'eip155:1')
      page.modal.setAttribute('networks', 'foo')
      equal(warnings.filter((warning) => warning.includes('networks')).length, 1, 'warned once')
      equal(page.modal.walletConfig.$options.get().theme, 'system')
      const dialog = await openModal(page)
      assert(dialog, 'still renders')
    } finally {
      console.warn = warn
    }
  })

  it('args: walletconnect-project-id alone offers WalletConnect on Connect; with no relay option it is not offered', async () => {
    page = mount()
    await openModal(page)
    // The Connect view is drawn (its browser-wallet section) before the row is looked for.
    const body = () => page?.modal.shadowRoot?.querySelector('[part="body"]')?.textContent ?? ''
    await waitFor(() => body().includes('Browser wallets'), 'the Connect view')
    equal(buttonByName(page.modal, /WalletConnect/), undefined, 'no relay, no project: no WalletConnect')
    page.cleanup()
    page = mount({ 'walletconnect-project-id': 'wc-cloud-id' })
    equal(page.modal.walletConfig.$options.get().walletConnectProjectId, 'wc-cloud-id')
    equal(page.modal.walletConfig.$options.get().projectId, undefined)
    await openModal(page)
    await waitFor(() => buttonByName(page?.modal as HTMLElement, /WalletConnect/), 'the WalletConnect row')
  })

  it('args: theme, accent and --wallet-* properties style the inside of the shadow roots', async () => {
    page = mount({ networks: 'eip155:1', theme: 'dark', accent: '#e8590c' })
    const dialog = await openModal(page)
    const root = dialog.closest('.root') as HTMLElement
    equal(root.dataset.theme, 'dark')
    equal(getComputedStyle(dialog).backgroundColor, 'rgb(23, 24, 28)')
    const button = innerButton(page.button) as HTMLElement
    await waitFor(
      () => getComputedStyle(button).backgroundColor === 'rgb(232, 89, 12)',
      'accent on the button',
    )
    page.button.style.setProperty('--wallet-accent', 'rgb(1, 2, 3)')
    await waitFor(() => getComputedStyle(button).backgroundColor === 'rgb(1, 2, 3)', '--wallet-accent wins')
    page.modal.setAttribute('theme', 'light')
    await waitFor(
      () =>
        getComputedStyle(dialogOf(page?.modal as HTMLElement) as HTMLElement).backgroundColor ===
        'rgb(255, 255, 255)',
      'light theme',
    )
    assert(page.modal.shadowRoot?.querySelector('[part="panel"]'), 'panel part')
    assert(page.modal.shadowRoot?.querySelector('[part="close-button"]'), 'close-button part')
  })

  it('behavior: a hostile page stylesheet changes nothing inside the shadow roots', async () => {
    wallet = installWallet()
    page = mount()
    const before = await openModal(page)
    await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Demo Wallet'), 'Demo Wallet')
    const measure = () => {
      const dialog = dialogOf(page?.modal as HTMLElement) as HTMLElement
      const item = buttonByName(page?.modal as HTMLElement, 'Demo Wallet') as HTMLElement
      const inner = innerButton(page?.button as HTMLElement) as HTMLElement
      return JSON.stringify([
        dialog.getBoundingClientRect().width,
        getComputedStyle(dialog).backgroundColor,
        getComputedStyle(item).display,
        item.getBoundingClientRect().height,
        getComputedStyle(inner).display,
        inner.getBoundingClientRect().height,
        getComputedStyle(inner).fontFamily,
      ])
    }
    assert(before)
    const clean = measure()
    const hostile = document.createElement('style')
    hostile.textContent =
      '* { all: unset !important; } button { display: none !important; } div { color: red !important; }'
    document.head.append(hostile)
    try {
      await sleep(50)
      equal(measure(), clean)
    } finally {
      hostile.remove()
    }
  })
})

describe('<wallet-button> alone and the legacy provider', () => {
  it('default: a page with only <wallet-button> gets a <wallet-modal> added, and the button opens it', async () => {
    const button = document.createElement('wallet-button')
    document.body.append(button)
    try {
      const modal = await waitFor(() => document.querySelector('wallet-modal'), 'the added <wallet-modal>')
      const inner = await waitFor(() => {
        const candidate = innerButton(button)
        return candidate && !candidate.disabled && candidate
      }, 'an enabled button')
      inner.click()
      await waitFor(() => dialogOf(modal), 'the dialog of the added modal')
      equal(document.querySelectorAll('wallet-modal').length, 1)
    } finally {
      document.querySelector('wallet-modal')?.remove()
      button.remove()
    }
  })

  it('behavior: with no EIP-6963 wallet, a legacy window.ethereum is listed and connects', async () => {
    const { createDemoWallet } = await import('../../demo/wallets/demo-wallet.ts')
    const wallet = createDemoWallet({ origin: location.origin, autoApprove: true })
    const target = window as unknown as { ethereum?: unknown }
    target.ethereum = wallet.provider
    const mounted = mount()
    try {
      const dialog = await (async () => {
        const inner = await waitFor(() => {
          const candidate = innerButton(mounted.button)
          return candidate && !candidate.disabled && candidate
        }, 'an enabled button')
        inner.click()
        return waitFor(() => dialogOf(mounted.modal), 'the dialog')
      })()
      assert(dialog)
      const item = await waitFor(
        () => buttonByName(mounted.modal, 'Browser Wallet'),
        'the legacy wallet in the list',
      )
      item.click()
      await waitFor(() => mounted.modal.walletConfig.$account.get(), 'connected through window.ethereum')
      equal(mounted.modal.walletConfig.$account.get()?.address, wallet.controls.address)
    } finally {
      mounted.cleanup()
      delete target.ethereum
    }
  })
})
