export interface TtlCache<Value> {
  /** The cached value for `key`, or the one `load` resolves to (shared by concurrent callers). */
  get(key: string, load: () => Promise<Value>): Promise<Value>
  /** Forgets one key, or all. */
  clear(key?: string): void
}

export interface TtlCacheOptions {
  /** How long a value is reused, in ms; 0 turns the cache off. */
  ttlMs: number
  /** Most keys kept; the oldest go first. Default 1000. */
  maxEntries?: number
  now?: () => number
}

/**
 * A small per-instance read-through cache with a time to live. Failed loads are not kept. Several
 * instances behind a load balancer each keep their own, so a change reaches all within `ttlMs`.
 *
 * @example
 * const cache = createTtlCache<Project | null>({ ttlMs: 5000 })
 * const project = await cache.get(id, () => getProject(db, id))
 */
export function createTtlCache<Value>(options: TtlCacheOptions): TtlCache<Value> {
  const maxEntries = options.maxEntries ?? 1000
  const now = options.now ?? Date.now
  const entries = new Map<string, { expires: number; value: Promise<Value> }>()
  return {
    get(key, load) {
      if (options.ttlMs <= 0) return load()
      const hit = entries.get(key)
      if (hit && hit.expires > now()) return hit.value
      const value = load()
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key)
      })
      entries.delete(key)
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next()
        if (!oldest.done) entries.delete(oldest.value)
      }
      entries.set(key, { expires: now() + options.ttlMs, value })
      return value
    },
    clear(key) {
      if (key === undefined) entries.clear()
      else entries.delete(key)
    },
  }
}
