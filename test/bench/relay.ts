/**
 * Dev relay benchmark: 1,000 WebSocket clients on loopback, half subscribed to a topic each and half
 * publishing to those topics, for about 10 s. The relay runs in a child process (this file, forked with
 * `--relay-child`) so its memory is measured apart from the clients'.
 *
 * Run alone: `npx tsx test/bench/relay.ts` (optional env: RELAY_BENCH_CLIENTS, RELAY_BENCH_SECONDS).
 */

import type { ChildProcess } from 'node:child_process'
import { fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { encodeIss, generateKeyPair, signJWT } from '@walletconnect/relay-auth'
import { WebSocket } from 'ws'
import type { RelayStats } from '../../server/dev/relay/index.ts'
import { startRelay } from '../../server/dev/relay/index.ts'

export interface RelayBenchOptions {
  /** Connected clients, half subscribers and half publishers. Default 1,000. */
  readonly clients?: number
  /** Length of the publishing phase. Default 10 s. */
  readonly durationMs?: number
  /** Publishes each publisher keeps in flight. Default 4. */
  readonly window?: number
  /** Bytes of each published message. Default 512 (a typical encrypted WalletConnect request). */
  readonly messageBytes?: number
}

export interface RelayMemory {
  readonly rss: number
  readonly heapUsed: number
}

export interface RelayBenchResult {
  readonly measuredIn: 'child process'
  readonly clients: number
  readonly durationMs: number
  readonly connectMs: number
  readonly published: number
  readonly publishErrors: number
  readonly delivered: number
  readonly deliveredPerSecond: number
  readonly latencyMs: { readonly p50: number; readonly p99: number }
  readonly relayMemory: {
    /** Relay started, no clients (after a GC). */
    readonly before: RelayMemory
    /** All clients connected and subscribed, idle (after a GC). */
    readonly idle: RelayMemory
    /** At the end of the publishing phase (no GC). */
    readonly underLoad: RelayMemory
  }
  readonly relayStats: RelayStats
}

type ChildReply =
  | { readonly type: 'ready'; readonly url: string }
  | { readonly type: 'memory'; readonly memory: RelayMemory; readonly stats: RelayStats }

type ChildRequest = { readonly type: 'memory'; readonly gc: boolean } | { readonly type: 'stop' }

const THIS_FILE = fileURLToPath(import.meta.url)

async function relayChild(): Promise<void> {
  const relay = await startRelay({ port: 0 })
  const send = (reply: ChildReply): void => {
    process.send?.(reply)
  }
  process.on('message', (request: ChildRequest) => {
    if (request.type === 'memory') {
      if (request.gc) (globalThis as { gc?: () => void }).gc?.()
      const { rss, heapUsed } = process.memoryUsage()
      send({ type: 'memory', memory: { rss, heapUsed }, stats: relay.stats() })
      return
    }
    relay.stop().then(() => process.disconnect())
  })
  // The parent going away ends the child too.
  process.on('disconnect', () => {
    relay.stop().then(() => process.exit(0))
  })
  send({ type: 'ready', url: relay.url })
}

function nextReply<T extends ChildReply['type']>(
  child: ChildProcess,
  type: T,
): Promise<Extract<ChildReply, { type: T }>> {
  return new Promise((resolveReply, reject) => {
    const onMessage = (reply: ChildReply): void => {
      if (reply.type !== type) return
      child.off('message', onMessage)
      child.off('exit', onExit)
      resolveReply(reply as Extract<ChildReply, { type: T }>)
    }
    const onExit = (): void => reject(new Error('relay child exited'))
    child.on('message', onMessage)
    child.once('exit', onExit)
  })
}

async function sampleMemory(child: ChildProcess, gc: boolean) {
  const reply = nextReply(child, 'memory')
  child.send({ type: 'memory', gc } satisfies ChildRequest)
  return reply
}

async function openSocket(relayUrl: string): Promise<WebSocket> {
  const keyPair = generateKeyPair()
  const jwt = await signJWT(randomBytes(32).toString('hex'), relayUrl, 3_600, keyPair)
  const url = new URL(relayUrl)
  url.searchParams.set('auth', jwt)
  url.searchParams.set('projectId', 'bench')
  url.searchParams.set('ua', `bench/${encodeIss(keyPair.publicKey).slice(-6)}`)
  const socket = new WebSocket(url, { perMessageDeflate: false })
  await new Promise<void>((resolveOpen, reject) => {
    socket.once('open', () => resolveOpen())
    socket.once('error', reject)
  })
  return socket
}

async function inBatches<T>(count: number, size: number, make: (index: number) => Promise<T>): Promise<T[]> {
  const out: T[] = []
  for (let start = 0; start < count; start += size) {
    const batch = Array.from({ length: Math.min(size, count - start) }, (_, offset) => make(start + offset))
    out.push(...(await Promise.all(batch)))
  }
  return out
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/**
 * Measures the dev relay with many clients: delivered messages per second and the relay's memory.
 *
 * @example
 * const result = await benchRelay({ clients: 1000, durationMs: 10_000 })
 * console.log(result.deliveredPerSecond)
 */
export async function benchRelay(options: RelayBenchOptions = {}): Promise<RelayBenchResult> {
  const clientCount = Math.max(2, options.clients ?? 1_000)
  const durationMs = options.durationMs ?? 10_000
  const window = options.window ?? 4
  const padding = 'A'.repeat(Math.max(0, (options.messageBytes ?? 512) - 40))
  const pairs = Math.floor(clientCount / 2)

  const child = fork(THIS_FILE, ['--relay-child'], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const sockets: WebSocket[] = []
  // Hard stop, so the bench always ends.
  const guard = setTimeout(() => child.kill('SIGKILL'), durationMs + 120_000)
  guard.unref()

  try {
    const { url } = await nextReply(child, 'ready')
    const before = (await sampleMemory(child, true)).memory

    const connectStart = performance.now()
    const opened = await inBatches(pairs * 2, 100, () => openSocket(url))
    const connectMs = performance.now() - connectStart
    sockets.push(...opened)
    const subscribers = opened.slice(0, pairs)
    const publishers = opened.slice(pairs)
    const topics = Array.from({ length: pairs }, () => randomBytes(32).toString('hex'))

    let measuring = false
    let delivered = 0
    const latencies: number[] = []
    await Promise.all(
      subscribers.map(
        (socket, index) =>
          new Promise<void>((subscribed) => {
            socket.on('message', (data) => {
              const text = String(data)
              if (!text.includes('"method":"irn_subscription"')) {
                subscribed()
                return
              }
              const id = /^\{"id":(\d+)/.exec(text)?.[1]
              if (id) socket.send(`{"id":${id},"jsonrpc":"2.0","result":true}`)
              if (!measuring) return
              delivered++
              // Sample one delivery in 20 for latency, from the send time inside the message.
              if (delivered % 20 === 0) {
                const sentAt = /"message":"\d+\.\d+\.(\d+)\./.exec(text)?.[1]
                if (sentAt) latencies.push(Date.now() - Number(sentAt))
              }
            })
            socket.send(
              JSON.stringify({
                id: 1,
                jsonrpc: '2.0',
                method: 'irn_subscribe',
                params: { topic: topics[index] },
              }),
            )
          }),
      ),
    )
    const idle = (await sampleMemory(child, true)).memory

    let publishing = true
    let published = 0
    let publishErrors = 0
    let inFlight = 0
    publishers.forEach((socket, index) => {
      const topic = topics[index]
      let sequence = 0
      const publish = (): void => {
        if (!publishing || socket.readyState !== WebSocket.OPEN) return
        sequence++
        inFlight++
        socket.send(
          `{"id":${sequence},"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"${topic}",` +
            `"message":"${index}.${sequence}.${Date.now()}.${padding}","ttl":300,"tag":1108}}`,
        )
      }
      socket.on('message', (data) => {
        inFlight--
        if (String(data).includes('"error"')) publishErrors++
        else if (measuring) published++
        publish()
      })
      for (let slot = 0; slot < window; slot++) publish()
    })

    // A short warm-up, then the measured window.
    await new Promise((wait) => setTimeout(wait, Math.min(1_000, durationMs / 10)))
    measuring = true
    const start = performance.now()
    await new Promise((wait) => setTimeout(wait, durationMs))
    const underLoad = (await sampleMemory(child, false)).memory
    const elapsed = performance.now() - start
    const deliveredInWindow = delivered
    measuring = false
    publishing = false

    // Let the last publishes and acknowledgements settle before reading the relay's counters.
    const drainUntil = Date.now() + 3_000
    while (inFlight > 0 && Date.now() < drainUntil) await new Promise((wait) => setTimeout(wait, 50))
    await new Promise((wait) => setTimeout(wait, 200))
    const { stats } = await sampleMemory(child, false)

    latencies.sort((a, b) => a - b)
    return {
      measuredIn: 'child process',
      clients: pairs * 2,
      durationMs: Math.round(elapsed),
      connectMs: Math.round(connectMs),
      published,
      publishErrors,
      delivered: deliveredInWindow,
      deliveredPerSecond: Math.round(deliveredInWindow / (elapsed / 1000)),
      latencyMs: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) },
      relayMemory: { before, idle, underLoad },
      relayStats: stats,
    }
  } finally {
    clearTimeout(guard)
    for (const socket of sockets) socket.terminate()
    if (child.connected) {
      const exited = new Promise((done) => child.once('exit', done))
      child.send({ type: 'stop' } satisfies ChildRequest)
      await Promise.race([exited, new Promise((done) => setTimeout(done, 5_000))])
    }
    if (child.exitCode === null) child.kill('SIGKILL')
  }
}

function printResult(result: RelayBenchResult): void {
  const { before, idle, underLoad } = result.relayMemory
  const lines = [
    `dev relay bench (relay in a ${result.measuredIn}, clients in this process, loopback)`,
    `  clients                ${result.clients} (${result.clients / 2} subscribers, ${result.clients / 2} publishers)`,
    `  connect + auth         ${result.connectMs} ms`,
    `  window                 ${result.durationMs} ms`,
    `  published (acked)      ${result.published}  errors ${result.publishErrors}`,
    `  delivered              ${result.delivered}  = ${result.deliveredPerSecond} msg/s`,
    `  latency send->receive  p50 ${result.latencyMs.p50} ms  p99 ${result.latencyMs.p99} ms`,
    `  relay rss / heapUsed   before ${mb(before.rss)} / ${mb(before.heapUsed)}`,
    `                         idle, ${result.clients} clients ${mb(idle.rss)} / ${mb(idle.heapUsed)}`,
    `                         under load ${mb(underLoad.rss)} / ${mb(underLoad.heapUsed)}`,
    `  relay after drain      ${result.relayStats.messages} messages kept, ${result.relayStats.pendingAcks} unacked`,
  ]
  console.log(lines.join('\n'))
}

const invokedPath = process.argv[1] ? resolve(process.argv[1]) : ''
if (invokedPath === THIS_FILE) {
  if (process.argv.includes('--relay-child')) {
    await relayChild()
  } else {
    const result = await benchRelay({
      clients: Number(process.env.RELAY_BENCH_CLIENTS ?? 1_000),
      durationMs: Number(process.env.RELAY_BENCH_SECONDS ?? 10) * 1_000,
    })
    printResult(result)
  }
}
