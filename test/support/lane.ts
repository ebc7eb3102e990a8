/**
 * Runs the test files named on the command line one after another in this one process, so that they
 * pay for node, tsx and their imports (fastify, viem, PGlite, …) once instead of once each:
 * scripts/test.ts deals a suite's files into a few such lanes.
 *
 *   node --import tsx --test-force-exit --test-reporter=spec test/support/lane.ts test/unit/server/a.test.ts test/unit/server/b.test.ts
 *
 * Each file runs as if it were alone:
 * - It is loaded inside a suite named after it, so the hooks it declares at its top level (`before`,
 *   `after`) are its own, not the whole process's.
 * - No test starts before every file is loaded: loading (tsx compiling, modules evaluating) takes the
 *   event loop for a while, and a test running meanwhile would see its timers late.
 * - It gets its own copy of the test helpers it imports (lane-hooks.mjs), so what a helper keeps
 *   between calls (a clock the tests move, a counter) starts as it would in a process of its own. The
 *   code under test and the packages are loaded once; they keep no state of their own between calls.
 *
 * `--test-force-exit` ends the process once the last file is done, whatever handles a file left open.
 */
import { register } from 'node:module'
import path from 'node:path'
import { describe } from 'node:test'
import { pathToFileURL } from 'node:url'

register('./lane-hooks.mjs', import.meta.url)

const loads: Promise<unknown>[] = []
let allLoaded = () => {}
const loaded = new Promise<void>((resolve) => {
  allLoaded = resolve
})
process.argv.slice(2).forEach((file, index) => {
  const url = `${pathToFileURL(path.resolve(file)).href}?lane=${index}`
  describe(path.relative(process.cwd(), path.resolve(file)), async () => {
    const load = import(url)
    loads.push(load)
    await load
    // The first suite runs first: it waits for the others' files to be loaded too.
    if (index === 0) await loaded
  })
})
void Promise.allSettled(loads).then(allLoaded)
