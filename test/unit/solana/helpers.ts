import type { Keypair } from '@solana/web3.js'
import { Transaction } from '@solana/web3.js'
import type { SolanaRpc } from '../../../src/chains/solana/rpc.ts'
import { serializeForWallet } from '../../../src/chains/solana/transfer.ts'
import { encodeBase58 } from '../../../src/protocol/siwx/base58.ts'

let nextId = 1

/** A real JSON-RPC call over fetch, as the caller's proxy would make it: errors are thrown. */
export function fetchRpc(url: string): SolanaRpc {
  return async (method, params) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    })
    const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
    if (body.error) throw new Error(`${method}: ${body.error.message} (${body.error.code})`)
    return body.result
  }
}

/** What a wallet does with `serializeForWallet` bytes: sign them and hand back the wire bytes. */
export function signAsWallet(tx: Transaction, signer: Keypair): { wire: string; signature: string } {
  const received = Transaction.from(serializeForWallet(tx))
  received.partialSign(signer)
  const signature = received.signature
  if (!signature) throw new Error('not signed')
  return { wire: received.serialize().toString('base64'), signature: encodeBase58(signature) }
}

/** Sends a signed transaction (base64) and returns its signature. */
export async function send(rpc: SolanaRpc, wire: string, skipPreflight = false): Promise<string> {
  const signature = await rpc('sendTransaction', [wire, { encoding: 'base64', skipPreflight }])
  if (typeof signature !== 'string') throw new Error('sendTransaction answered no signature')
  return signature
}

/** The fee a landed transaction paid (from the local network's history). */
export async function feeOf(rpc: SolanaRpc, signature: string): Promise<bigint> {
  const tx = (await rpc('getTransaction', [signature, { encoding: 'json', commitment: 'confirmed' }])) as {
    meta: { fee: number }
  }
  return BigInt(tx.meta.fee)
}
