// A web-test-runner reporter that writes the run's counts as one JSON line to TEST_SUMMARY_FILE (when
// set), in the shape test/support/summary-reporter.mjs writes for node's runner: `npm test`
// (scripts/test.ts) reads both for its table. A test file that failed to load counts as one failure.
import { writeFileSync } from 'node:fs'

/**
 * @example
 * export default { reporters: [defaultReporter(), summaryReporter()] }
 */
export function summaryReporter() {
  return {
    onTestRunFinished({ sessions }) {
      const file = process.env.TEST_SUMMARY_FILE
      if (!file) return
      const counts = { passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0 }
      let firstFailure
      const top = []
      const walk = (suite, path, testFile) => {
        for (const test of suite.tests ?? []) {
          if (test.skipped) counts.skipped++
          else if (test.passed) counts.passed++
          else {
            counts.failed++
            firstFailure ??= {
              name: [...path, test.name].join(' › '),
              file: testFile,
              message: firstLine(test.error?.message ?? 'failed'),
            }
          }
        }
        for (const child of suite.suites ?? []) walk(child, [...path, child.name], testFile)
      }
      for (const session of sessions) {
        if (session.testResults) walk(session.testResults, [], session.testFile)
        for (const error of session.errors ?? []) {
          counts.failed++
          firstFailure ??= {
            name: session.testFile,
            file: session.testFile,
            message: firstLine(error.message),
          }
        }
        top.push({ file: session.testFile, name: session.testFile, passed: session.passed, seconds: 0 })
      }
      writeFileSync(
        file,
        `${JSON.stringify({ ...counts, ...(firstFailure ? { firstFailure } : {}), top })}\n`,
      )
    },
  }
}

/** The first line of a message that says something, at most 300 characters. */
function firstLine(text) {
  const line = String(text)
    .split('\n')
    .find((part) => part.trim() !== '')
  return (line ?? '').trim().slice(0, 300)
}
