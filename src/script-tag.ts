// The script-tag entry (dist/wallet-elements.js): registers the elements; lazy chunks load from beside it.
import { defineElements } from '../elements/index.ts'

defineElements()
