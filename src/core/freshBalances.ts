import type { ReadableAtom } from 'nanostores'
import { atom, onMount } from 'nanostores'
import type { CaipNetworkId } from '../protocol/caip.ts'
import { fetchBalance } from './actions/fetchBalance.ts'
import { balanceKey } from './balanceKey.ts'
import type { Config } from './config.ts'
import { networkRpc } from './rpcUrl.ts'

/**
 * How often a network makes a block, in milliseconds, for polling no faster than that. Networks not
 * listed poll every 2 s (a fast block time; a slower chain simply answers the same block again).
 * Solana's slots (400 ms) are read every 2 s: a new slot nearly always comes, and a balance read each
 * slot would cost more than it shows.
 */
const BLOCK_TIME_MS: Readonly<Record<string, number>> = {
  'eip155:1': 12_000,
  'eip155:11155111': 12_000,
  'eip155:10': 2_000,
  'eip155:8453': 2_000,
  'eip155:84532': 2_000,
  'eip155:137': 2_000,
  'eip155:56': 3_000,
  'eip155:43114': 2_000,
  'eip155:42161': 1_000,
  // The local development chains mine a block for each transaction (automine).
  'eip155:31337': 1_000,
  'eip155:31338': 1_000,
}
const DEFAULT_BLOCK_TIME_MS = 2_000
const SOLANA_POLL_MS = 2_000
/** Bitcoin's node APIs are REST, with no block number to poll: its balance is read again this often. */
const BITCOIN_POLL_MS = 10_000

/**
 * The interval at which new blocks are looked for on a network: never faster than its block time.
 *
 * @example
 * blockTimeMs('eip155:1') // 12000
 */
export function blockTimeMs(caipNetworkId: CaipNetworkId): number {
  if (caipNetworkId.startsWith('solana:')) return SOLANA_POLL_MS
  if (caipNetworkId.startsWith('bip122:')) return BITCOIN_POLL_MS
  return BLOCK_TIME_MS[caipNetworkId] ?? DEFAULT_BLOCK_TIME_MS
}

/**
 * The latest block (EVM) or slot (Solana) of the connected network, as seen by a poll through the
 * RPC proxy, while someone listens: the views that show balances (Account, Send, Swap) subscribe, so
 * the poll runs only while one of them is open, never while the modal is closed. On each new block the
 * balances are read again (the 30 s cache still answers repeated fetches of the same block); when
 * the tab becomes visible again they are read at once. Nothing runs in a hidden tab.
 *
 * @example
 * const unsubscribe = freshBalances(config).listen(() => {}) // polls until unsubscribed
 */
export function freshBalances(config: Config): ReadableAtom<number | undefined> {
  const known = config.internal.freshBalances
  if (known) return known
  const $block = atom<number | undefined>(undefined)
  // The last block seen, kept between openings: a block mined while the modal was closed reads again.
  let last: { network: CaipNetworkId; block: number } | undefined
  /** Whether the shown balance may predate the chain's latest block (no block of it seen yet). */
  const stale = (caipNetworkId: CaipNetworkId) => {
    const account = config.$account.get()
    const cached = account ? config.$balances.get()[balanceKey(caipNetworkId, account.address)] : undefined
    return !cached || config.platform.now() - cached.fetchedAt >= blockTimeMs(caipNetworkId)
  }
  onMount($block, () => {
    const win = config.platform.window
    let timer: ReturnType<typeof setTimeout> | undefined
    let stopped = false
    const hidden = () => win?.document.visibilityState === 'hidden'
    const poll = async () => {
      timer = undefined
      const network = config.$network.get()
      const account = config.$account.get()
      const caipNetworkId = network?.caipNetworkId
      if (stopped || !caipNetworkId) return
      if (
        !hidden() &&
        account &&
        network.supported &&
        network.network &&
        caipNetworkId.startsWith('bip122:')
      ) {
        void fetchBalance(config, { refresh: true }).catch(() => {})
      } else if (!hidden() && account && network.supported && network.network) {
        const method = caipNetworkId.startsWith('solana:') ? 'getSlot' : 'eth_blockNumber'
        try {
          const answer = await networkRpc(config, caipNetworkId)(method, [])
          const block = typeof answer === 'string' ? Number.parseInt(answer, 16) : Number(answer)
          if (!stopped && Number.isFinite(block)) {
            const moved = last?.network === caipNetworkId ? block !== last.block : stale(caipNetworkId)
            last = { network: caipNetworkId, block }
            $block.set(block)
            if (moved) void fetchBalance(config, { refresh: true }).catch(() => {})
          }
        } catch {
          // The RPC is down for now: the next poll tries again; balances keep what they showed.
        }
      }
      if (!stopped) timer = setTimeout(() => void poll(), blockTimeMs(caipNetworkId))
    }
    const onVisibility = () => {
      if (hidden()) return
      void fetchBalance(config, { refresh: true }).catch(() => {})
      // A poll waiting out a long block time starts again now.
      if (timer !== undefined) {
        clearTimeout(timer)
        void poll()
      }
    }
    win?.document.addEventListener('visibilitychange', onVisibility)
    void poll()
    return () => {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
      win?.document.removeEventListener('visibilitychange', onVisibility)
    }
  })
  config.internal.freshBalances = $block
  return $block
}
