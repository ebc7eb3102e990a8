// The local Solana network through @solana/web3.js: refused transactions, skipPreflight, airdrops,
// v0 transactions and blockhash expiry.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  Keypair,
  LAMPORTS_PER_SOL,
  type PublicKey,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { connection, expectSendError, key, solana, useNetwork } from './network-helpers.ts'

describe('local Solana network through @solana/web3.js: refusals, airdrops, v0 and blockhash expiry', {
  timeout: 30_000,
}, () => {
  useNetwork()

  test('a transfer beyond the balance surfaces the SVM error as SendTransactionError', async () => {
    const poor = Keypair.generate()
    await connection.confirmTransaction({
      signature: await connection.requestAirdrop(poor.publicKey, LAMPORTS_PER_SOL),
      ...(await connection.getLatestBlockhash()),
    })
    const tx = new Transaction().add(
      SystemProgram.transfer({
        fromPubkey: poor.publicKey,
        toPubkey: key(solana, 1).publicKey,
        lamports: 5 * LAMPORTS_PER_SOL,
      }),
    )
    const error = await expectSendError(
      sendAndConfirmTransaction(connection, tx, [poor]),
      /Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1/,
    )
    const logs = await error.getLogs(connection)
    assert.ok(
      logs.some((line) => line.includes('insufficient lamports')),
      logs.join('\n'),
    )
    assert.equal(await connection.getBalance(poor.publicKey), LAMPORTS_PER_SOL, 'nothing landed, no fee')
  })

  test('a fee payer without an account is refused with the SVM error', async () => {
    const nobody = Keypair.generate()
    const tx = new Transaction().add(
      SystemProgram.transfer({
        fromPubkey: nobody.publicKey,
        toPubkey: key(solana, 1).publicKey,
        lamports: 1,
      }),
    )
    await expectSendError(
      sendAndConfirmTransaction(connection, tx, [nobody]),
      /Attempt to debit an account but found no record of a prior credit/,
    )
  })

  test('a bad signature is refused (preflight and skipPreflight)', async () => {
    const from = key(solana, 3)
    const { blockhash } = await connection.getLatestBlockhash()
    const tx = new Transaction({ feePayer: from.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({
        fromPubkey: from.publicKey,
        toPubkey: key(solana, 2).publicKey,
        lamports: 1_000,
      }),
    )
    tx.sign(from)
    const raw = tx.serialize()
    raw[10] = (raw[10] ?? 0) ^ 0xff // inside the first signature
    await expectSendError(connection.sendRawTransaction(raw), /signature verification failure/)
    await expectSendError(
      connection.sendRawTransaction(raw, { skipPreflight: true }),
      /signature verification failure/,
    )
  })

  test('an unknown or expired blockhash is refused', async () => {
    const from = key(solana, 3)
    const tx = new Transaction({
      feePayer: from.publicKey,
      recentBlockhash: Keypair.generate().publicKey.toBase58(),
    }).add(
      SystemProgram.transfer({
        fromPubkey: from.publicKey,
        toPubkey: key(solana, 2).publicKey,
        lamports: 1_000,
      }),
    )
    tx.sign(from)
    await expectSendError(connection.sendRawTransaction(tx.serialize()), /Blockhash not found/)
  })

  test('with skipPreflight a failing transaction lands with its error and fee', async () => {
    const from = key(solana, 3)
    const before = await connection.getBalance(from.publicKey)
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash()
    const tx = new Transaction({ feePayer: from.publicKey, blockhash, lastValidBlockHeight }).add(
      SystemProgram.transfer({
        fromPubkey: from.publicKey,
        toPubkey: key(solana, 2).publicKey,
        lamports: 10_000 * LAMPORTS_PER_SOL,
      }),
    )
    tx.sign(from)
    const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true })
    // web3.js resolves with the error (notification) or rejects with it (status poll), whichever comes first.
    const outcome = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight }).then(
      (confirmation) => confirmation.value.err,
      (error: unknown) => error,
    )
    assert.deepEqual(outcome, { InstructionError: [0, { Custom: 1 }] })
    assert.equal(await connection.getBalance(from.publicKey), before - 5_000)
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 })
    assert.deepEqual(landed?.meta?.err, { InstructionError: [0, { Custom: 1 }] })
    const [listed] = await connection.getSignaturesForAddress(from.publicKey, { limit: 1 })
    assert.equal(listed?.signature, signature)
    assert.deepEqual(listed?.err, { InstructionError: [0, { Custom: 1 }] })
    // Sending it again is refused: it was processed.
    await expectSendError(connection.sendRawTransaction(tx.serialize()), /already been processed/)
  })

  test('requestAirdrop funds a new account', async () => {
    const fresh = Keypair.generate().publicKey
    const signature = await connection.requestAirdrop(fresh, 2 * LAMPORTS_PER_SOL)
    const result = await connection.confirmTransaction({
      signature,
      ...(await connection.getLatestBlockhash()),
    })
    assert.equal(result.value.err, null)
    assert.equal(await connection.getBalance(fresh), 2 * LAMPORTS_PER_SOL)
    const [entry] = await connection.getSignaturesForAddress(fresh)
    assert.equal(entry?.signature, signature)
  })

  test('versioned (v0) transactions: simulate, fee, send, confirm, read back', async () => {
    const from = key(solana, 2)
    const to: PublicKey = Keypair.generate().publicKey
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash()
    const message = new TransactionMessage({
      payerKey: from.publicKey,
      recentBlockhash: blockhash,
      instructions: [
        SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: LAMPORTS_PER_SOL }),
      ],
    }).compileToV0Message()
    assert.equal((await connection.getFeeForMessage(message)).value, 5_000)

    const unsigned = new VersionedTransaction(message)
    const simulated = await connection.simulateTransaction(unsigned, {
      sigVerify: false,
      accounts: { encoding: 'base64', addresses: [to.toBase58()] },
    })
    assert.equal(simulated.value.err, null)
    assert.ok(simulated.value.logs?.some((line) => line.includes('success')))
    assert.equal(simulated.value.accounts?.[0]?.lamports, LAMPORTS_PER_SOL)
    assert.equal(await connection.getBalance(to), 0, 'simulation changed nothing')

    const stale = new VersionedTransaction(
      new TransactionMessage({
        payerKey: from.publicKey,
        recentBlockhash: Keypair.generate().publicKey.toBase58(),
        instructions: [
          SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: LAMPORTS_PER_SOL }),
        ],
      }).compileToV0Message(),
    )
    const replaced = await connection.simulateTransaction(stale, { replaceRecentBlockhash: true })
    assert.equal(replaced.value.err, null)
    const notReplaced = await connection.simulateTransaction(stale)
    assert.equal(notReplaced.value.err, 'BlockhashNotFound')

    const tx = new VersionedTransaction(message)
    tx.sign([from])
    const signature = await connection.sendTransaction(tx)
    await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight })
    assert.equal(await connection.getBalance(to), LAMPORTS_PER_SOL)
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 })
    assert.equal(landed?.version, 0)
    await assert.rejects(
      connection.getTransaction(signature) as Promise<unknown>,
      /maxSupportedTransactionVersion/,
      'v0 needs maxSupportedTransactionVersion, as on a validator',
    )
  })

  test('blockhashes expire after 150 blocks', async () => {
    const from = key(solana, 3)
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash()
    const target = Keypair.generate().publicKey
    while (solana.ledger.blockHeight <= lastValidBlockHeight) {
      solana.ledger.transfer(from, target, 1_000_000n)
    }
    assert.equal((await connection.isBlockhashValid(blockhash)).value, false)
    const tx = new Transaction({ feePayer: from.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: target, lamports: 1 }),
    )
    tx.sign(from)
    await expectSendError(connection.sendRawTransaction(tx.serialize()), /Blockhash not found/)
  })
})
