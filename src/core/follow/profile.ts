import { computed } from 'nanostores'
import type { Config } from '../config.ts'

/**
 * Loads the connected account's registered name and avatar (the button and Account show them) now,
 * when the account changes, and again with each read of its balances (the profile's own 5-minute cache
 * decides whether that asks the service).
 *
 * @example
 * const stop = followProfile(config)
 */
export function followProfile(config: Config): () => void {
  const load = () => {
    const account = config.$account.get()
    if (!account || !config.$options.get().features.names) return
    void import('../names.ts').then((names) => names.fetchProfile(config, account.address)).catch(() => {})
  }
  load()
  const $address = computed(config.$account, (account) => account?.address)
  const stopAccount = $address.listen(load)
  const stopBalances = config.$balances.listen((balances, _before, key) => {
    if (key !== undefined && balances[key]?.status === 'loading') load()
  })
  return () => {
    stopAccount()
    stopBalances()
  }
}
