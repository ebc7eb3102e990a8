// The script-tag entry (dist/wallet-elements.js): registers the elements; lazy chunks load from beside it.
import '../elements/index.ts'
