// What the Demo Wallet Solana-side tests share: the local network, memory storage, a wallet with
// recorded prompts, RPC reads and transfers.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import { type Keypair, SystemProgram, Transaction } from '@solana/web3.js'
import type { PromptRequest } from '../../../demo/wallets/prompt.ts'
import { type CreateSolanaWalletParameters, createSolanaWallet } from '../../../demo/wallets/solana-wallet.ts'
import { devKeypair, type LocalSolana, startSolana } from '../../../server/dev/solana/index.ts'

import { MemoryStorage } from '../memoryStorage.ts'

export { MemoryStorage }

export const origin = 'http://127.0.0.1:5173'

export const DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'

/** A Solana wallet whose prompts are recorded and answered by `answer` (approve by default). */
export function wallet(
  parameters: Partial<CreateSolanaWalletParameters> = {},
  answer: (request: PromptRequest) => boolean = () => true,
) {
  const prompts: PromptRequest[] = []
  const built = createSolanaWallet({
    origin,
    storage: new MemoryStorage(),
    ask: async (request) => {
      prompts.push(request)
      return answer(request)
    },
    ...parameters,
  })
  const changes: (readonly string[] | undefined)[] = []
  built.wallet.features['standard:events'].on('change', ({ accounts }) =>
    changes.push(accounts?.map((account) => account.address)),
  )
  return { ...built, prompts, changes }
}

export async function connected(parameters: Partial<CreateSolanaWalletParameters> = {}) {
  const built = wallet(parameters)
  const { accounts } = await built.wallet.features['standard:connect'].connect()
  const account = accounts[0]
  assert.ok(account)
  built.prompts.length = 0
  return { ...built, account }
}

export async function rejection(promise: Promise<unknown>): Promise<{ code: unknown; message: unknown }> {
  try {
    await promise
  } catch (error) {
    assert.ok(error instanceof Error)
    const { code, message } = error as Error & { code?: unknown }
    return { code, message }
  }
  throw new Error('expected a rejection')
}

export async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(body.error.message)
  return body.result
}

export const balance = async (url: string, key: Keypair): Promise<number> =>
  ((await rpc(url, 'getBalance', [key.publicKey.toBase58()])) as { value: number }).value

export const blockhash = async (url: string): Promise<string> =>
  ((await rpc(url, 'getLatestBlockhash')) as { value: { blockhash: string } }).value.blockhash

/** A legacy transfer transaction, unsigned, as the bytes a page hands the wallet. */

export function transfer(from: Keypair, to: Keypair, lamports: number, recentBlockhash: string): Uint8Array {
  const transaction = new Transaction({ feePayer: from.publicKey, recentBlockhash }).add(
    SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to.publicKey, lamports }),
  )
  return transaction.serialize({ requireAllSignatures: false, verifySignatures: false })
}

export let solana: LocalSolana
export const key0 = devKeypair(0)
export const key1 = devKeypair(1)

/** Starts the local Solana network before the calling describe's tests, and stops it after. */
export function useLocalSolana(): void {
  before(async () => {
    solana = await startSolana({ port: 0 })
  })

  after(async () => {
    await solana?.stop()
  })
}
