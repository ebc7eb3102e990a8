// `<wallet-modal>` and `<wallet-button>` in Svelte 5 markup, typed (svelte-check):
// `import type {} from 'wallet-elements/svelte'` once in the app (or list it in tsconfig "types").
// Svelte sets `config` as a property and listens to `onwallet-connect` and the other events itself.
import type { HTMLAttributes } from 'svelte/elements'
import type {
  WalletButtonAttributes,
  WalletEventAttributes,
  WalletModalAttributes,
  WalletModalProperties,
} from '../dist/types/elements/attributes.js'
import type { WalletButtonElement } from '../dist/types/elements/wallet-button.js'
import type { WalletModalElement } from '../dist/types/elements/wallet-modal.js'

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'wallet-modal': Omit<HTMLAttributes<WalletModalElement>, keyof WalletModalAttributes> &
      WalletModalAttributes &
      WalletModalProperties &
      WalletEventAttributes
    'wallet-button': Omit<HTMLAttributes<WalletButtonElement>, keyof WalletButtonAttributes> &
      WalletButtonAttributes
  }
}
