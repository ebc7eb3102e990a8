import { defineWalletButton } from './wallet-button.ts'
import { defineWalletModal } from './wallet-modal.ts'

export { defineWalletButton, WalletButtonElement } from './wallet-button.ts'
export { defineWalletModal, WalletModalElement } from './wallet-modal.ts'

// Importing this module registers both elements (it is listed in package.json "sideEffects").
if (typeof customElements !== 'undefined') {
  defineWalletModal()
  defineWalletButton()
}
