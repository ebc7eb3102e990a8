import { sendKeys, setViewport } from '@web/test-runner-commands'
import axe from 'axe-core'
import { balanceKey } from '../../src/core/balanceKey.ts'
import { settled, sweep } from './axeSweep.ts'
import type { Mounted } from './helpers.ts'
import {
  buttonByName,
  configOf,
  connectWallet,
  dialogOf,
  equal,
  giveBalance,
  headingOf,
  installWallet,
  mountWithoutChain,
  openModal,
  waitFor,
} from './helpers.ts'

/**
 * axe-core over every view of the modal, in light and dark, on a desktop and a 375 px screen.
 * Only the modal is checked: the test page and the Demo Wallet's prompt stand in for the site and
 * the wallet's own window.
 */

let page: Mounted | undefined
let wallet: ReturnType<typeof installWallet> | undefined

afterEach(async () => {
  page?.cleanup()
  wallet?.remove()
  page = undefined
  wallet = undefined
  await setViewport({ width: 800, height: 600 })
})

describe('axe: every view, light and dark, desktop and 375 px', function () {
  this.timeout(60_000)

  // The open dialog locks the page's scroll with overflow: hidden on <html>, which the viewport
  // takes over; axe instead clips everything to <html>'s own box, so on this short test page it
  // would check nothing. A page as tall as the window keeps axe looking at the dialog.
  before(() => {
    document.documentElement.style.height = '100%'
  })
  after(() => {
    document.documentElement.style.height = ''
  })

  it('error: axe sees the dialog (colour contrast is checked, not skipped as hidden)', async () => {
    wallet = installWallet()
    page = mountWithoutChain()
    await openModal(page)
    await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Demo Wallet'), 'Demo Wallet')
    await settled(page.modal)
    const { passes } = await axe.run(page.modal, { runOnly: ['color-contrast'] })
    const checked = passes.flatMap((rule) => rule.nodes).length
    equal(checked >= 4, true, `text nodes checked for contrast: ${checked}`)
  })

  it('default: Connect (browser wallet, WalletConnect) and AllWallets', async () => {
    wallet = installWallet()
    page = mountWithoutChain({ 'relay-url': 'ws://127.0.0.1:9', 'project-id': 'axe' })
    await openModal(page)
    await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Demo Wallet'), 'Demo Wallet')
    await sweep(page.modal, 'Connect')
    await page.modal.open({ view: 'AllWallets' })
    // No wallet service here: the list shows its error and the browser wallet.
    await waitFor(() => configOf(page as Mounted).$walletList.get().status === 'error', 'the list error')
    await sweep(page.modal, 'AllWallets')
  })

  it('behavior: ConnectingExternal waiting, then declined', async () => {
    wallet = installWallet({ autoApprove: false })
    page = mountWithoutChain()
    await openModal(page)
    ;(await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Demo Wallet'), 'Demo Wallet')).click()
    await waitFor(() => wallet?.controls.pending() === 1, 'the wallet prompt')
    await sweep(page.modal, 'ConnectingExternal waiting')
    wallet.controls.reject()
    await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Try again'), 'Try again')
    await sweep(page.modal, 'ConnectingExternal declined')
  })

  it('behavior: ConnectingWalletConnectBasic while the link is prepared', async () => {
    page = mountWithoutChain({ 'relay-url': 'ws://127.0.0.1:9', 'project-id': 'axe' })
    await openModal(page)
    ;(await waitFor(() => buttonByName(page?.modal as HTMLElement, /WalletConnect/), 'WalletConnect')).click()
    await waitFor(() => page?.modal.shadowRoot?.querySelector('.qr'), 'the QR area')
    await sweep(page.modal, 'ConnectingWalletConnectBasic')
  })

  it('behavior: SIWXSignMessage, its blocked close and its declined signature', async () => {
    wallet = installWallet()
    page = mountWithoutChain()
    page.modal.config = {
      siwx: {
        required: true,
        addSession: async () => {},
        getSessions: async () => [],
        revokeSession: async () => {},
      },
    }
    await openModal(page)
    ;(await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Demo Wallet'), 'Demo Wallet')).click()
    await waitFor(() => headingOf(page?.modal as HTMLElement)?.textContent === 'Sign in', 'the sign-in view')
    await sweep(page.modal, 'SIWXSignMessage')
    await sendKeys({ press: 'Escape' })
    await waitFor(
      () => page?.modal.shadowRoot?.textContent?.includes('Sign in or disconnect to close'),
      'why',
    )
    await sweep(page.modal, 'SIWXSignMessage, close blocked')
    wallet.controls.autoApprove(false)
    ;(await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Sign in'), 'Sign in')).click()
    await waitFor(() => wallet?.controls.pending() === 1, 'the signature prompt')
    await sweep(page.modal, 'SIWXSignMessage, signing')
    wallet.controls.reject()
    await waitFor(() => page?.modal.shadowRoot?.textContent?.includes('Signature declined'), 'declined')
    await sweep(page.modal, 'SIWXSignMessage, declined')
  })

  it('behavior: Account (balance unavailable, then a balance), Networks, WalletSend and its errors', async () => {
    wallet = installWallet()
    page = mountWithoutChain()
    await connectWallet(page)
    const config = configOf(page)
    const key = balanceKey('eip155:31337', wallet.controls.address)
    await waitFor(() => config.$balances.get()[key]?.status === 'error', 'the balance to fail')
    await openModal(page)
    await waitFor(
      () => page?.modal.shadowRoot?.textContent?.includes('Token Balance Unavailable'),
      'the error',
    )
    await sweep(page.modal, 'Account, balance unavailable')
    await giveBalance(page, wallet.controls.address)
    await waitFor(() => page?.modal.shadowRoot?.textContent?.includes('10,000.000 ETH'), 'the balance')
    await sweep(page.modal, 'Account')
    ;(
      await waitFor(() => buttonByName(page?.modal as HTMLElement, /^Local Chain\s*Network/), 'network')
    ).click()
    await waitFor(() => headingOf(page?.modal as HTMLElement)?.textContent === 'Select network', 'Networks')
    await sweep(page.modal, 'Networks')
    ;(await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Back'), 'Back')).click()
    ;(await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Send'), 'Send')).click()
    const form = await waitFor(() => page?.modal.shadowRoot?.querySelector('form'), 'the send form')
    await sweep(page.modal, 'WalletSend')
    form.requestSubmit()
    await waitFor(() => form.querySelector('[aria-invalid="true"]'), 'the field errors')
    await sweep(page.modal, 'WalletSend, field errors')
  })

  it('behavior: UnsupportedChain', async () => {
    wallet = installWallet({ chainId: 1 })
    page = mountWithoutChain()
    await openModal(page)
    ;(await waitFor(() => buttonByName(page?.modal as HTMLElement, 'Demo Wallet'), 'Demo Wallet')).click()
    await waitFor(
      () => headingOf(page?.modal as HTMLElement)?.textContent === 'Unsupported chain',
      'the view',
    )
    await sweep(page.modal, 'UnsupportedChain')
  })

  it('args: right to left (ar) and inline', async () => {
    wallet = installWallet()
    page = mountWithoutChain({ locale: 'ar' })
    await openModal(page)
    await waitFor(() => headingOf(page?.modal as HTMLElement)?.textContent === 'ربط المحفظة', 'Arabic')
    await sweep(page.modal, 'Connect, ar')
    page.cleanup()
    page = mountWithoutChain({ inline: '' })
    await waitFor(() => page?.modal.shadowRoot?.querySelector('[role="region"]'), 'the inline views')
    equal(dialogOf(page.modal), undefined, 'no dialog inline')
    await sweep(page.modal, 'Connect, inline')
  })
})
