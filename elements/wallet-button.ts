import r2wc from '@r2wc/react-to-web-component'
import { ButtonHost } from '../src/ui/button/ButtonHost.tsx'
import type { WALLET_BUTTON_ATTRIBUTES } from './attribute-table.ts'
import type { WalletButtonAttributes } from './attributes.ts'
import { elementBase, upgradeProperties } from './base.ts'

type Table = typeof WALLET_BUTTON_ATTRIBUTES

/**
 * The r2wc props: attributes, also properties (r2wc reflects each property to its attribute). The
 * compiler holds them to the rows of the button's attribute table, one each; they are written out
 * here because importing the table would ship its descriptions in the first paint.
 * @internal
 */
export const BUTTON_PROPS = {
  label: 'string',
  size: 'string',
  balance: 'string',
  namespace: 'string',
} as const satisfies { [Name in keyof Table as Table[Name]['property']]: 'string' }

const Base = elementBase(() => r2wc(ButtonHost, { shadow: 'open', props: BUTTON_PROPS })) as unknown as {
  new (): HTMLElement & { connectedCallback(): void }
}

// No @attr here: the attributes are the rows of WALLET_BUTTON_ATTRIBUTES (elements/attribute-table.ts),
// which the manifest takes them from (scripts/manifestPlugin.ts).
/**
 * The connect button: "Connect Wallet", then the short address and balance. Opens the modal.
 * With no `<wallet-modal>` on the page, it adds one.
 *
 * @summary Wallet connect button.
 * @tag wallet-button
 *
 * @csspart button - The button.
 * @csspart address - The short address.
 * @csspart balance - The balance.
 *
 * @cssproperty --wallet-accent - Accent colour.
 * @cssproperty --wallet-accent-foreground - Text on the accent colour.
 * @cssproperty --wallet-foreground - Text colour when connected.
 * @cssproperty --wallet-muted - Colour of the balance.
 * @cssproperty --wallet-surface - Background when connected.
 * @cssproperty --wallet-surface-hover - Background when connected and hovered.
 * @cssproperty --wallet-border - Border colour when connected.
 * @cssproperty --wallet-font-family - Font family.
 * @cssproperty --wallet-font-size - Base font size.
 */
export class WalletButtonElement extends Base {
  declare label: WalletButtonAttributes['label']
  declare size: WalletButtonAttributes['size']
  declare balance: WalletButtonAttributes['balance']
  declare namespace: WalletButtonAttributes['namespace']

  constructor() {
    super()
    // A framework may have set these before this class was defined (before the script ran).
    upgradeProperties(this, Object.keys(BUTTON_PROPS))
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
