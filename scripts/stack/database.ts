// The service's database when the stack keeps it in memory (the end-to-end tests): a new, empty one at
// each start of the service, loaded from an image of the migrated and seeded database that the first
// start made. Loading the image takes about a second; migrating and seeding a new one about four.
import { PGlite } from '@electric-sql/pglite'
import { createDatabase, type DatabaseConfig, type ServiceDatabase } from '../../server/db/database.ts'
import type { ServiceLogger } from '../../server/logger.ts'

export type MemoryDatabases = {
  /** A new in-memory database, migrated and seeded, with nothing else in it. */
  open(): Promise<ServiceDatabase>
}

/**
 * Fresh in-memory databases for the service, each as the migrations and the seed leave it.
 *
 * @example
 * const databases = memoryDatabases(config, logger)
 * const service = await startService({ config, database: await databases.open() })
 */
export function memoryDatabases(config: DatabaseConfig, logger: ServiceLogger): MemoryDatabases {
  let image: Promise<Blob> | undefined
  return {
    async open() {
      if (image) {
        const pglite = new PGlite({ loadDataDir: await image })
        return createDatabase(config, { pglite, logger })
      }
      const pglite = new PGlite()
      const database = await createDatabase(config, { pglite, logger })
      image = pglite.dumpDataDir('none')
      await image
      return database
    },
  }
}
