/**
 * Keeps the x87/MMX state clean after litesvm runs programs (see `fpu-reset.c` for the why): on x86-64 the tiny
 * addon is compiled once with the system C compiler and Node's headers, cached in the temp folder, and called
 * after every SVM execution. Elsewhere (arm64 has no SBF JIT) it is a no-op.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export type FpuReset = () => void

const noop: FpuReset = () => {}

function headerDir(): string | null {
  const candidates = [
    process.env.NODE_API_INCLUDE_DIR,
    join(dirname(process.execPath), '..', 'include', 'node'),
    '/usr/include/node',
    '/usr/local/include/node',
  ]
  for (const dir of candidates) {
    if (dir && existsSync(join(dir, 'node_api.h'))) return dir
  }
  return null
}

let cached: { reset: FpuReset; error: string | null } | undefined

/** Builds (once) and loads the addon in `dir`. */
function buildAndLoad(dir: string, source: string, hash: string): FpuReset {
  const target = join(dir, `fpu-reset-${hash}.node`)
  if (!existsSync(target)) {
    const include = headerDir()
    if (!include) throw new Error('Node-API headers (node_api.h) not found; set NODE_API_INCLUDE_DIR')
    mkdirSync(dir, { recursive: true })
    const partial = `${target}.${process.pid}.tmp`
    try {
      execFileSync(
        process.env.CC || 'cc',
        ['-shared', '-fPIC', '-O2', `-I${include}`, '-o', partial, source],
        {
          stdio: 'pipe',
          timeout: 60_000,
        },
      )
      renameSync(partial, target)
    } finally {
      rmSync(partial, { force: true })
    }
  }
  const addon = createRequire(import.meta.url)(target) as { reset?: unknown }
  if (typeof addon.reset !== 'function') throw new Error('fpu-reset addon has no reset()')
  return addon.reset as FpuReset
}

/**
 * The reset function, and why it could not be built (null when it was, or when none is needed). Compiling takes
 * a fraction of a second the first time on a machine; later starts load the cached addon. The cache lives in
 * SOLANA_FPU_CACHE_DIR, else the temp folder, else node_modules/.cache (for a temp folder mounted noexec).
 */
export function loadFpuReset(): { reset: FpuReset; error: string | null } {
  if (cached) return cached
  if (process.arch !== 'x64') {
    cached = { reset: noop, error: null }
    return cached
  }
  const errors: string[] = []
  try {
    const source = fileURLToPath(new URL('./fpu-reset.c', import.meta.url))
    const hash = createHash('sha256')
      .update(readFileSync(source))
      .update(process.platform)
      .digest('hex')
      .slice(0, 16)
    const dirs = [
      process.env.SOLANA_FPU_CACHE_DIR,
      join(tmpdir(), 'wallet-elements-solana'),
      join(process.cwd(), 'node_modules', '.cache', 'wallet-elements-solana'),
    ]
    for (const dir of dirs) {
      if (!dir) continue
      try {
        cached = { reset: buildAndLoad(dir, source, hash), error: null }
        return cached
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error)
        errors.push(`${dir}: ${detail.split('\n')[0] ?? detail}`)
      }
    }
  } catch (error) {
    errors.push(error instanceof Error ? error.message : String(error))
  }
  cached = { reset: noop, error: errors.join('; ') }
  return cached
}
