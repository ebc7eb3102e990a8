// `<wallet-modal>` and `<wallet-button>` in Vue templates, typed (vue-tsc, strictTemplates included):
// `import type {} from 'wallet-elements/vue'` once in the app (or list it in tsconfig "types"), and
// tell the compiler they are custom elements: `vue({ template: { compilerOptions: { isCustomElement:
// (tag) => tag.startsWith('wallet-') } } })`. Bind `config` as a property: `:config.prop="options"`
// (or `:config`, which Vue sets as a property once the element is defined).
import type { DefineComponent } from 'vue'
import type {
  WalletButtonAttributes,
  WalletEventProps,
  WalletModalAttributes,
  WalletModalProperties,
} from '../dist/types/elements/attributes.js'

declare module 'vue' {
  interface GlobalComponents {
    'wallet-modal': DefineComponent<WalletModalAttributes & WalletModalProperties & WalletEventProps>
    'wallet-button': DefineComponent<WalletButtonAttributes>
  }
}
