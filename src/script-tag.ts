// The script-tag entry (dist/wallet-elements.js): registers the elements; lazy chunks load from beside it.
import { defineElements } from '../elements/index.ts'

// Its types: the element classes, and through them the tag and event maps of `document`.
export type { WalletButtonElement, WalletModalElement } from '../elements/index.ts'

defineElements()
