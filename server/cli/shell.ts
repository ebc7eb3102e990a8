import { pathToFileURL } from 'node:url'
import { loadConfigOrReport, type ServiceConfig } from '../config.ts'
import { createDatabase, type ServiceDatabase } from '../db/database.ts'
import { createLogger } from '../logger.ts'

export interface CliShellOptions {
  /** Printed for `--help`, `-h`, `help`, and (exit code 1) for no arguments. */
  usage: string
  /** Seed the catalogue when the database is new (the project CLI). Default true. */
  seed?: boolean
  /** Runs the command on the open database; resolves to the exit code. */
  run(argv: string[], database: ServiceDatabase, config: ServiceConfig): Promise<number>
}

/**
 * What every command-line tool of the service does around its command: help, the configuration read
 * from the environment (a bad value: its problems on stderr, exit code 1), the service's database
 * opened for the command and closed after it, the command's exit code; an unexpected failure is one
 * line on stderr and exit code 1. Never rejects.
 *
 * @example
 * if (isMainModule(import.meta.url)) void runCliShell({ usage, run: (argv, database) => runProjectCli(argv, { database, out, err }) })
 */
export async function runCliShell(options: CliShellOptions): Promise<void> {
  try {
    await shell(options)
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  }
}

/** Whether the module at `url` is the one node was started with (`tsx server/cli/….ts`). */
export const isMainModule = (url: string) =>
  process.argv[1] !== undefined && url === pathToFileURL(process.argv[1]).href

async function shell(options: CliShellOptions): Promise<void> {
  const argv = process.argv.slice(2)
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    console.log(options.usage)
    process.exitCode = argv.length === 0 ? 1 : 0
    return
  }
  const config = loadConfigOrReport(process.env)
  if (!config) return
  const database = await createDatabase(config, {
    logger: createLogger('warn'),
    ...(options.seed === false ? { seed: false } : {}),
  })
  try {
    process.exitCode = await options.run(argv, database, config)
  } finally {
    await database.close()
  }
}
