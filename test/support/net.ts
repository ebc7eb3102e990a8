import http from 'node:http'
import net from 'node:net'

/** A TCP port free on loopback right now (the OS picks it). */
export async function freePort(): Promise<number> {
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
