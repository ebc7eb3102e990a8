import http from 'node:http'
import net from 'node:net'

/** Whether a server could listen on `port` on loopback right now. */
export async function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.once('error', () => resolve(false))
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => server.close(() => resolve(true)))
  })
}

/**
 * The last port handed out from TEST_PORT_RANGE, kept for the whole process: a lane (test/support/lane.ts)
 * gives each test file its own copy of this module, and the files must still not start the range over.
 */
const counter = globalThis as { [key: symbol]: number | undefined }
const LAST_PORT = Symbol.for('wallet-elements.test.lastPort')

/**
 * A TCP port free on loopback right now, for a server started a moment later (a child process such
 * as a Hardhat node is given a number, not a socket).
 *
 * Test processes that run side by side (`npm test`'s lanes) each get a range of their own in
 * TEST_PORT_RANGE ("20000-20999", below the ports the OS hands out by itself): two of them then never
 * pick the same port between the probe and the bind, and within one process the ports go round the
 * range. Without it, the OS picks one.
 *
 * @example
 * const chain = await startChain({ port: await freePort() })
 */
export async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.TEST_PORT_RANGE ?? '')
  if (!range) return osPort()
  const low = Number(range[1])
  const high = Number(range[2])
  for (let tries = 0; tries <= high - low; tries++) {
    const last = counter[LAST_PORT]
    const port = last === undefined || last >= high || last < low ? low : last + 1
    counter[LAST_PORT] = port
    if (await canListen(port)) return port
  }
  throw new Error(`No free port left in TEST_PORT_RANGE ${process.env.TEST_PORT_RANGE}`)
}

/** A free port whose next port is free too (the local Solana's HTTP and WebSocket). */
export async function freePortPair(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = await freePort()
    if (port < 65_535 && (await canListen(port + 1))) {
      // The pair's second port is not handed out again in a range.
      if (counter[LAST_PORT] === port) counter[LAST_PORT] = port + 1
      return port
    }
  }
  throw new Error('No free pair of ports')
}

/** A port the OS picks (taken, then released). */
function osPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen({ host: '127.0.0.1', port: 0 }, () => {
      const address = server.address()
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

/** A slower path to an upstream: forwards each POST after `delayMs` (a backup further away). */
export async function delayed(
  upstream: string,
  delayMs: number,
): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    await new Promise((resolve) => setTimeout(resolve, delayMs))
    const answer = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.concat(chunks),
    })
    response.writeHead(answer.status, { 'content-type': 'application/json' })
    response.end(await answer.text())
  })
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve))
  const address = server.address()
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server }
}
