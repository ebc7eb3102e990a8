// The package as people install it, for the package suite's test files: the tarball `npm pack` makes,
// and npm run in a fixture folder.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
const ROOT = resolve('.')

/**
 * Runs npm in `cwd` quietly (no audit, fund or update notices) and answers what it printed.
 *
 * @example
 * await npm(['install', '--prefer-offline'], folder)
 */
export async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout, stderr } = await run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=warn'], {
    cwd,
    maxBuffer: 64 * 2 ** 20,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  })
  return `${stdout}${stderr}`
}

/**
 * Packs the package into `destination` (building it first when dist/ is missing) and answers the
 * tarball's path, for a fixture's `"wallet-elements": "file:<tarball>"`.
 *
 * @example
 * const tarball = await packTarball(work)
 */
export async function packTarball(destination: string): Promise<string> {
  if (!existsSync('dist/wallet-elements.js') || !existsSync('dist/types/src/index.d.ts'))
    await run('npm', ['run', 'build'], { cwd: ROOT, maxBuffer: 64 * 2 ** 20 })
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], { cwd: ROOT })
  const packed = JSON.parse(stdout) as { filename: string }[]
  return join(destination, packed[0]?.filename ?? '')
}
