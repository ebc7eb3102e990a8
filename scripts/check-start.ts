/**
 * Checks the README's first command the way a newcomer runs it: `npm start` on a fresh clone (after
 * `npm ci` alone) starts the whole stack, serves the demo page with its scripts, the companion service
 * and the wallet frame, and stops everything on Ctrl-C. CI runs it before any build step of its own,
 * so `npm start` building what it serves is proven, not assumed.
 *
 * What the stack keeps (the service's database, the market file, the dev wallet key) goes to
 * temporary folders that are removed afterwards, so the checkout is left as `npm ci` left it and the
 * `npm test` that follows runs on a tree that never ran `npm start`.
 *
 * Usage: `tsx scripts/check-start.ts` (ports as for `npm start`: DEMO_PORT, SERVICE_PORT, ...).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
/** The cold start compiles contracts and builds the frame; a slow CI machine takes a few minutes. */
const START_TIMEOUT_MS = 5 * 60_000
const STOP_TIMEOUT_MS = 20_000

class StartCheckFailed extends Error {
  override name = 'StartCheckFailed'
}

function waitForReady(child: ChildProcess, output: string[]): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new StartCheckFailed(`npm start printed no ready line in ${START_TIMEOUT_MS / 1000} s`)),
      START_TIMEOUT_MS,
    )
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString())
      const text = output.join('')
      if (!text.includes('Press Ctrl-C to stop.')) return
      clearTimeout(timer)
      // Lines of `name url  (detail)`, as scripts/start.ts prints them.
      const urls = new Map<string, string>()
      for (const match of text.matchAll(/^(\w+)\s+(\w+:\/\/\S+)/gm)) urls.set(match[1] ?? '', match[2] ?? '')
      const frame = /wallet frame (http:\/\/[^\s)]+)/.exec(text)?.[1]
      if (frame) urls.set('frame', frame)
      resolve(urls)
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()))
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new StartCheckFailed(`npm start exited (${code ?? signal}) before it was ready`))
    })
  })
}

async function fetchText(url: string): Promise<{ status: number; type: string; body: string }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(60_000) })
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: await response.text(),
  }
}

function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new StartCheckFailed(message)
}

/** What a person opening the printed URLs gets: each is checked, with what was found on failure. */
async function checkServed(urls: Map<string, string>): Promise<string[]> {
  const checked: string[] = []
  const demo = urls.get('demo')
  const service = urls.get('service')
  expect(demo, 'npm start printed no demo URL')
  expect(service, 'npm start printed no service URL')
  for (const [name, url] of urls) {
    const { hostname } = new URL(url)
    // The frame is named `localhost` (WebAuthn refuses an IP as RP ID) and listens on 127.0.0.1.
    expect(
      hostname === '127.0.0.1' || (name === 'frame' && hostname === 'localhost'),
      `${url} is not on 127.0.0.1`,
    )
  }

  const page = await fetchText(demo)
  expect(
    page.status === 200 && page.type.includes('text/html'),
    `the demo page answered ${page.status} ${page.type}`,
  )
  expect(page.body.includes('<wallet-button'), 'the demo page has no <wallet-button>')
  const scripts = [...page.body.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)].map((m) =>
    (m[1] ?? '').replaceAll('&amp;', '&'),
  )
  expect(scripts.length > 0, 'the demo page loads no module script')
  for (const src of scripts) {
    const script = await fetchText(new URL(src, demo).href)
    expect(
      script.status === 200 && /javascript/.test(script.type),
      `the demo's ${src} answered ${script.status}`,
    )
  }
  checked.push(`demo ${demo}: page and ${scripts.length} module script(s)`)

  const health = await fetchText(new URL('healthz', service).href)
  expect(
    health.status === 200,
    `the service's /healthz answered ${health.status}: ${health.body.slice(0, 200)}`,
  )
  checked.push(`service ${service}: /healthz 200`)

  const inbox = await fetchText(new URL('dev/inbox', service).href)
  expect(inbox.status === 200, `the dev inbox answered ${inbox.status}`)
  checked.push('service: dev inbox 200')

  // The wallet frame is built by npm start itself (no dist-frame/ exists on a fresh clone).
  const frame = urls.get('frame')
  expect(frame, 'npm start printed no wallet frame URL')
  // The frame page is per project; npm start's project is the dev project.
  const framePage = await fetchText(`${frame.replace(/\/$/, '')}/?projectId=dev-project`)
  expect(
    framePage.status === 200 && framePage.type.includes('text/html'),
    `the frame answered ${framePage.status}`,
  )
  expect(framePage.body.includes('<script'), 'the frame page loads no script')
  checked.push(`frame ${frame}: 200, built by npm start`)
  return checked
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/** Ctrl-C: the whole process group gets SIGINT, as in a terminal; then every printed port must close. */
async function stop(child: ChildProcess, urls: Map<string, string>): Promise<void> {
  if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGINT')
  const ports = [...urls.values()].map((url) => Number(new URL(url).port)).filter((port) => port > 0)
  const deadline = Date.now() + STOP_TIMEOUT_MS
  for (;;) {
    const open = (await Promise.all(ports.map(async (port) => ((await portOpen(port)) ? port : 0)))).filter(
      Boolean,
    )
    if (open.length === 0) return
    if (Date.now() > deadline) {
      if (child.pid) process.kill(-child.pid, 'SIGKILL')
      throw new StartCheckFailed(
        `ports ${open.join(', ')} still listen ${STOP_TIMEOUT_MS / 1000} s after Ctrl-C`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

const state = mkdtempSync(path.join(tmpdir(), 'wallet-elements-start-'))
// The key-encryption key lives apart from the database's folder (the service refuses it beside it).
const secrets = mkdtempSync(path.join(tmpdir(), 'wallet-elements-start-secrets-'))
const output: string[] = []
const started = Date.now()
const child = spawn('npm', ['start'], {
  cwd: root,
  detached: true,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: {
    ...process.env,
    SERVICE_DATA_DIR: path.join(state, 'service'),
    MARKET_FILE: path.join(state, 'local-market.json'),
    WALLET_KEK_FILE: path.join(secrets, 'wallet-kek'),
  },
})
let failure: unknown
let urls = new Map<string, string>()
try {
  urls = await waitForReady(child, output)
  const ready = Date.now() - started
  const checked = await checkServed(urls)
  await stop(child, urls)
  console.log(
    `npm start: ready in ${(ready / 1000).toFixed(1)} s, ${urls.size} URLs on 127.0.0.1 (the frame named localhost)`,
  )
  for (const line of checked) console.log(`  ok  ${line}`)
  console.log(`  ok  Ctrl-C closed all ${urls.size} ports`)
} catch (error) {
  failure = error
  await stop(child, urls).catch(() => undefined)
} finally {
  rmSync(state, { recursive: true, force: true })
  rmSync(secrets, { recursive: true, force: true })
}
if (failure) {
  console.error(output.join('').slice(-6000))
  console.error(`check-start: ${failure instanceof Error ? failure.message : String(failure)}`)
  process.exit(1)
}
