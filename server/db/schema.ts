// The service's Drizzle schema. Each context's tables live beside its code (server/<context>/tables.ts,
// which exports tables only); this module gathers them, so every import of `db/schema.ts` and Drizzle
// itself see the one schema.

import * as analytics from '../analytics/tables.ts'
import * as auth from '../auth/tables.ts'
import * as catalogue from '../catalogue/tables.ts'
import * as permissions from '../embedded/permissionTables.ts'
import * as shareSets from '../embedded/shareTables.ts'
import * as embedded from '../embedded/tables.ts'
import * as history from '../history/tables.ts'
import * as http from '../http/tables.ts'
import * as names from '../names/tables.ts'
import * as onramp from '../onramp/tables.ts'
import * as paymaster from '../paymaster/tables.ts'
import * as projects from '../projects/tables.ts'

export * from '../analytics/tables.ts'
export * from '../auth/tables.ts'
export * from '../catalogue/tables.ts'
export * from '../embedded/permissionTables.ts'
export * from '../embedded/shareTables.ts'
export * from '../embedded/tables.ts'
export * from '../history/tables.ts'
export * from '../http/tables.ts'
export * from '../names/tables.ts'
export * from '../onramp/tables.ts'
export * from '../paymaster/tables.ts'
export * from '../projects/tables.ts'

export const schema = {
  ...projects,
  ...catalogue,
  ...analytics,
  ...auth,
  ...http,
  ...embedded,
  ...shareSets,
  ...permissions,
  ...names,
  ...onramp,
  ...paymaster,
  ...history,
}
