/**
 * `npm test`: every suite, then one table of what each came to.
 *
 *   npm test                      # unit, server, browser, e2e, package (+ postgres in CI)
 *   npm test -- server e2e        # some suites, in that order
 *   npm test -- --record          # and write each file's seconds to test/durations.json
 *
 * Suites:
 * - unit     test/unit (not server/): node's runner, files in lanes (test/support/lane.ts)
 * - server   test/unit/server on PGlite, in lanes
 * - browser  test/browser in Chromium (web-test-runner)
 * - e2e      test/e2e against the local stack, in lanes that each share one stack (scripts/test-e2e.ts)
 * - package  test/package: the tarball installed in fixture apps
 * - postgres test/unit/server again on a real PostgreSQL (scripts/ci-postgres.sh installs Debian's
 *            postgresql as root); on with TEST_POSTGRES=1 and in CI (CI=true)
 *
 * On two cores, the whole run is arranged around the end-to-end suite, whose files mostly wait: first
 * unit and browser alone, then the end-to-end lanes with the service suite and the package suite one
 * after the other beside them, and the PostgreSQL pass beside them too. Every line a suite prints is
 * shown as it comes, after the suite's name. A suite asked for alone runs alone, in two lanes.
 *
 * The table at the end: passed, failed (cancelled counted as failed) and skipped tests and seconds per
 * suite, and each failing suite's first failure. The exit code is 1 when anything failed.
 */
import { readdirSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import {
  dealLanes,
  mergeSummaries,
  readDurations,
  readSummary,
  root,
  runLabelled,
  type Summary,
  secondsByFile,
  summaryReporter,
  writeDurations,
} from './test/lanes.ts'
import { e2eFiles, runE2e } from './test-e2e.ts'

const SUITES = ['unit', 'server', 'browser', 'e2e', 'package', 'postgres'] as const
type SuiteName = (typeof SUITES)[number]

type Outcome = { suite: SuiteName; summary: Summary; seconds: number; files: readonly string[] }

/** The test files under `folder`, by path from the root, sorted; `skip` folders left out. */
function testFiles(folder: string, skip: readonly string[] = []): string[] {
  const found: string[] = []
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`
      if (entry.isDirectory()) {
        if (!skip.includes(child)) walk(child)
      } else if (entry.name.endsWith('.test.ts')) found.push(child)
    }
  }
  walk(folder)
  return found.sort()
}

const nodeReporters = [
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  `--test-reporter=${summaryReporter}`,
  '--test-reporter-destination=/dev/null',
]

/**
 * Node test files in `laneCount` lanes, each one process (test/support/lane.ts), wrapped by `wrap`
 * (ci-postgres.sh for the PostgreSQL pass). Answers what they came to.
 */
async function nodeLanes(
  label: string,
  files: readonly string[],
  laneCount: number,
  scratch: string,
  wrap: readonly string[] = [],
): Promise<Summary> {
  const lanes = dealLanes(files, laneCount, readDurations())
  const summaries = await Promise.all(
    lanes.map(async (lane) => {
      const name = lanes.length > 1 ? `${label} ${lane.number}` : label
      const summaryFile = path.join(scratch, `${label}-${lane.number}.json`)
      const command = [
        process.execPath,
        '--import',
        'tsx',
        '--test-force-exit',
        ...nodeReporters,
        'test/support/lane.ts',
        ...lane.files,
      ]
      const [program = '', ...args] = [...wrap, ...command]
      const code = await runLabelled(name, program, args, { TEST_SUMMARY_FILE: summaryFile })
      return readSummary(summaryFile, name, code)
    }),
  )
  return mergeSummaries(summaries)
}

/** Runs one suite; `alone` when nothing runs beside it (it may then take both cores). */
async function runSuite(suite: SuiteName, scratch: string, alone: boolean): Promise<Outcome> {
  const started = Date.now()
  const summaryFile = path.join(scratch, `${suite}.json`)
  let files: readonly string[] = []
  let summary: Summary
  switch (suite) {
    case 'unit':
      files = testFiles('test/unit', ['test/unit/server'])
      summary = await nodeLanes('unit', files, 2, scratch)
      break
    case 'server':
      files = testFiles('test/unit/server')
      summary = await nodeLanes('server', files, alone ? 2 : 1, scratch)
      break
    case 'postgres':
      files = testFiles('test/unit/server')
      summary = await nodeLanes('postgres', files, 1, scratch, ['bash', 'scripts/ci-postgres.sh'])
      break
    case 'browser': {
      const code = await runLabelled('browser', 'npx', ['wtr', '--config', 'web-test-runner.config.js'], {
        TEST_SUMMARY_FILE: summaryFile,
      })
      summary = await readSummary(summaryFile, 'browser', code)
      break
    }
    case 'e2e':
      files = e2eFiles()
      summary = await runE2e({ files })
      break
    case 'package': {
      files = testFiles('test/package')
      const code = await runLabelled(
        'package',
        process.execPath,
        [
          '--import',
          'tsx',
          '--test',
          '--test-force-exit',
          '--test-concurrency=1',
          ...nodeReporters,
          ...files,
        ],
        { TEST_SUMMARY_FILE: summaryFile },
      )
      summary = await readSummary(summaryFile, 'package', code)
      break
    }
  }
  const seconds = (Date.now() - started) / 1000
  console.log(
    `${suite} │ done: ${summary.passed} passed, ${summary.failed + summary.cancelled} failed, ${summary.skipped} skipped in ${Math.round(seconds)} s`,
  )
  return { suite, summary, seconds, files }
}

/** Runs suites one after another. */
async function inOrder(suites: readonly SuiteName[], scratch: string, alone: boolean): Promise<Outcome[]> {
  const outcomes: Outcome[] = []
  for (const suite of suites) outcomes.push(await runSuite(suite, scratch, alone))
  return outcomes
}

/** The order of a whole run: unit and browser alone, then e2e with the rest beside it. */
async function wholeRun(wanted: readonly SuiteName[], scratch: string): Promise<Outcome[]> {
  const has = (suite: SuiteName) => wanted.includes(suite)
  const first = await inOrder((['unit', 'browser'] as const).filter(has), scratch, true)
  const beside = (['server', 'package'] as const).filter(has)
  const alongside = await Promise.all([
    has('e2e') ? inOrder(['e2e'], scratch, false) : Promise.resolve([]),
    inOrder(beside, scratch, !has('e2e')),
    has('postgres') ? inOrder(['postgres'], scratch, false) : Promise.resolve([]),
  ])
  const outcomes = [...first, ...alongside.flat()]
  return SUITES.flatMap((suite) => outcomes.filter((outcome) => outcome.suite === suite))
}

/** The table, and each failing suite's first failure. */
function report(outcomes: readonly Outcome[], wallSeconds: number): string {
  const rows = outcomes.map(({ suite, summary, seconds }) => [
    suite,
    String(summary.passed),
    String(summary.failed + summary.cancelled),
    String(summary.skipped + summary.todo),
    String(Math.round(seconds)),
  ])
  const total = mergeSummaries(outcomes.map((outcome) => outcome.summary))
  rows.push([
    'total',
    String(total.passed),
    String(total.failed + total.cancelled),
    String(total.skipped + total.todo),
    `${Math.round(wallSeconds)} (wall)`,
  ])
  const header = ['suite', 'passed', 'failed', 'skipped', 'seconds']
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  )
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
  const lines = ['', line(header), ...rows.map(line)]
  for (const { suite, summary } of outcomes) {
    const failure = summary.firstFailure
    if (!failure || summary.failed + summary.cancelled === 0) continue
    const where = failure.file ? ` (${path.relative(root, failure.file.replace(/^file:\/\//, ''))})` : ''
    lines.push(`${suite}: first failure: ${failure.name}${where}: ${failure.message}`)
  }
  return lines.join('\n')
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { record: { type: 'boolean', default: false } },
  })
  const unknown = positionals.filter((name) => !(SUITES as readonly string[]).includes(name))
  if (unknown.length > 0)
    throw new Error(`Unknown suite ${unknown.join(', ')}: the suites are ${SUITES.join(', ')}`)
  const postgres = process.env.TEST_POSTGRES === '1' || process.env.CI === 'true'
  const asked = positionals as SuiteName[]
  const whole = asked.length === 0
  const wanted = whole ? SUITES.filter((suite) => suite !== 'postgres' || postgres) : asked
  if (whole && !postgres)
    console.log('postgres: not run here (TEST_POSTGRES=1 or CI=true runs it; it needs root for apt)')
  const scratch = await mkdtemp(path.join(tmpdir(), 'wallet-elements-test-'))
  const started = Date.now()
  try {
    const outcomes =
      whole || asked.length > 1 ? await wholeRun(wanted, scratch) : await inOrder(wanted, scratch, true)
    console.log(report(outcomes, (Date.now() - started) / 1000))
    if (values.record) {
      for (const outcome of outcomes) {
        if (outcome.suite === 'postgres' || outcome.files.length === 0) continue
        writeDurations(secondsByFile(outcome.summary, outcome.files))
      }
    }
    const failed = outcomes.some(({ summary }) => summary.failed + summary.cancelled > 0)
    process.exitCode = failed ? 1 : 0
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
