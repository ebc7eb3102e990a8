import { setTimeout as sleep } from 'node:timers/promises'
import { type LocalSolana, startSolana } from '../../../server/dev/solana/index.ts'
import { freePortPair } from '../../support/net.ts'

export { canListen, freePortPair } from '../../support/net.ts'

/** Starts the network on a free port pair (retrying if another process takes the ports in between). */
export async function startOnFreePorts(): Promise<LocalSolana> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await startSolana({ port: await freePortPair() })
    } catch (error) {
      if (attempt >= 5 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
    }
  }
}

/** Waits until web3.js has closed its WebSocket, then stops the network and checks nothing listens. */
export async function stopCleanly(solana: LocalSolana): Promise<void> {
  for (let i = 0; i < 40 && solana.connections > 0; i++) await sleep(50)
  await solana.stop()
}

export interface RpcReply {
  status: number
  body: unknown
  headers: Headers
}

export async function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<RpcReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers }
}

/** One JSON-RPC call; returns the whole response object. */
export async function rpc(url: string, method: string, params?: unknown[]): Promise<Record<string, unknown>> {
  const reply = await post(
    url,
    JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }),
  )
  return reply.body as Record<string, unknown>
}
