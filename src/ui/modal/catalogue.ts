import type { Config } from '../../core/createConfig.ts'

/**
 * Loads the Connect view's catalogue part (featured and recommended wallets, the count), its code
 * on first use: when the pointer or focus reaches the button, and when the Connect view shows. A
 * catalogue loading or loaded is not asked again (`force` retries one that failed), and without a
 * service it is `disabled`: then no catalogue code loads at all.
 *
 * @example
 * onPointerEnter={() => loadCatalogueLazily(config)}
 */
export function loadCatalogueLazily(config: Config, force = false): void {
  const { status } = config.$catalogue.get()
  if (status === 'disabled' || (!force && status !== 'idle')) return
  void import('../../core/actions/loadCatalogue.ts')
    .then(({ loadCatalogue }) => loadCatalogue(config, { force }))
    .catch(() => {})
}
