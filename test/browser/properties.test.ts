// Properties a framework sets, and the `config` property's rule. The first test needs the elements
// not yet defined, so this file defines them itself (through helpers' mount) only after it.
import type { WalletButtonElement } from '../../elements/wallet-button.ts'
import { defineWalletButton } from '../../elements/wallet-button.ts'
import type { WalletModalElement } from '../../elements/wallet-modal.ts'
import { defineWalletModal } from '../../elements/wallet-modal.ts'
import type { Mounted } from './helpers.ts'
import { assert, equal, innerButton, mount, waitFor } from './helpers.ts'

let page: Mounted | undefined
const warnings: string[] = []
const warn = console.warn

beforeEach(() => {
  warnings.length = 0
  console.warn = (message: string) => warnings.push(message)
})

afterEach(() => {
  console.warn = warn
  page?.cleanup()
  page = undefined
})

const errorsOf = (mounted: Mounted) =>
  mounted.events
    .filter((event) => event.type === 'wallet-error')
    .map((event) => (event.detail as { message: string }).message)

describe('properties of <wallet-modal> and <wallet-button>', () => {
  it('behavior: properties set before the elements are defined (a framework before the script) apply', async () => {
    equal(customElements.get('wallet-modal'), undefined, 'not defined yet')
    const modal = document.createElement('wallet-modal') as WalletModalElement
    const button = document.createElement('wallet-button') as WalletButtonElement
    modal.config = { theme: 'dark', networks: ['eip155:10', 'eip155:8453'] }
    button.label = 'Sign in with a wallet'
    document.body.append(modal, button)
    try {
      defineWalletModal()
      defineWalletButton()
      equal(modal.walletConfig.$options.get().theme, 'dark')
      equal(modal.walletConfig.$options.get().networks.join(), 'eip155:10,eip155:8453')
      equal(modal.config.theme, 'dark', 'the getter returns what was set')
      const inner = await waitFor(() => innerButton(button), 'the inner button')
      await waitFor(
        () => inner.textContent?.includes('Sign in with a wallet'),
        'the label set before upgrade',
      )
      equal(button.getAttribute('label'), 'Sign in with a wallet', 'reflected like a label set after')
    } finally {
      modal.remove()
      button.remove()
    }
  })

  it('behavior: setting config replaces what it set before; what it leaves out comes from the attributes or the defaults', () => {
    page = mount({ networks: 'eip155:31337', theme: 'dark' })
    const options = () => page?.modal.walletConfig.$options.get()
    page.modal.config = { theme: 'light', accent: '#ff0000', analytics: true }
    equal(options()?.theme, 'light', 'the property wins over the attribute')
    equal(options()?.accent, '#ff0000')
    page.modal.config = { analytics: true }
    equal(options()?.theme, 'dark', 'back to the attribute')
    equal(options()?.accent, undefined, 'back to the default')
    equal(options()?.analytics, true)
    page.modal.config = {}
    equal(options()?.analytics, false)
    page.modal.setAttribute('theme', 'light')
    equal(options()?.theme, 'light', 'an attribute change applies while the property leaves the option out')
    equal(options()?.networks.join(), 'eip155:31337')
  })

  it('error: a bad config value is reported and ignored: the option comes from its attribute, as the warning says', async () => {
    page = mount({ networks: 'eip155:31337', theme: 'dark' })
    page.modal.config = { theme: 'purple' as 'dark', accent: 'not a colour' }
    const mounted = page
    await waitFor(() => errorsOf(mounted).length >= 2, 'two wallet-error events')
    equal(page.modal.walletConfig.$options.get().theme, 'dark')
    equal(page.modal.walletConfig.$options.get().accent, undefined)
    assert(
      warnings.some(
        (warning) =>
          warning ===
          '<wallet-modal> config.theme: Expected "light" | "dark" | "system", received "purple". Using the theme attribute instead.',
      ),
      `theme warning in ${JSON.stringify(warnings)}`,
    )
    assert(
      warnings.some(
        (warning) =>
          warning.startsWith('<wallet-modal> config.accent: ') &&
          warning.endsWith('. Using the default instead.'),
      ),
      `accent warning in ${JSON.stringify(warnings)}`,
    )
    assert(
      errorsOf(page).includes('Expected "light" | "dark" | "system", received "purple"'),
      'the exact message',
    )
    // The same bad value again is the same problem: no second report.
    page.modal.config = { theme: 'purple' as 'dark', accent: 'not a colour' }
    await new Promise((resolve) => setTimeout(resolve, 50))
    equal(errorsOf(page).length, 2)
  })

  it('error: an unknown config option is reported and ignored', async () => {
    page = mount({ networks: 'eip155:31337' })
    page.modal.config = { colour: 'red', theme: 'dark' } as never
    const mounted = page
    await waitFor(() => errorsOf(mounted).includes('Unknown option'), 'wallet-error Unknown option')
    equal(page.modal.walletConfig.$options.get().theme, 'dark', 'the known options apply')
    assert(
      warnings.includes('<wallet-modal> config.colour: Unknown option. Ignoring it.'),
      JSON.stringify(warnings),
    )
  })
})
