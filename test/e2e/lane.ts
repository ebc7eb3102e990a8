/**
 * One lane of the end-to-end suite: runs the test files named on its command line one after another in
 * this process, so that they share one local stack (test/e2e/harness.ts `startTestStack`), and stops
 * that stack when the last file is done. scripts/test-e2e.ts starts the lanes side by side.
 *
 *   E2E_STACK_PARTS=solana,bitcoin node --import tsx --test-force-exit test/e2e/lane.ts \
 *     test/e2e/solana.test.ts test/e2e/bitcoin.test.ts
 *
 * `E2E_REPEAT=5` runs each file five times in a row (`npm run test:e2e:repeat`). `--test-force-exit`
 * ends the process once the stack has stopped, whatever a file left open.
 */
import path from 'node:path'
import { after } from 'node:test'
import { pathToFileURL } from 'node:url'
import { stopSharedStack } from './harness.ts'

process.env.E2E_LANE ??= '1'

after(() => stopSharedStack())

// Each import under its own query is a new module, so a repeated file's tests register again; the
// harness and the stack it shares stay the one module.
const repeat = Number(process.env.E2E_REPEAT ?? 1)
for (const file of process.argv.slice(2)) {
  const url = pathToFileURL(path.resolve(file)).href
  for (let run = 1; run <= repeat; run++) await import(repeat === 1 ? url : `${url}?run=${run}`)
}
