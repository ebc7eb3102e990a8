import { z } from 'zod'
import { blankToUndefined, integer } from '../config/env.ts'

/** Where the service keeps an in-memory database (tests): `DATA_DIR=memory://`. */
export const memoryDataDir = 'memory://'

/** The database's slice of the service configuration. */
export interface DatabaseConfig {
  /** PGlite data folder, or `memory://`; ignored when `databaseUrl` is set. */
  dataDir: string
  /** PostgreSQL connection string; PGlite is used when null. */
  databaseUrl: string | null
  /** PostgreSQL schema holding the service's tables (created when missing). */
  databaseSchema: string
  /** Most PostgreSQL connections per instance. */
  databasePoolMax: number
  /** How long a PostgreSQL connection or query may take before the request answers 503, in ms. */
  databaseTimeoutMs: number
}

/** The database's variables: `DATA_DIR`, `DATABASE_URL`, `DATABASE_SCHEMA`, `DATABASE_POOL_MAX`, `DATABASE_TIMEOUT_MS`. */
export const databaseEnv = z.object({
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default('.data/service')),
  DATABASE_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(
        /^postgres(ql)?:\/\/.+/,
        'DATABASE_URL must be a PostgreSQL URL such as postgresql://user:password@127.0.0.1:5432/wallet_elements',
      )
      .optional(),
  ),
  DATABASE_SCHEMA: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'DATABASE_SCHEMA must be a lower-case SQL identifier such as public')
      .default('public'),
  ),
  DATABASE_POOL_MAX: integer('DATABASE_POOL_MAX', 1, 1000, 10),
  // Connecting and one query each get this long: together under the 10 s a request may wait.
  DATABASE_TIMEOUT_MS: integer('DATABASE_TIMEOUT_MS', 100, 60_000, 4000),
})

/**
 * The database slice from its parsed variables.
 *
 * @example
 * const database = databaseConfig(databaseEnv.parse({ DATA_DIR: memoryDataDir }))
 */
export function databaseConfig(values: z.output<typeof databaseEnv>): DatabaseConfig {
  return {
    dataDir: values.DATA_DIR,
    databaseUrl: values.DATABASE_URL ?? null,
    databaseSchema: values.DATABASE_SCHEMA,
    databasePoolMax: values.DATABASE_POOL_MAX,
    databaseTimeoutMs: values.DATABASE_TIMEOUT_MS,
  }
}
