/**
 * wallet-elements: the framework-free core plus the element classes and their `define…()`
 * functions. Importing this entry registers nothing (`wallet-elements/elements` does), so a bundler
 * drops the elements, and React with them, from an app that only uses the core.
 * @module
 */
export type * from '../elements/attributes.ts'
export { defineWalletButton, WalletButtonElement } from '../elements/wallet-button.ts'
export { defineWalletModal, WalletModalElement } from '../elements/wallet-modal.ts'
export * from './core/index.ts'
