// The sites a demo wallet has connected, per origin, like an extension's list (the EVM and Solana sides
// each keep one).
/**
 * Whether `origin` is connected, kept as a JSON array of origins under `key` in `storage`. Without
 * storage (blocked, or none given) authorization lasts for the page load only. Storage is read back
 * defensively: it is data from an earlier version or another tab.
 */
export function createSiteAuthorization({
  origin,
  storage,
  key,
}: {
  origin: string
  storage: Storage | undefined
  key: string
}) {
  let memoryAuthorized = false
  const read = (): string[] => {
    try {
      const raw = storage?.getItem(key)
      const value: unknown = raw ? JSON.parse(raw) : undefined
      return Array.isArray(value) ? value.filter((site): site is string => typeof site === 'string') : []
    } catch {
      return []
    }
  }
  const write = (sites: readonly string[]): void => {
    try {
      storage?.setItem(key, JSON.stringify(sites))
    } catch {
      // Storage full or blocked: the wallet still works for this page load.
    }
  }
  return {
    isAuthorized: (): boolean => (storage ? read().includes(origin) : memoryAuthorized),
    authorize(): void {
      memoryAuthorized = true
      const sites = read()
      if (!sites.includes(origin)) write([...sites, origin])
    },
    forget(): void {
      memoryAuthorized = false
      write(read().filter((site) => site !== origin))
    },
    /** Forgets every origin, without events (a reinstall). */
    reset(): void {
      memoryAuthorized = false
      storage?.removeItem(key)
    },
  }
}

export type SiteAuthorization = ReturnType<typeof createSiteAuthorization>
