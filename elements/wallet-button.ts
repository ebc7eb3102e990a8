import r2wc from '@r2wc/react-to-web-component'
import { ButtonHost } from '../src/ui/button/ButtonHost.tsx'
import { elementBase, upgradeProperties } from './base.ts'

/** Attributes, also properties (r2wc reflects each property to its attribute). */
const PROPS = { label: 'string', size: 'string', balance: 'string', namespace: 'string' } as const

const Base = elementBase(() => r2wc(ButtonHost, { shadow: 'open', props: PROPS })) as unknown as {
  new (): HTMLElement & { connectedCallback(): void }
}

/**
 * The connect button: "Connect Wallet", then the short address and balance. Opens the modal.
 * With no `<wallet-modal>` on the page, it adds one.
 *
 * @summary Wallet connect button.
 * @tag wallet-button
 *
 * @attr label - Text while disconnected (default "Connect Wallet").
 * @attr {'sm' | 'md' | 'lg'} size - Size of the button.
 * @attr {'show' | 'hide'} balance - Whether to show the balance when connected (default show).
 * @attr {'eip155' | 'solana'} namespace - Which namespace's account to show.
 *
 * @csspart button - The button.
 * @csspart address - The short address.
 * @csspart balance - The balance.
 *
 * @cssproperty --wallet-accent - Accent colour.
 * @cssproperty --wallet-accent-foreground - Text on the accent colour.
 * @cssproperty --wallet-font-family - Font family.
 */
export class WalletButtonElement extends Base {
  declare label: string | undefined
  declare size: 'sm' | 'md' | 'lg' | undefined
  declare balance: 'show' | 'hide' | undefined
  declare namespace: 'eip155' | 'solana' | undefined

  constructor() {
    super()
    // A framework may have set these before this class was defined (before the script ran).
    upgradeProperties(this, Object.keys(PROPS))
  }

  override connectedCallback(): void {
    super.connectedCallback()
    const doc = this.ownerDocument
    // Wait for the parser, so a <wallet-modal> later in the page is found rather than duplicated.
    const ensureModal = () => {
      if (!doc.querySelector('wallet-modal')) doc.body.append(doc.createElement('wallet-modal'))
    }
    if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', ensureModal, { once: true })
    else queueMicrotask(ensureModal)
  }
}

/** Registers `<wallet-button>` unless a tag of that name already exists. */
export function defineWalletButton(registry: CustomElementRegistry = customElements): void {
  if (!registry.get('wallet-button')) registry.define('wallet-button', WalletButtonElement)
}

declare global {
  interface HTMLElementTagNameMap {
    'wallet-button': WalletButtonElement
  }
}
