import { computed } from 'nanostores'
import type { Config } from '../config.ts'

/**
 * Reads the balances of the account on its network now and whenever either changes (a connection, the
 * wallet's own switch, the person's); `fetchBalance` keeps its 30 s cache and shares a read in flight.
 *
 * @example
 * const stop = followBalances(config)
 */
export function followBalances(config: Config): () => void {
  const $key = computed([config.$account, config.$network], (account, network) =>
    account && network?.network && network.supported
      ? `${account.caipAddress} ${network.caipNetworkId}`
      : undefined,
  )
  const read = (key: string | undefined) => {
    if (key)
      void import('../actions/fetchBalance.ts')
        .then(({ fetchBalance }) => fetchBalance(config))
        .catch(() => {})
  }
  read($key.get())
  return $key.listen(read)
}
