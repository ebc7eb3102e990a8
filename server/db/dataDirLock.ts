import { open, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Takes the PGlite data folder for this process, by a lock file holding the pid. A lock left by a
 * process that is gone is taken over. Resolves to the release function.
 *
 * @example
 * const release = await acquireDataDirLock('/srv/wallet-elements/data')
 * try { … } finally { await release() }
 */
export async function acquireDataDirLock(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = join(dataDir, 'wallet-elements.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, 'wx')
      await handle.writeFile(String(process.pid))
      await handle.close()
      let released = false
      return async () => {
        if (released) return
        released = true
        await rm(lockPath, { force: true })
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const pid = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim())
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new Error(
          `The data folder ${dataDir} is in use by process ${pid}. PGlite allows one process at a time: ` +
            'stop the service before using the CLI on it, or use PostgreSQL (DATABASE_URL).',
        )
      }
      if (pid === process.pid) {
        throw new Error(`The data folder ${dataDir} is already open in this process.`)
      }
      await rm(lockPath, { force: true })
    }
  }
  throw new Error(`Could not lock the data folder ${dataDir}.`)
}
