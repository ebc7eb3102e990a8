/**
 * The local Solana network: litesvm (the real SVM, in-process) behind a JSON-RPC 2.0 HTTP front and a PubSub
 * WebSocket front, enough for `@solana/web3.js` 1.x `Connection` (balances, token accounts, sending and
 * confirming, history). WebSockets are served on `wsPort` (web3.js's convention: HTTP port + 1); the HTTP port
 * also accepts WebSocket upgrades, and both ports answer JSON-RPC over HTTP.
 *
 * At start: four dev keys from the test mnemonic (`m/44'/501'/N'/0'`) with 1,000 SOL each, and a test SPL token
 * (6 decimals) with 1,000,000 tokens in dev key 0's associated token account.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import type { Keypair } from '@solana/web3.js'
import { WebSocketServer } from 'ws'
import { createGenesis, type TestMint } from './genesis.ts'
import { handleJsonRpc } from './jsonrpc.ts'
import { Ledger } from './ledger.ts'
import { createPubSub } from './pubsub.ts'
import { RPC_METHODS } from './rpc.ts'
import type { RpcContext } from './rpcContext.ts'

export type { TestMint } from './genesis.ts'
export {
  DEV_KEY_COUNT,
  DEV_KEY_LAMPORTS,
  DEV_MNEMONIC,
  deriveEd25519,
  devKeyPath,
  devKeypair,
  devKeypairs,
  GENESIS_HASH,
  mnemonicToSeed,
  TEST_TOKEN_DECIMALS,
  TEST_TOKEN_SUPPLY,
  testMintKeypair,
} from './keys.ts'
export { Ledger } from './ledger.ts'

export interface StartSolanaOptions {
  /** Interface to listen on (default 127.0.0.1). */
  readonly host?: string
  /** HTTP JSON-RPC port (default 8899; 0 picks a free one). */
  readonly port?: number
  /** WebSocket port (default `port + 1`; a free one when `port` is 0). */
  readonly wsPort?: number
}

export interface LocalSolana {
  /** HTTP JSON-RPC endpoint, e.g. `http://127.0.0.1:8899`. */
  readonly url: string
  /** WebSocket endpoint, e.g. `ws://127.0.0.1:8900`. */
  readonly wsUrl: string
  /** The funded dev keys (1,000 SOL each at start). */
  readonly devKeys: readonly Keypair[]
  /** The test SPL token. */
  readonly mint: TestMint
  /** The ledger behind the endpoints (for tests and tooling). */
  readonly ledger: Ledger
  /** Open WebSocket connections (web3.js closes its socket about 0.5 s after its last subscription ends). */
  readonly connections: number
  /** Open PubSub subscriptions over all connections (a test waits for its own to arrive). */
  readonly subscriptions: number
  /** Closes both servers and every connection. */
  stop(): Promise<void>
}

/** Largest HTTP request body accepted. */
const MAX_BODY_BYTES = 1024 * 1024
/** Largest WebSocket message accepted. */
const MAX_WS_MESSAGE_BYTES = 256 * 1024

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error)
    server.once('error', onError)
    server.listen({ host, port, exclusive: true }, () => {
      server.off('error', onError)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve()
    server.close(() => resolve())
    server.closeAllConnections()
  })
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host
}

export async function startSolana(options: StartSolanaOptions = {}): Promise<LocalSolana> {
  const host = options.host ?? '127.0.0.1'
  const port = options.port ?? 8899
  const wsPort = options.wsPort ?? (port === 0 ? 0 : port + 1)

  const ledger = new Ledger()
  const genesis = createGenesis(ledger)
  const context: RpcContext = { ledger, faucet: genesis.faucet }
  const pubsub = createPubSub(ledger)
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WS_MESSAGE_BYTES })
  wss.on('connection', (socket) => pubsub.accept(socket))

  const cors = (req: IncomingMessage, res: ServerResponse): void => {
    res.setHeader('Access-Control-Allow-Origin', '*')
    res.setHeader('Access-Control-Allow-Methods', 'POST, GET, OPTIONS')
    res.setHeader(
      'Access-Control-Allow-Headers',
      req.headers['access-control-request-headers'] ?? 'Content-Type',
    )
    res.setHeader('Access-Control-Max-Age', '86400')
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    cors(req, res)
    const path = (req.url ?? '/').split('?')[0]
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end()
      return
    }
    if (req.method === 'GET' && path === '/health') {
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok')
      return
    }
    if (path !== '/') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found')
      return
    }
    if (req.method !== 'POST') {
      res
        .writeHead(405, { Allow: 'POST', 'Content-Type': 'text/plain' })
        .end('Used HTTP Method is not allowed. POST or OPTIONS is required')
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        tooLarge = true
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => {
      if (tooLarge) {
        res.writeHead(413, { 'Content-Type': 'text/plain', Connection: 'close' }).end('Payload Too Large')
        return
      }
      const response = handleJsonRpc(Buffer.concat(chunks).toString('utf8'), RPC_METHODS, context)
      if (response === null) {
        res.writeHead(204).end()
        return
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(response))
    })
    req.on('error', () => res.destroy())
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy())
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
  }

  const httpServer = createServer(onRequest)
  const wsServer = createServer(onRequest)
  for (const server of [httpServer, wsServer]) {
    server.on('upgrade', onUpgrade)
    server.on('clientError', (_error, socket) => socket.destroy())
  }

  let boundPort: number
  let boundWsPort: number
  try {
    boundPort = await listen(httpServer, host, port)
    boundWsPort = await listen(wsServer, host, wsPort)
  } catch (error) {
    await Promise.all([closeServer(httpServer), closeServer(wsServer)])
    throw error
  }

  let stopping: Promise<void> | null = null
  return {
    url: `http://${urlHost(host)}:${boundPort}`,
    wsUrl: `ws://${urlHost(host)}:${boundWsPort}`,
    devKeys: genesis.devKeys,
    mint: genesis.mint,
    ledger,
    get connections() {
      return wss.clients.size
    },
    get subscriptions() {
      return pubsub.size
    },
    stop() {
      stopping ??= (async () => {
        pubsub.close()
        for (const client of wss.clients) client.terminate()
        await new Promise<void>((resolve) => wss.close(() => resolve()))
        await Promise.all([closeServer(httpServer), closeServer(wsServer)])
      })()
      return stopping
    },
  }
}
