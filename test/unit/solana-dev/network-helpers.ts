// What the local Solana network tests share: one network on free ports per file, its dev keys,
// and refused sends.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import { Connection, type Keypair, SendTransactionError } from '@solana/web3.js'
import type { LocalSolana } from '../../../server/dev/solana/index.ts'
import { canListen, startOnFreePorts, stopCleanly } from './helpers.ts'

export function key(solana: LocalSolana, index: number): Keypair {
  const keypair = solana.devKeys[index]
  assert.ok(keypair, `dev key ${index}`)
  return keypair
}

export async function expectSendError(
  promise: Promise<unknown>,
  pattern: RegExp,
): Promise<SendTransactionError> {
  try {
    await promise
  } catch (error) {
    assert.ok(error instanceof SendTransactionError, `expected SendTransactionError, got ${String(error)}`)
    assert.match(error.message, pattern)
    return error
  }
  assert.fail('expected the transaction to be refused')
}

export let solana: LocalSolana
export let connection: Connection
export let port: number

/** Starts the network on free ports before the calling describe's tests; after them, stops it
 * and checks both ports are released. */
export function useNetwork(): void {
  before(async () => {
    solana = await startOnFreePorts()
    port = Number(new URL(solana.url).port)
    assert.equal(solana.wsUrl, `ws://127.0.0.1:${port + 1}`)
    connection = new Connection(solana.url, 'confirmed')
  })

  after(async () => {
    if (!solana) return
    await stopCleanly(solana)
    assert.ok(await canListen(port), 'HTTP port released')
    assert.ok(await canListen(port + 1), 'WebSocket port released')
  })
}
