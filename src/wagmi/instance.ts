import type { Config } from '../core/index.ts'

/** Where the connector finds the modal: its instance, a function giving it, or (default) the page's `<wallet-modal>`. */
export type ModalSource = Config | (() => Config) | undefined

/**
 * The modal's instance. Unless one is given: the document's `<wallet-modal>` (one is added to the
 * body when the page has none, as `<wallet-button>` does), which needs `wallet-elements/elements`
 * imported. Read on first use, not when wagmi's config is made: that is usually before the page renders.
 *
 * @example
 * const config = modalInstance(undefined)
 */
export function modalInstance(source: ModalSource): Config {
  if (typeof source === 'function') return source()
  if (source) return source
  const doc = globalThis.document
  if (!doc || !globalThis.customElements?.get('wallet-modal'))
    throw new Error(
      "wallet-elements/wagmi: no <wallet-modal> element is defined. Import 'wallet-elements/elements' in the app (or pass `config`).",
    )
  let modal = doc.querySelector('wallet-modal')
  if (!modal) {
    modal = doc.createElement('wallet-modal')
    doc.body.append(modal)
  }
  return (modal as Element & { walletConfig: Config }).walletConfig
}
