import { randomBytes } from 'node:crypto'
import type { Keypair } from '@walletconnect/relay-auth'
import { encodeIss, generateKeyPair, signJWT } from '@walletconnect/relay-auth'
import { WebSocket } from 'ws'

export interface ClientAuth {
  readonly jwt: string
  readonly clientId: string
  readonly keyPair: Keypair
}

/** Signs a relay auth JWT the way `@walletconnect/core` does (relay-auth, `aud` = relay URL). */
export async function makeAuth(
  aud: string,
  options: { ttlSeconds?: number; iat?: number; keyPair?: Keypair } = {},
): Promise<ClientAuth> {
  const keyPair = options.keyPair ?? generateKeyPair()
  const jwt = await signJWT(
    randomBytes(32).toString('hex'),
    aud,
    options.ttlSeconds ?? 86_400,
    keyPair,
    options.iat,
  )
  return { jwt, clientId: encodeIss(keyPair.publicKey), keyPair }
}

export function relayUrlWith(url: string, query: Record<string, string | undefined>): string {
  const target = new URL(url)
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) target.searchParams.set(key, value)
  }
  return target.toString()
}

/** A random 32-byte topic in hex, as WalletConnect makes them. */
export function newTopic(): string {
  return randomBytes(32).toString('hex')
}

export interface JsonRpcResponse {
  readonly id: unknown
  readonly jsonrpc: '2.0'
  readonly result?: unknown
  readonly error?: { readonly code: number; readonly message: string }
}

export interface Delivery {
  readonly id: number
  readonly jsonrpc: '2.0'
  readonly method: 'irn_subscription'
  readonly params: {
    readonly id: string
    readonly data: {
      readonly topic: string
      readonly message: string
      readonly publishedAt: number
      readonly tag: number
      readonly attestation?: string
    }
  }
}

type Waiter<T> = { resolve: (value: T) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }

/**
 * A raw relay client over `ws`: requests with promised responses, a queue of `irn_subscription`
 * deliveries, and explicit acknowledgements (or `autoAck`).
 */
export class RawClient {
  readonly deliveries: Delivery[] = []
  readonly responses: JsonRpcResponse[] = []
  #nextId = 1
  #pending = new Map<string, (response: JsonRpcResponse) => void>()
  #deliveryWaiters: Waiter<Delivery>[] = []
  #responseWaiters: Waiter<JsonRpcResponse>[] = []

  private constructor(
    readonly socket: WebSocket,
    readonly auth: ClientAuth,
    readonly autoAck: boolean,
  ) {
    socket.on('message', (data) => this.#onMessage(String(data)))
  }

  static async connect(
    relayUrl: string,
    options: { auth?: ClientAuth; autoAck?: boolean; projectId?: string } = {},
  ): Promise<RawClient> {
    const auth = options.auth ?? (await makeAuth(relayUrl))
    const socket = new WebSocket(
      relayUrlWith(relayUrl, { auth: auth.jwt, projectId: options.projectId ?? 'dev-project', ua: 'test' }),
    )
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('error', reject)
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`HTTP ${response.statusCode}`)),
      )
    })
    return new RawClient(socket, auth, options.autoAck ?? false)
  }

  #onMessage(text: string): void {
    const payload = JSON.parse(text) as Record<string, unknown>
    if (payload.method === 'irn_subscription') {
      const delivery = payload as unknown as Delivery
      if (this.autoAck) this.ack(delivery.id)
      const waiter = this.#deliveryWaiters.shift()
      if (waiter) {
        clearTimeout(waiter.timer)
        waiter.resolve(delivery)
      } else this.deliveries.push(delivery)
      return
    }
    const response = payload as unknown as JsonRpcResponse
    const handler = this.#pending.get(JSON.stringify(response.id))
    if (handler) {
      this.#pending.delete(JSON.stringify(response.id))
      handler(response)
      return
    }
    const waiter = this.#responseWaiters.shift()
    if (waiter) {
      clearTimeout(waiter.timer)
      waiter.resolve(response)
    } else this.responses.push(response)
  }

  /** Sends a request and resolves with the whole response (result or error). */
  call(method: string, params?: unknown): Promise<JsonRpcResponse> {
    const id = this.#nextId++
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no response to ${method}`)), 5_000)
      this.#pending.set(JSON.stringify(id), (response) => {
        clearTimeout(timer)
        resolve(response)
      })
      this.socket.send(JSON.stringify({ id, jsonrpc: '2.0', method, params }))
    })
  }

  /** Sends a request and resolves with its result, rejecting on an error response. */
  async request<T = unknown>(method: string, params?: unknown): Promise<T> {
    const response = await this.call(method, params)
    if (response.error) throw new Error(`${response.error.code} ${response.error.message}`)
    return response.result as T
  }

  /** Sends raw text and resolves with the next response not matched to a request of ours. */
  sendRaw(text: string): Promise<JsonRpcResponse> {
    const next = this.nextResponse()
    this.socket.send(text)
    return next
  }

  nextResponse(timeoutMs = 2_000): Promise<JsonRpcResponse> {
    const queued = this.responses.shift()
    if (queued) return Promise.resolve(queued)
    return this.#wait(this.#responseWaiters, timeoutMs, 'response')
  }

  nextDelivery(timeoutMs = 2_000): Promise<Delivery> {
    const queued = this.deliveries.shift()
    if (queued) return Promise.resolve(queued)
    return this.#wait(this.#deliveryWaiters, timeoutMs, 'delivery')
  }

  /** Resolves true when no delivery arrives within the time. */
  async noDelivery(withinMs = 200): Promise<boolean> {
    try {
      await this.nextDelivery(withinMs)
      return false
    } catch {
      return true
    }
  }

  ack(id: number): void {
    this.socket.send(JSON.stringify({ id, jsonrpc: '2.0', result: true }))
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve()
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve())
      this.socket.close()
    })
  }

  #wait<T>(waiters: Waiter<T>[], timeoutMs: number, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = {
        resolve,
        reject,
        timer: setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1)
          reject(new Error(`no ${what} within ${timeoutMs} ms`))
        }, timeoutMs),
      }
      waiters.push(waiter)
    })
  }
}

/** Opens a socket and resolves with the HTTP status of a refused upgrade (or 101 when accepted). */
export function upgradeStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url)
    socket.once('open', () => {
      socket.close()
      resolve(101)
    })
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0)
      response.destroy()
    })
    // Errors after a refused upgrade are expected; only one before any answer is a failure.
    socket.on('error', reject)
  })
}
