// `<wallet-modal>` and `<wallet-button>` in React 19 JSX, typed: `import type {} from 'wallet-elements/react'`
// once in the app (or list it in tsconfig "types"). React 19 sets `config` as a property and
// listens to `onwallet-connect` and the other `wallet-*` events itself.
import type { DetailedHTMLProps, HTMLAttributes } from 'react'
import type {
  WalletButtonAttributes,
  WalletEventAttributes,
  WalletModalAttributes,
  WalletModalProperties,
} from '../dist/types/elements/attributes.js'
import type { WalletButtonElement } from '../dist/types/elements/wallet-button.js'
import type { WalletModalElement } from '../dist/types/elements/wallet-modal.js'

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'wallet-modal': DetailedHTMLProps<HTMLAttributes<WalletModalElement>, WalletModalElement> &
        WalletModalAttributes &
        WalletModalProperties &
        WalletEventAttributes
      'wallet-button': DetailedHTMLProps<HTMLAttributes<WalletButtonElement>, WalletButtonElement> &
        WalletButtonAttributes
    }
  }
}
