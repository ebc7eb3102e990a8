// The local Solana network through @solana/web3.js: dev keys, node information, the test token,
// transfers and subscriptions (refusals and other transactions in network-errors.test.ts).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
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
  Keypair,
  LAMPORTS_PER_SOL,
  type ParsedAccountData,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
} from '@solana/web3.js'
import { DEV_KEY_LAMPORTS, GENESIS_HASH } from '../../../server/dev/solana/index.ts'
import { connection, key, solana, useNetwork } from './network-helpers.ts'

describe('local Solana network through @solana/web3.js: keys, transfers and subscriptions', {
  timeout: 30_000,
}, () => {
  useNetwork()

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
})
