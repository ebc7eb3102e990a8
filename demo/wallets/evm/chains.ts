// The chains the Demo Wallet knows: the local one, and those a page added (persisted, read back defensively).

/** A chain the wallet can forward reads to and send on. */
export type KnownChain = { name: string; rpcUrl: string }

/** The local chain, which the wallet always knows and never persists. */
export const DEFAULT_CHAIN_ID = 31337

const CHAINS_KEY = 'demo-wallet/chains'

/**
 * The chains added by wallet_addEthereumChain, from storage (data from an earlier version or another tab).
 */
export function readAddedChains(storage: Storage | undefined): [number, KnownChain][] {
  let value: unknown
  try {
    const raw = storage?.getItem(CHAINS_KEY)
    value = raw ? JSON.parse(raw) : undefined
  } catch {
    return []
  }
  if (!value || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([id, chain]): [number, KnownChain][] => {
    const { name, rpcUrl } = (chain ?? {}) as Partial<KnownChain>
    const chainId = Number(id)
    return Number.isSafeInteger(chainId) && typeof name === 'string' && typeof rpcUrl === 'string'
      ? [[chainId, { name, rpcUrl }]]
      : []
  })
}

/** Persists every chain but the local one. */
export function writeAddedChains(storage: Storage | undefined, chains: Map<number, KnownChain>): void {
  const added = Object.fromEntries([...chains].filter(([id]) => id !== DEFAULT_CHAIN_ID))
  try {
    storage?.setItem(CHAINS_KEY, JSON.stringify(added))
  } catch {
    // Storage full or blocked: the wallet still works for this page load.
  }
}

/** Forgets the added chains, in storage and in `chains`. */
export function resetAddedChains(storage: Storage | undefined, chains: Map<number, KnownChain>): void {
  storage?.removeItem(CHAINS_KEY)
  for (const id of [...chains.keys()]) if (id !== DEFAULT_CHAIN_ID) chains.delete(id)
}
