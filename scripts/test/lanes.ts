/**
 * Lanes: a suite's test files dealt into a few processes that each run their share one after another
 * (test/support/lane.ts, test/e2e/lane.ts), and what those processes report. Used by `npm test`
 * (scripts/test.ts) and the end-to-end runner (scripts/test-e2e.ts).
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = fileURLToPath(new URL('../..', import.meta.url))
/** How long each test file took when last recorded (`npm test -- --record`), by path from the root. */
export const durationsFile = path.join(root, 'test/durations.json')
/** node's reporter that writes a run's counts to TEST_SUMMARY_FILE. */
export const summaryReporter = path.join(root, 'test/support/summary-reporter.mjs')
/** A file with no recorded time counts as this many seconds. */
const UNKNOWN_SECONDS = 30

/** What a run of tests came to (test/support/summary-reporter.mjs writes it). */
export type Summary = {
  passed: number
  failed: number
  cancelled: number
  skipped: number
  todo: number
  firstFailure?: { name: string; file?: string; message: string }
  /** Each top-level test or suite, in the order they ended. */
  top: { file?: string; name: string; passed: boolean; seconds: number }[]
}

export type Lane = { number: number; files: string[]; seconds: number }

export function readDurations(): Record<string, number> {
  if (!existsSync(durationsFile)) return {}
  return JSON.parse(readFileSync(durationsFile, 'utf8')) as Record<string, number>
}

/** Adds `recorded` (seconds by file) to test/durations.json, keys sorted. */
export function writeDurations(recorded: Record<string, number>): void {
  const all = { ...readDurations(), ...recorded }
  const sorted = Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)))
  writeFileSync(durationsFile, `${JSON.stringify(sorted, null, 2)}\n`)
}

/**
 * Deals files into `count` lanes: longest first, each to the lane that is shortest so far, by the
 * recorded seconds (times `runs`, for files run several times).
 *
 * @example
 * dealLanes(['a.test.ts', 'b.test.ts'], 2, { 'a.test.ts': 30 })
 */
export function dealLanes(
  files: readonly string[],
  count: number,
  seconds: Record<string, number>,
  runs = 1,
): Lane[] {
  const lanes: Lane[] = Array.from({ length: Math.max(1, Math.min(count, files.length)) }, (_, index) => ({
    number: index + 1,
    files: [],
    seconds: 0,
  }))
  const weight = (file: string) => (seconds[file] ?? UNKNOWN_SECONDS) * runs
  for (const file of [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b))) {
    const lane = lanes.reduce((shortest, next) => (next.seconds < shortest.seconds ? next : shortest))
    lane.files.push(file)
    lane.seconds += weight(file)
  }
  return lanes.filter((lane) => lane.files.length > 0)
}

let ranges = 0

/**
 * A range of ports for one test process started beside others (TEST_PORT_RANGE, read by
 * test/support/net.ts `freePort`): 1,000 ports each from 20000, below the ones the OS hands out itself,
 * so that two processes never probe the same free port and then both bind it. When the run itself was
 * given a TEST_PORT_RANGE (runs side by side on one machine, each with its own), the processes share
 * that one out instead, a quarter each, and never leave it.
 *
 * @example
 * nextPortRange('43000-43999') // '43000-43249', then '43250-43499', …
 */
export function nextPortRange(given = process.env.TEST_PORT_RANGE): string {
  const range = /^(\d+)-(\d+)$/.exec(given ?? '')
  const slot = ranges++
  if (!range) {
    const low = 20_000 + (slot % 12) * 1_000
    return `${low}-${low + 999}`
  }
  const start = Number(range[1])
  const size = Math.floor((Number(range[2]) - start + 1) / 4)
  if (size < 50) return given as string
  const low = start + (slot % 4) * size
  return `${low}-${low + size - 1}`
}

/** Where a process's lines go: each prefixed with its label, as they come. */
export type Printer = (line: string) => void
export const printLine: Printer = (line) => process.stdout.write(`${line}\n`)

/**
 * Runs a command, printing each line of its output after `label │ `; answers its exit code. The process
 * gets ports of its own ({@link nextPortRange}).
 *
 * @example
 * const code = await runLabelled('browser', 'npx', ['wtr'], {})
 */
export async function runLabelled(
  label: string,
  command: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
  print: Printer = printLine,
): Promise<number> {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, TEST_PORT_RANGE: nextPortRange(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const prefix = `${label} │ `
  for (const stream of [child.stdout, child.stderr]) {
    let rest = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop() ?? ''
      for (const line of lines) print(`${prefix}${line}`)
    })
    stream.on('end', () => {
      if (rest) print(`${prefix}${rest}`)
    })
  }
  return new Promise<number>((resolve) => {
    child.on('error', (error) => {
      print(`${prefix}${error.message}`)
      resolve(1)
    })
    child.on('close', (status) => resolve(status ?? 1))
  })
}

/** The summary a process wrote, or one failure saying that it wrote none (it crashed, or never ran). */
export async function readSummary(file: string, label: string, code: number): Promise<Summary> {
  const text = existsSync(file) ? (await readFile(file, 'utf8')).trim() : ''
  if (text) {
    const summary = JSON.parse(text) as Summary
    // Every test passed, yet the process failed (an error outside any test): that is a failure too.
    if (code !== 0 && summary.failed + summary.cancelled === 0)
      return {
        ...summary,
        failed: summary.failed + 1,
        firstFailure: { name: label, message: `exited with code ${code} after its tests passed` },
      }
    return summary
  }
  return {
    passed: 0,
    failed: 1,
    cancelled: 0,
    skipped: 0,
    todo: 0,
    firstFailure: { name: label, message: `exited with code ${code} before reporting any result` },
    top: [],
  }
}

/** The sum of several summaries; the first failure is the first one's that has one. */
export function mergeSummaries(summaries: readonly Summary[]): Summary {
  const total: Summary = { passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0, top: [] }
  for (const summary of summaries) {
    total.passed += summary.passed
    total.failed += summary.failed
    total.cancelled += summary.cancelled
    total.skipped += summary.skipped
    total.todo += summary.todo
    total.top.push(...summary.top)
    if (summary.firstFailure) total.firstFailure ??= summary.firstFailure
  }
  return total
}

/** The test file a top-level result belongs to: a lane names its suites after their files. */
export function fileOf(top: Summary['top'][number]): string | undefined {
  if (top.name.endsWith('.test.ts')) return top.name
  return top.file ? path.relative(root, top.file.replace(/^file:\/\//, '').replace(/\?.*$/, '')) : undefined
}

/** Seconds per file from a summary's top-level results (a file's suites added up). */
export function secondsByFile(summary: Summary, files: readonly string[]): Record<string, number> {
  const seconds: Record<string, number> = {}
  for (const top of summary.top) {
    const file = fileOf(top)
    if (file && files.includes(file)) seconds[file] = (seconds[file] ?? 0) + top.seconds
  }
  return Object.fromEntries(
    Object.entries(seconds).map(([file, value]) => [file, Math.max(1, Math.round(value))]),
  )
}
