import { createTtlCache } from '../cache.ts'
import type { Db } from '../db/database.ts'
import { getProject, type Project } from './store.ts'

export interface ProjectResolver {
  /** The project with this id, or null; served from a short per-instance cache. */
  resolve(id: string): Promise<Project | null>
  /** Forgets cached projects (all, or one id). */
  clear(id?: string): void
}

/**
 * Looks projects up for every API request, caching answers (found or not) for `ttlMs` so a page's
 * burst of requests costs one read. A change made with the CLI reaches every instance within `ttlMs`.
 *
 * @example
 * const projects = createProjectResolver(db, { ttlMs: 5000 })
 * const project = await projects.resolve('dev-project')
 */
export function createProjectResolver(db: Db, options: { ttlMs: number }): ProjectResolver {
  const cache = createTtlCache<Project | null>({ ttlMs: options.ttlMs })
  return {
    resolve: (id) => cache.get(id, () => getProject(db, id)),
    clear: (id) => cache.clear(id),
  }
}
