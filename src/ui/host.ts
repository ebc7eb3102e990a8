import type { Config } from '../core/createConfig.ts'

const bound = new WeakMap<Element, Config>()

/** Event on the document when a `<wallet-modal>` has its instance, so buttons can find it. */
export const MODAL_READY_EVENT = 'wallet-modal-ready'

/** Ties a config instance to its `<wallet-modal>` element. */
export function bindConfig(host: Element, config: Config): void {
  bound.set(host, config)
  host.ownerDocument.dispatchEvent(new Event(MODAL_READY_EVENT))
}

export const configOf = (host: Element): Config | undefined => bound.get(host)

/** The instance of the first `<wallet-modal>` in a document, if any. */
export function findModalConfig(doc: Document): Config | undefined {
  for (const element of doc.querySelectorAll('wallet-modal')) {
    const config = bound.get(element)
    if (config) return config
  }
  return undefined
}
