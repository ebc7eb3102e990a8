// The migration tests' starting point: a database as the code before a migration wrote it.
import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * A copy of the service's migrations (in `scratch`) as they were before migration `index`: the later
 * ones removed from the folder and the journal (a migration dated after `index` would have the
 * migrator skip it). Migrate a fresh database with it, write rows as the old code did, then open it
 * with `createDatabase` to run the new migrations.
 *
 * @example
 * await migrate(drizzle(pglite), { migrationsFolder: await migrationsBefore(scratch, 16) })
 */
export async function migrationsBefore(scratch: string, index: number): Promise<string> {
  const folder = fileURLToPath(new URL('../../../server/db/migrations', import.meta.url))
  const copy = join(scratch, 'migrations')
  await cp(folder, copy, { recursive: true })
  const journalPath = join(copy, 'meta', '_journal.json')
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as {
    entries: { idx: number; tag: string }[]
  }
  for (const entry of journal.entries.filter((entry) => entry.idx >= index))
    await rm(join(copy, `${entry.tag}.sql`))
  journal.entries = journal.entries.filter((entry) => entry.idx < index)
  await writeFile(journalPath, JSON.stringify(journal))
  return copy
}
