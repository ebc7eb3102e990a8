/**
 * wallet-elements: `<wallet-modal>` and `<wallet-button>` plus the framework-free core.
 * @module
 */
export * from '../elements/index.ts'
export * from './core/index.ts'
