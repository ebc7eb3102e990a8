// `npm run frame:hash`: the frame build's integrity.json, for a site to publish and pin (`frame-integrity`).
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { INTEGRITY_FILE } from './sriPlugin.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const dir = path.join(root, 'dist-frame')
const file = path.join(dir, INTEGRITY_FILE)

// The existing build, or a fresh one (`--build`, or none yet): the same sources always give the same hashes.
if (process.argv.includes('--build') || !existsSync(file)) {
  const { build } = await import('vite')
  await build({ configFile: path.join(root, 'vite.frame.config.ts'), logLevel: 'warn' })
}
process.stdout.write(readFileSync(file, 'utf8'))
