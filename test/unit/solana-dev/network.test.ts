import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  AccountLayout,
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAccount,
  getAssociatedTokenAddressSync,
  getMint,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token'
import {
  type AccountInfo,
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  type ParsedAccountData,
  type PublicKey,
  SendTransactionError,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { DEV_KEY_LAMPORTS, GENESIS_HASH, type LocalSolana } from '../../../server/dev/solana/index.ts'
import { canListen, startOnFreePorts, stopCleanly } from './helpers.ts'

function key(solana: LocalSolana, index: number): Keypair {
  const keypair = solana.devKeys[index]
  assert.ok(keypair, `dev key ${index}`)
  return keypair
}

async function expectSendError(promise: Promise<unknown>, pattern: RegExp): Promise<SendTransactionError> {
  try {
    await promise
  } catch (error) {
    assert.ok(error instanceof SendTransactionError, `expected SendTransactionError, got ${String(error)}`)
    assert.match(error.message, pattern)
    return error
  }
  assert.fail('expected the transaction to be refused')
}

describe('local Solana network through @solana/web3.js', { timeout: 30_000 }, () => {
  let solana: LocalSolana
  let connection: Connection
  let port: number

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

  test('dev keys hold 1,000 SOL each', async () => {
    assert.equal(solana.devKeys.length, 4)
    for (const keypair of solana.devKeys) {
      assert.equal(await connection.getBalance(keypair.publicKey), Number(DEV_KEY_LAMPORTS))
    }
  })

  test('node information answers as a validator would', async () => {
    assert.equal(typeof (await connection.getVersion())['solana-core'], 'string')
    assert.equal(await connection.getGenesisHash(), GENESIS_HASH)
    const slot = await connection.getSlot()
    assert.ok(slot >= 2, 'genesis transactions advanced the slot')
    assert.equal(await connection.getBlockHeight(), slot)
    const epoch = await connection.getEpochInfo()
    assert.equal(epoch.absoluteSlot, slot)
    assert.equal(await connection.getMinimumBalanceForRentExemption(165), 2_039_280)
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash()
    assert.equal(lastValidBlockHeight, slot + 150)
    assert.equal(await connection.isBlockhashValid(blockhash).then((r) => r.value), true)
    assert.equal(
      await connection.isBlockhashValid('11111111111111111111111111111111').then((r) => r.value),
      false,
    )
    const fees = await connection.getRecentPrioritizationFees()
    assert.ok(Array.isArray(fees))
  })

  test('the test token exists: mint and 1,000,000 tokens at dev key 0', async () => {
    const mint = await getMint(connection, solana.mint.address)
    assert.equal(mint.decimals, 6)
    assert.equal(mint.supply, 1_000_000_000_000n)
    assert.ok(mint.mintAuthority?.equals(key(solana, 0).publicKey))
    const holder = getAssociatedTokenAddressSync(solana.mint.address, key(solana, 0).publicKey)
    assert.ok(holder.equals(solana.mint.holder))
    const parsedMint = await connection.getParsedAccountInfo(solana.mint.address)
    const mintData = parsedMint.value?.data as ParsedAccountData
    assert.equal(mintData.parsed.type, 'mint')
    assert.equal(mintData.parsed.info.supply, '1000000000000')
    const system = await connection.getParsedAccountInfo(key(solana, 0).publicKey)
    assert.ok(Buffer.isBuffer(system.value?.data), 'a system account falls back to raw data')
    const balance = await connection.getTokenAccountBalance(holder)
    assert.equal(balance.value.amount, '1000000000000')
    assert.equal(balance.value.uiAmountString, '1000000')
  })

  test('a SOL transfer with sendAndConfirmTransaction moves lamports and pays the fee', async () => {
    const from = key(solana, 0)
    const to = key(solana, 1)
    const [fromBefore, toBefore] = await Promise.all([
      connection.getBalance(from.publicKey),
      connection.getBalance(to.publicKey),
    ])
    const tx = new Transaction().add(
      SystemProgram.transfer({
        fromPubkey: from.publicKey,
        toPubkey: to.publicKey,
        lamports: LAMPORTS_PER_SOL / 2,
      }),
    )
    const signature = await sendAndConfirmTransaction(connection, tx, [from])
    assert.equal(await connection.getBalance(from.publicKey), fromBefore - LAMPORTS_PER_SOL / 2 - 5_000)
    assert.equal(await connection.getBalance(to.publicKey), toBefore + LAMPORTS_PER_SOL / 2)

    const status = await connection.getSignatureStatus(signature)
    assert.equal(status.value?.err, null)
    assert.equal(status.value?.confirmationStatus, 'finalized')

    const history = await connection.getSignaturesForAddress(to.publicKey, { limit: 5 })
    assert.equal(history[0]?.signature, signature)
    assert.equal(history[0]?.err, null)
    assert.equal(typeof history[0]?.blockTime, 'number')

    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 })
    assert.ok(landed?.meta)
    assert.equal(landed.meta.fee, 5_000)
    assert.equal(landed.slot, history[0]?.slot)
    assert.equal(landed.version, 'legacy')
    const keys = landed.transaction.message.staticAccountKeys.map((k) => k.toBase58())
    const toIndex = keys.indexOf(to.publicKey.toBase58())
    assert.equal(landed.meta.postBalances[toIndex], toBefore + LAMPORTS_PER_SOL / 2)
    assert.equal(landed.meta.preBalances[toIndex], toBefore)
  })

  test('an SPL transfer creates dev key 1 its token account and shows up in balances and history', async () => {
    const owner = key(solana, 0)
    const receiver = key(solana, 1)
    const mint = solana.mint.address
    const source = getAssociatedTokenAddressSync(mint, owner.publicKey)
    const destination = getAssociatedTokenAddressSync(mint, receiver.publicKey)
    assert.equal(await connection.getAccountInfo(destination), null)

    const tx = new Transaction().add(
      createAssociatedTokenAccountIdempotentInstruction(
        owner.publicKey,
        destination,
        receiver.publicKey,
        mint,
      ),
      createTransferCheckedInstruction(source, mint, destination, owner.publicKey, 10_000_000n, 6),
    )
    const signature = await sendAndConfirmTransaction(connection, tx, [owner])

    const balance = await connection.getTokenAccountBalance(destination)
    assert.deepEqual(balance.value, { amount: '10000000', decimals: 6, uiAmount: 10, uiAmountString: '10' })
    assert.equal((await connection.getTokenAccountBalance(source)).value.uiAmountString, '999990')
    assert.equal((await getAccount(connection, destination)).amount, 10_000_000n)

    const parsed = await connection.getParsedTokenAccountsByOwner(receiver.publicKey, { mint })
    assert.equal(parsed.value.length, 1)
    const entry = parsed.value[0]
    assert.ok(entry)
    assert.ok(entry.pubkey.equals(destination))
    const data = (entry.account as AccountInfo<ParsedAccountData>).data
    assert.equal(data.program, 'spl-token')
    assert.equal(data.parsed.type, 'account')
    assert.equal(data.parsed.info.owner, receiver.publicKey.toBase58())
    assert.equal(data.parsed.info.tokenAmount.uiAmountString, '10')

    const raw = await connection.getTokenAccountsByOwner(receiver.publicKey, { programId: TOKEN_PROGRAM_ID })
    assert.equal(raw.value.length, 1)
    const decoded = AccountLayout.decode(raw.value[0]?.account.data ?? Buffer.alloc(0))
    assert.equal(decoded.amount, 10_000_000n)
    assert.ok(decoded.mint.equals(mint))
    const none = await connection.getTokenAccountsByOwner(key(solana, 3).publicKey, { mint })
    assert.equal(none.value.length, 0)

    const history = await connection.getSignaturesForAddress(destination)
    assert.deepEqual(
      history.map((h) => h.signature),
      [signature],
    )
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 })
    const post = landed?.meta?.postTokenBalances?.find((b) => b.owner === receiver.publicKey.toBase58())
    assert.equal(post?.uiTokenAmount.uiAmountString, '10')
    assert.equal(post?.mint, mint.toBase58())
    assert.ok(landed?.meta?.innerInstructions?.length, 'the ATA program made inner instructions')

    const parsedTx = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 })
    const instructions = parsedTx?.transaction.message.instructions ?? []
    const types = instructions.map((ix) => ('parsed' in ix ? (ix.parsed as { type: string }).type : 'raw'))
    assert.deepEqual(types, ['createIdempotent', 'transferChecked'])
  })

  test('account subscriptions notify balance changes', async () => {
    const payer = key(solana, 2)
    const watched = Keypair.generate().publicKey
    const before = solana.subscriptions
    const changed = new Promise<number>((resolve) => {
      const id = connection.onAccountChange(watched, (info) => {
        void connection.removeAccountChangeListener(id)
        resolve(info.lamports)
      })
    })
    // The subscription reaches the server before the transfer lands (a fixed wait was too short under load).
    const deadline = Date.now() + 10_000
    while (solana.subscriptions <= before && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20))
    assert.ok(solana.subscriptions > before, 'the account subscription reached the server')
    const tx = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: watched, lamports: LAMPORTS_PER_SOL }),
    )
    await sendAndConfirmTransaction(connection, tx, [payer])
    assert.equal(await changed, LAMPORTS_PER_SOL)
  })

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
