/**
 * The WebSocket (PubSub) side: `signatureSubscribe`, `accountSubscribe` and `slotSubscribe` with their
 * notifications, as `@solana/web3.js` `Connection` uses them (`confirmTransaction`, `onAccountChange`,
 * `onSlotChange`). Signature subscriptions end after their notification ("auto-disposed"), as on a validator.
 */
import type { PublicKey } from '@solana/web3.js'
import type { RawData, WebSocket } from 'ws'
import { z } from 'zod'
import { type AccountEncoding, uiAccount } from './accounts.ts'
import { decodeBase58 } from './codec.ts'
import { invalidParams, RPC_ERROR, RpcError } from './errors.ts'
import { handleJsonRpc, type MethodHandler } from './jsonrpc.ts'
import type { Ledger } from './ledger.ts'
import type { LandedTransaction } from './ledgerTypes.ts'
import { address } from './rpcParams.ts'

type Subscription =
  | { kind: 'signature'; signature: string; received: boolean }
  | { kind: 'account'; address: PublicKey; text: string; encoding: AccountEncoding }
  | { kind: 'slot' }

interface Connection {
  readonly socket: WebSocket
  readonly subscriptions: Map<number, Subscription>
  /** Signature subscriptions the server ended after notifying; unsubscribing them still succeeds. */
  readonly disposed: Set<number>
}

const MAX_SUBSCRIPTIONS_PER_CONNECTION = 1_000

function parse<T>(schema: z.ZodType<T>, params: unknown): T {
  if (params !== undefined && !Array.isArray(params)) throw invalidParams('params must be an array')
  const result = schema.safeParse(params ?? [])
  if (result.success) return result.data
  throw invalidParams(result.error.issues[0]?.message ?? 'invalid')
}

const commitmentConfig = z.looseObject({ commitment: z.string().optional() })
const subscriptionId = z.tuple([z.number().int().nonnegative()])

export interface PubSub {
  /** Serves one WebSocket connection. */
  accept(socket: WebSocket): void
  /** Number of open subscriptions (all connections). */
  readonly size: number
  /** Closes every connection. */
  close(): void
}

export function createPubSub(ledger: Ledger): PubSub {
  const connections = new Set<Connection>()
  let nextId = 0

  const send = (connection: Connection, payload: unknown): void => {
    if (connection.socket.readyState === connection.socket.OPEN)
      connection.socket.send(JSON.stringify(payload))
  }

  const notify = (connection: Connection, method: string, subscription: number, result: unknown): void => {
    send(connection, { jsonrpc: '2.0', method, params: { result, subscription } })
  }

  const accountValue = (
    subscription: Extract<Subscription, { kind: 'account' }>,
  ): Record<string, unknown> => {
    const account = ledger.getAccount(subscription.address)
    if (account) return uiAccount(account, subscription.encoding, ledger.read)
    // A closed account is reported empty and owned by the System Program, as a validator does.
    return {
      data:
        subscription.encoding === 'binary'
          ? ''
          : ['', subscription.encoding === 'base58' ? 'base58' : 'base64'],
      executable: false,
      lamports: 0,
      owner: '11111111111111111111111111111111',
      rentEpoch: 0,
      space: 0,
    }
  }

  const signatureNotification = (connection: Connection, id: number, entry: LandedTransaction): void => {
    connection.subscriptions.delete(id)
    connection.disposed.add(id)
    notify(connection, 'signatureNotification', id, {
      context: { slot: entry.slot },
      value: { err: entry.err?.json ?? null },
    })
  }

  const subscribe = (connection: Connection, subscription: Subscription): number => {
    if (connection.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
      throw new RpcError(RPC_ERROR.internalError, 'Internal error: too many subscriptions on this connection')
    }
    const id = nextId++
    connection.subscriptions.set(id, subscription)
    return id
  }

  const unsubscribe =
    (kind: Subscription['kind']): MethodHandler<Connection> =>
    (params, connection) => {
      const [id] = parse(subscriptionId, params)
      const subscription = connection.subscriptions.get(id)
      if (subscription?.kind === kind) {
        connection.subscriptions.delete(id)
        return true
      }
      if (kind === 'signature' && connection.disposed.delete(id)) return true
      throw invalidParams('Invalid subscription id.')
    }

  const methods = new Map<string, MethodHandler<Connection>>([
    [
      'signatureSubscribe',
      (params, connection) => {
        const [signature, config] = parse(
          z.tuple([
            z.string().refine((text) => {
              try {
                return decodeBase58(text).length === 64
              } catch {
                return false
              }
            }, 'Invalid signature'),
            commitmentConfig.extend({ enableReceivedNotification: z.boolean().optional() }).nullish(),
          ]),
          params,
        )
        const id = subscribe(connection, {
          kind: 'signature',
          signature,
          received: config?.enableReceivedNotification ?? false,
        })
        const landed = ledger.transaction(signature)
        if (landed) {
          // Already final: notify right after the subscription id is answered.
          setImmediate(() => {
            if (connection.subscriptions.has(id)) signatureNotification(connection, id, landed)
          })
        }
        return id
      },
    ],
    ['signatureUnsubscribe', unsubscribe('signature')],
    [
      'accountSubscribe',
      (params, connection) => {
        const [key, config] = parse(
          z.tuple([
            address,
            commitmentConfig
              .extend({
                encoding: z.enum(['binary', 'base58', 'base64', 'base64+zstd', 'jsonParsed']).optional(),
              })
              .nullish(),
          ]),
          params,
        )
        const encoding = config?.encoding ?? 'binary'
        if (encoding === 'base64+zstd') {
          throw invalidParams('base64+zstd encoding is not supported by the local network; use base64')
        }
        return subscribe(connection, { kind: 'account', address: key, text: key.toBase58(), encoding })
      },
    ],
    ['accountUnsubscribe', unsubscribe('account')],
    [
      'slotSubscribe',
      (params, connection) => {
        parse(z.tuple([]), params)
        return subscribe(connection, { kind: 'slot' })
      },
    ],
    ['slotUnsubscribe', unsubscribe('slot')],
  ])

  ledger.events.push({
    received(signature) {
      for (const connection of connections) {
        for (const [id, subscription] of connection.subscriptions) {
          if (
            subscription.kind === 'signature' &&
            subscription.received &&
            subscription.signature === signature
          ) {
            notify(connection, 'signatureNotification', id, {
              context: { slot: ledger.slot },
              value: 'receivedSignature',
            })
          }
        }
      }
    },
    landed(entry) {
      const written = new Set<string>()
      entry.accounts.keys.forEach((key, i) => {
        if (entry.accounts.writable[i]) written.add(key.toBase58())
      })
      for (const connection of connections) {
        for (const [id, subscription] of connection.subscriptions) {
          if (subscription.kind === 'signature' && subscription.signature === entry.signature) {
            signatureNotification(connection, id, entry)
          } else if (subscription.kind === 'account' && written.has(subscription.text)) {
            notify(connection, 'accountNotification', id, {
              context: { slot: entry.slot },
              value: accountValue(subscription),
            })
          } else if (subscription.kind === 'slot') {
            notify(connection, 'slotNotification', id, {
              parent: entry.slot,
              root: entry.slot,
              slot: ledger.slot,
            })
          }
        }
      }
    },
  })

  return {
    accept(socket) {
      const connection: Connection = { socket, subscriptions: new Map(), disposed: new Set() }
      connections.add(connection)
      socket.on('message', (data: RawData, isBinary: boolean) => {
        if (isBinary) {
          send(connection, {
            jsonrpc: '2.0',
            error: { code: RPC_ERROR.parseError, message: 'Parse error' },
            id: null,
          })
          return
        }
        const text = Array.isArray(data)
          ? Buffer.concat(data).toString('utf8')
          : Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('utf8')
        const response = handleJsonRpc(text, methods, connection)
        if (response !== null) send(connection, response)
      })
      socket.on('close', () => connections.delete(connection))
      socket.on('error', () => socket.terminate())
    },
    get size() {
      let total = 0
      for (const connection of connections) total += connection.subscriptions.size
      return total
    },
    close() {
      for (const connection of connections) connection.socket.terminate()
      connections.clear()
    },
  }
}
