// What the WalletConnect connector's Node tests share: a place for the sign-client's files, and its
// five-minute timers kept from holding the test's process open.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/**
 * Readies Node for the connector's sign-client: its sessions go to files under the working directory
 * (a fresh temporary one), and a pairing's wait for the wallet's answer (5 minutes,
 * @walletconnect/utils createDelayedPromise, with no way to call it off from outside) must not keep the
 * process alive. Returns what puts both back.
 *
 * @example
 * let restore: () => void
 * before(() => { restore = walletConnectInNode('wc-resume-') })
 * after(() => restore())
 */
export function walletConnectInNode(prefix: string): () => void {
  const realSetTimeout = globalThis.setTimeout
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    const timer = realSetTimeout(...args)
    if ((args[1] ?? 0) >= 60_000) timer.unref()
    return timer
  }) as typeof setTimeout
  const home = process.cwd()
  const scratch = mkdtempSync(path.join(tmpdir(), prefix))
  process.chdir(scratch)
  return () => {
    globalThis.setTimeout = realSetTimeout
    process.chdir(home)
    rmSync(scratch, { recursive: true, force: true })
  }
}
