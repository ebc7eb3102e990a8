// A node:test reporter that writes one JSON line when a run ends: how many tests passed, failed, were
// cancelled or skipped, and the first failure (the test's name, its file and the first line of its
// message). `npm test` (scripts/test.ts) runs each suite with it beside the spec reporter, and names
// the file in TEST_SUMMARY_FILE:
//
//   TEST_SUMMARY_FILE=summary.json node --test --test-reporter=spec --test-reporter-destination=stdout \
//     --test-reporter=./test/support/summary-reporter.mjs --test-reporter-destination=/dev/null
//
// The file is written again each time a top-level test or suite ends, not once when the reporter's
// stream ends: with --test-force-exit the process exits before that, and before node's own totals.
//
// It also lists each top-level test or suite in the order they ended (`top`: file, name, passed,
// seconds), which the end-to-end runner reads for each file's time and, when it repeats files, for each
// run's outcome.
//
// Tests are counted as node's own summary counts them (every `it`/`test`, nested ones too, never a
// `describe`). A `before` hook that throws cancels its suite's tests; the failure named is then the
// hook's error, which says why, not the cancellations that follow from it.

import { writeFileSync } from 'node:fs'

/** @typedef {{ name: string, file?: string, message: string }} Failure */

/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* summaryReporter(source) {
  const counts = { passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0 }
  /** @type {Failure | undefined} */
  let firstFailure
  /** @type {Failure | undefined} */
  let firstCancelled
  /** @type {{ file?: string, name: string, passed: boolean, seconds: number }[]} */
  const top = []
  const summary = () => {
    const named = firstFailure ?? firstCancelled
    return `${JSON.stringify({ ...counts, ...(named ? { firstFailure: named } : {}), top })}\n`
  }
  const save = () => {
    if (process.env.TEST_SUMMARY_FILE) writeFileSync(process.env.TEST_SUMMARY_FILE, summary())
  }
  /** Counts one test's end (a suite's only when it failed on its own: a hook). */
  const count = (type, data) => {
    const suite = data.details?.type === 'suite'
    if (type === 'test:pass') {
      if (suite) return
      if (data.skip !== undefined) counts.skipped++
      else if (data.todo !== undefined) counts.todo++
      else counts.passed++
      return
    }
    // A `todo` test that fails is what it says (a known gap, kept as a test); node does not fail the run.
    if (data.todo !== undefined) {
      if (!suite) counts.todo++
      return
    }
    const error = data.details?.error
    const failure = () => ({
      name: data.name,
      ...(data.file ? { file: data.file } : {}),
      message: gist((error?.cause ?? error)?.message ?? 'failed'),
    })
    if (error?.failureType === 'cancelledByParent') {
      if (!suite) counts.cancelled++
      firstCancelled ??= failure()
    } else if (error?.failureType !== 'subtestsFailed') {
      // A test's own failure, or a suite's hook that threw.
      if (!suite) counts.failed++
      firstFailure ??= failure()
    }
  }
  for await (const { type, data } of source) {
    if (type === 'test:plan' && data.nesting === 0) save()
    if (type !== 'test:pass' && type !== 'test:fail') continue
    count(type, data)
    if (data.nesting === 0) {
      top.push({
        ...(data.file ? { file: data.file } : {}),
        name: data.name,
        passed: type === 'test:pass',
        seconds: Math.round((data.details?.duration_ms ?? 0) / 100) / 10,
      })
      save()
    }
  }
  yield summary()
}

/**
 * The lines of a message that say something, joined, at most 600 characters: enough for an assertion's
 * diff ("Expected values to be strictly deep-equal:" alone says nothing of what differed).
 */
function gist(text) {
  return String(text)
    .split('\n')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part !== '...')
    .join(' ⏎ ')
    .slice(0, 600)
}
