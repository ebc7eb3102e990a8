import { defineWalletButton } from './wallet-button.ts'
import { defineWalletModal } from './wallet-modal.ts'

export type * from './attributes.ts'
export { defineWalletButton, WalletButtonElement } from './wallet-button.ts'
export { defineWalletModal, WalletModalElement } from './wallet-modal.ts'

/**
 * Registers `<wallet-modal>` and `<wallet-button>` (each unless a tag of that name exists). In
 * Node, with no `customElements`, it does nothing, so server rendering can import the elements.
 *
 * @example
 * defineElements()
 */
export function defineElements(): void {
  if (typeof customElements === 'undefined') return
  defineWalletModal()
  defineWalletButton()
}

// Importing `wallet-elements/elements` registers both (package.json "sideEffects" lists it).
defineElements()
