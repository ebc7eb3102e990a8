/**
 * The end-to-end suite in lanes: the test files are dealt into a few lanes of about equal length (by
 * the seconds each took when last recorded, test/durations.json), and the lanes run side by side,
 * each one process with one local stack its files share (test/e2e/lane.ts). The files mostly wait (on
 * the browser, the chain, the service), so three lanes finish in a fraction of the time one would.
 *
 *   npm run test:e2e                              # every file, E2E_LANES lanes (default 3)
 *   npm run test:e2e -- test/e2e/solana.test.ts   # some files
 *   npm run test:e2e:repeat                       # each file 5 times in a row, every run counted
 *
 * Every line a lane prints is shown as it comes, after the lane's number. At the end: one line per
 * lane, the first failure, and with --repeat how many runs of each file passed. `--summary FILE`
 * writes the counts as JSON; `--record` writes this run's seconds per file to test/durations.json.
 * The exit code is 1 when any test failed.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import {
  dealLanes,
  fileOf,
  mergeSummaries,
  type Printer,
  printLine,
  readDurations,
  readSummary,
  root,
  runLabelled,
  type Summary,
  secondsByFile,
  summaryReporter,
  writeDurations,
} from './test/lanes.ts'

const PARTS = ['solana', 'bitcoin', 'farcaster'] as const

/** Every end-to-end test file, by path from the root. */
export function e2eFiles(): string[] {
  return readdirSync(path.join(root, 'test/e2e'))
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `test/e2e/${name}`)
    .sort()
}

/** The parts of the stack a file asks for (`startTestStack({ solana: true })`), read from its source. */
export function partsOf(file: string): string[] {
  const text = readFileSync(path.resolve(root, file), 'utf8')
  const calls = text.match(/startTestStack\(\{[^)]*\}\)/g) ?? []
  return PARTS.filter((part) => calls.some((call) => new RegExp(`\\b${part}: true\\b`).test(call)))
}

/**
 * With --repeat: for each file, how many of its runs passed. A run passes when every top-level test or
 * suite of the file passed in it (a file's results come once per run, in order).
 */
export function runsPassed(summary: Summary, files: readonly string[], repeat: number) {
  return files.map((file) => {
    const tops = summary.top.filter((top) => fileOf(top) === file)
    const perRun = tops.length / repeat
    let passed = 0
    for (let run = 0; run < repeat && Number.isInteger(perRun) && perRun > 0; run++) {
      if (tops.slice(run * perRun, (run + 1) * perRun).every((top) => top.passed)) passed++
    }
    return { file, passed, runs: repeat }
  })
}

export type RunE2eParameters = {
  files?: readonly string[]
  lanes?: number
  /** Runs each file this many times in a row (default 1). */
  repeat?: number
  print?: Printer
}

/**
 * Runs end-to-end files in lanes and answers what they came to.
 *
 * @example
 * const summary = await runE2e({ lanes: 3 })
 */
export async function runE2e({
  files = e2eFiles(),
  lanes: laneCount = Number(process.env.E2E_LANES ?? 3),
  repeat = 1,
  print = printLine,
}: RunE2eParameters = {}): Promise<Summary> {
  const lanes = dealLanes(files, laneCount, readDurations(), repeat)
  for (const lane of lanes) {
    const parts = [...new Set(lane.files.flatMap(partsOf))]
    print(
      `e2e ${lane.number} │ ${lane.files.length} files, about ${Math.round(lane.seconds)} s` +
        `${parts.length ? `, stack with ${parts.join(', ')}` : ''}: ${lane.files.map((file) => path.basename(file)).join(' ')}`,
    )
  }
  const scratch = await mkdtemp(path.join(tmpdir(), 'wallet-elements-e2e-'))
  try {
    const results = await Promise.all(
      lanes.map(async (lane) => {
        const started = Date.now()
        const summaryFile = path.join(scratch, `lane-${lane.number}.json`)
        const code = await runLabelled(
          `e2e ${lane.number}`,
          process.execPath,
          [
            '--import',
            'tsx',
            '--test-force-exit',
            '--test-reporter=spec',
            '--test-reporter-destination=stdout',
            `--test-reporter=${summaryReporter}`,
            '--test-reporter-destination=/dev/null',
            'test/e2e/lane.ts',
            ...lane.files,
          ],
          {
            TEST_SUMMARY_FILE: summaryFile,
            E2E_LANE: String(lane.number),
            E2E_REPEAT: String(repeat),
            E2E_STACK_PARTS: [...new Set(lane.files.flatMap(partsOf))].join(','),
            HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
          },
          print,
        )
        const summary = await readSummary(summaryFile, `e2e lane ${lane.number}`, code)
        print(
          `e2e ${lane.number} │ lane done: ${summary.passed} passed, ${summary.failed + summary.cancelled} failed in ${Math.round((Date.now() - started) / 1000)} s`,
        )
        return summary
      }),
    )
    return mergeSummaries(results)
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      lanes: { type: 'string' },
      repeat: { type: 'string', default: '1' },
      summary: { type: 'string' },
      record: { type: 'boolean', default: false },
    },
  })
  const lanes = Number(values.lanes ?? process.env.E2E_LANES ?? 3)
  const repeat = Number(values.repeat)
  if (!Number.isInteger(lanes) || lanes < 1) throw new Error(`--lanes: a whole number, got ${values.lanes}`)
  if (!Number.isInteger(repeat) || repeat < 1)
    throw new Error(`--repeat: a whole number, got ${values.repeat}`)
  const files =
    positionals.length > 0
      ? positionals.map((file) => path.relative(root, path.resolve(file))).sort()
      : e2eFiles()
  const started = Date.now()
  const total = await runE2e({ files, lanes, repeat })
  console.log('')
  if (repeat > 1) {
    const runs = runsPassed(total, files, repeat)
    for (const { file, passed } of runs)
      console.log(`${passed === repeat ? '✔' : '✖'} ${passed}/${repeat} ${file}`)
    const all = runs.filter((run) => run.passed === repeat).length
    console.log(`${all} of ${runs.length} files passed ${repeat} of ${repeat} runs`)
  }
  if (total.firstFailure) {
    const where = total.firstFailure.file ? ` (${path.relative(root, total.firstFailure.file)})` : ''
    console.log(`first failure: ${total.firstFailure.name}${where}: ${total.firstFailure.message}`)
  }
  console.log(
    `e2e: ${total.passed} passed, ${total.failed + total.cancelled} failed, ${total.skipped} skipped in ${Math.round((Date.now() - started) / 1000)} s`,
  )
  if (values.record && repeat === 1) writeDurations(secondsByFile(total, files))
  if (values.summary) {
    const { writeFileSync } = await import('node:fs')
    writeFileSync(values.summary, `${JSON.stringify(total)}\n`)
  }
  process.exitCode = total.failed + total.cancelled > 0 ? 1 : 0
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
