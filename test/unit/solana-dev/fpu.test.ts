import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import {
  createAssociatedTokenAccountIdempotentInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token'
import { Keypair, PublicKey, Transaction, TransactionInstruction } from '@solana/web3.js'
import { loadFpuReset } from '../../../server/dev/solana/fpu.ts'
import { createGenesis } from '../../../server/dev/solana/genesis.ts'
import { Ledger } from '../../../server/dev/solana/ledger.ts'

const MEMO = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr')

// litesvm's x86-64 JIT leaves MMX state behind after the ATA and Memo programs; without the reset the next
// garbage collection aborts the process with std::bad_alloc (litesvm issue #171). This file would crash.
describe('SVM runs leave the FPU clean', () => {
  test('the reset helper builds on x64', () => {
    const fpu = loadFpuReset()
    if (process.arch === 'x64') assert.equal(fpu.error, null)
  })

  test('ATA and Memo transactions, then full garbage collections', () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const ledger = new Ledger()
    const { devKeys, mint } = createGenesis(ledger)
    const payer = devKeys[0]
    assert.ok(payer)
    for (let i = 0; i < 5; i++) {
      const owner = Keypair.generate().publicKey
      const tx = new Transaction({ feePayer: payer.publicKey, ...ledger.latestBlockhash() }).add(
        createAssociatedTokenAccountIdempotentInstruction(
          payer.publicKey,
          getAssociatedTokenAddressSync(mint.address, owner),
          owner,
          mint.address,
        ),
        new TransactionInstruction({ programId: MEMO, keys: [], data: Buffer.from(`memo ${i}`) }),
      )
      tx.sign(payer)
      const signature = ledger.send(tx.serialize(), { skipPreflight: false })
      assert.equal(ledger.transaction(signature)?.memo, `[6] memo ${i}`)
      const garbage = Array.from({ length: 50_000 }, (_, n) => ({ n, text: `x${n}` }))
      assert.equal(garbage.length, 50_000)
      gc()
    }
  })
})
