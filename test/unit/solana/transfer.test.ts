import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token'
import { PublicKey, SystemProgram, type TransactionInstruction } from '@solana/web3.js'
import {
  devKeypair,
  type LocalSolana,
  startSolana,
  TEST_TOKEN_SUPPLY,
} from '../../../server/dev/solana/index.ts'
import { getSolBalance, getTokenBalances } from '../../../src/chains/solana/balances.ts'
import { LOCAL_SOLANA_NETWORK_ID } from '../../../src/chains/solana/networks.ts'
import type { SolanaRpc } from '../../../src/chains/solana/rpc.ts'
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '../../../src/chains/solana/tokens.ts'
import {
  buildSolTransfer,
  buildTokenTransfer,
  confirmSignature,
  findAssociatedTokenAddress,
  serializeForWallet,
} from '../../../src/chains/solana/transfer.ts'
import { encodeBase58 } from '../../../src/protocol/siwx/base58.ts'
import { feeOf, fetchRpc, send, signAsWallet } from './helpers.ts'

const TEST_MINT = '3NgR9cyptmChF72pCdDbrajWsehczWmp6iEbBnnFkHPU'
const SOL = 1_000_000_000n
const TEST = 1_000_000n
const key = (index: number): string => devKeypair(index).publicKey.toBase58()

const testBalance = async (rpc: SolanaRpc, owner: string): Promise<bigint | undefined> =>
  (await getTokenBalances(rpc, LOCAL_SOLANA_NETWORK_ID, owner)).find((balance) => balance.mint === TEST_MINT)
    ?.amount

const shape = (ix: TransactionInstruction) => ({
  programId: ix.programId.toBase58(),
  keys: ix.keys.map(({ pubkey, isSigner, isWritable }) => [pubkey.toBase58(), isSigner, isWritable]),
  data: [...ix.data],
})

describe('Solana transfers against the local network', { timeout: 60_000 }, () => {
  let solana: LocalSolana
  let rpc: SolanaRpc

  before(async () => {
    solana = await startSolana({ port: 0 })
    rpc = fetchRpc(solana.url)
  })

  after(async () => {
    await solana?.stop()
  })

  test('default: 0.5 SOL from dev key 0 to dev key 1, signed by the wallet, confirmed; balances move exactly', async () => {
    const [fromBefore, toBefore] = [await getSolBalance(rpc, key(0)), await getSolBalance(rpc, key(1))]
    const tx = await buildSolTransfer(rpc, { from: key(0), to: key(1), lamports: SOL / 2n })
    assert.equal(tx.feePayer?.toBase58(), key(0))
    assert.ok(tx.recentBlockhash)
    assert.equal(tx.instructions.length, 1)
    assert.deepEqual(
      shape(tx.instructions[0] as TransactionInstruction),
      shape(
        SystemProgram.transfer({
          fromPubkey: new PublicKey(key(0)),
          toPubkey: new PublicKey(key(1)),
          lamports: SOL / 2n,
        }),
      ),
    )

    const { wire, signature } = signAsWallet(tx, devKeypair(0))
    assert.equal(await send(rpc, wire), signature)
    const confirmed = await confirmSignature(rpc, signature)
    assert.ok(['confirmed', 'finalized'].includes(confirmed.confirmationStatus))
    assert.ok(confirmed.slot > 0)

    const fee = await feeOf(rpc, signature)
    assert.ok(fee > 0n)
    assert.equal(await getSolBalance(rpc, key(1)), toBefore + SOL / 2n)
    assert.equal(await getSolBalance(rpc, key(0)), fromBefore - SOL / 2n - fee)
  })

  test('behavior: serializeForWallet gives unsigned wire bytes with the fee payer slot empty', async () => {
    const tx = await buildSolTransfer(rpc, { from: key(0), to: key(1), lamports: 1n })
    const bytes = serializeForWallet(tx)
    assert.ok(bytes instanceof Uint8Array)
    assert.equal(bytes[0], 1, 'one signature slot')
    assert.deepEqual([...bytes.subarray(1, 65)], new Array(64).fill(0))
  })

  test('behavior: the associated token address matches spl-token and the genesis holder', () => {
    const owner = devKeypair(0).publicKey
    const mint = new PublicKey(TEST_MINT)
    assert.equal(findAssociatedTokenAddress(owner, mint).toBase58(), solana.mint.holder.toBase58())
    const other = devKeypair(2).publicKey
    assert.equal(
      findAssociatedTokenAddress(other, mint).toBase58(),
      getAssociatedTokenAddressSync(mint, other).toBase58(),
    )
  })

  test('default: 10 TEST to dev key 2 creates its token account first; the hand-written instructions match spl-token', async () => {
    const [from, to, mint] = [devKeypair(0).publicKey, devKeypair(2).publicKey, new PublicKey(TEST_MINT)]
    assert.equal(await testBalance(rpc, key(2)), undefined)
    const tx = await buildTokenTransfer(rpc, {
      from: key(0),
      to: key(2),
      mint: TEST_MINT,
      amount: 10n * TEST,
      decimals: 6,
    })
    assert.equal(tx.feePayer?.toBase58(), key(0))
    assert.equal(tx.instructions.length, 2)
    const [create, transfer] = tx.instructions as [TransactionInstruction, TransactionInstruction]
    const source = getAssociatedTokenAddressSync(mint, from)
    const destination = getAssociatedTokenAddressSync(mint, to)
    assert.deepEqual(
      shape(create),
      shape(createAssociatedTokenAccountIdempotentInstruction(from, destination, to, mint)),
    )
    assert.equal(create.programId.toBase58(), ASSOCIATED_TOKEN_PROGRAM_ADDRESS)
    assert.deepEqual([...create.data], [1])
    assert.deepEqual(
      shape(transfer),
      shape(createTransferCheckedInstruction(source, mint, destination, from, 10n * TEST, 6)),
    )
    assert.equal(transfer.programId.toBase58(), TOKEN_PROGRAM_ADDRESS)
    assert.deepEqual([...transfer.data], [12, 0x80, 0x96, 0x98, 0, 0, 0, 0, 0, 6])

    const { wire, signature } = signAsWallet(tx, devKeypair(0))
    await send(rpc, wire)
    await confirmSignature(rpc, signature)
    assert.deepEqual(await getTokenBalances(rpc, LOCAL_SOLANA_NETWORK_ID, key(2)), [
      { mint: TEST_MINT, amount: 10n * TEST, decimals: 6, symbol: 'TEST', name: 'Test Token' },
    ])
    assert.equal(await testBalance(rpc, key(0)), TEST_TOKEN_SUPPLY - 10n * TEST)
  })

  test('behavior: a second transfer to dev key 2 does not create the account again (one TransferChecked)', async () => {
    const tx = await buildTokenTransfer(rpc, {
      from: key(0),
      to: key(2),
      mint: TEST_MINT,
      amount: 10n * TEST,
      decimals: 6,
    })
    assert.equal(tx.instructions.length, 1)
    assert.equal(tx.instructions[0]?.programId.toBase58(), TOKEN_PROGRAM_ADDRESS)
    assert.equal(tx.instructions[0]?.data[0], 12)
    const { wire, signature } = signAsWallet(tx, devKeypair(0))
    await send(rpc, wire)
    await confirmSignature(rpc, signature)
    assert.equal(await testBalance(rpc, key(2)), 20n * TEST)
    assert.equal(await testBalance(rpc, key(0)), TEST_TOKEN_SUPPLY - 20n * TEST)
  })

  test('error: Insufficient token balance without a token account, or with too little in it', async () => {
    await assert.rejects(
      buildTokenTransfer(rpc, { from: key(1), to: key(0), mint: TEST_MINT, amount: 1n, decimals: 6 }),
      (error: Error & { shortMessage?: string }) => {
        assert.equal(error.name, 'InsufficientTokenBalanceError')
        assert.equal(error.shortMessage, 'Insufficient token balance')
        assert.match(error.message, /^Insufficient token balance/)
        assert.match(error.message, /has no token account/)
        return true
      },
    )
    await assert.rejects(
      buildTokenTransfer(rpc, {
        from: key(2),
        to: key(0),
        mint: TEST_MINT,
        amount: 20n * TEST + 1n,
        decimals: 6,
      }),
      { name: 'InsufficientTokenBalanceError', message: /Balance 20000000, needed 20000001/ },
    )
    // All of it is fine.
    const all = await buildTokenTransfer(rpc, {
      from: key(2),
      to: key(0),
      mint: TEST_MINT,
      amount: 20n * TEST,
      decimals: 6,
    })
    assert.equal(all.instructions.length, 1)
  })

  test('error: wrong decimals, bad addresses and amounts are refused before anything is built', async () => {
    await assert.rejects(
      buildTokenTransfer(rpc, { from: key(0), to: key(2), mint: TEST_MINT, amount: 1n, decimals: 9 }),
      { name: 'ValidationError', message: /The token has 6 decimals, not 9/ },
    )
    const bad = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    await assert.rejects(buildSolTransfer(rpc, { from: key(0), to: bad, lamports: 1n }), {
      name: 'ValidationError',
      message: /^Invalid Solana address/,
    })
    await assert.rejects(
      buildTokenTransfer(rpc, { from: key(0), to: key(2), mint: bad, amount: 1n, decimals: 6 }),
      { name: 'ValidationError' },
    )
    await assert.rejects(buildSolTransfer(rpc, { from: key(0), to: key(1), lamports: 0n }), {
      name: 'ValidationError',
      message: /greater than zero/,
    })
    await assert.rejects(
      buildTokenTransfer(rpc, { from: key(0), to: key(2), mint: TEST_MINT, amount: 2n ** 64n, decimals: 6 }),
      { name: 'ValidationError', message: /too large/ },
    )
  })

  test('error: confirmSignature names the error of a transaction that landed and failed (SOL beyond the balance)', async () => {
    const before = await getSolBalance(rpc, key(3))
    const tx = await buildSolTransfer(rpc, { from: key(3), to: key(1), lamports: before + 1n })
    const { wire, signature } = signAsWallet(tx, devKeypair(3))
    assert.equal(await send(rpc, wire, true), signature)
    await assert.rejects(confirmSignature(rpc, signature), (error: Error & Record<string, unknown>) => {
      assert.equal(error.name, 'TransactionFailedError')
      assert.equal(error.shortMessage, 'Transaction failed')
      assert.equal(error.details, 'Instruction 0: custom program error 0x1')
      assert.deepEqual(error.transactionError, { InstructionError: [0, { Custom: 1 }] })
      assert.equal(error.signature, signature)
      assert.match(error.message, new RegExp(`Signature: ${signature}`))
      return true
    })
    // The fee was still paid.
    assert.equal(await getSolBalance(rpc, key(3)), before - (await feeOf(rpc, signature)))
  })

  test('error: a signature that never lands times out', async () => {
    const signature = encodeBase58(randomBytes(64))
    const started = Date.now()
    await assert.rejects(confirmSignature(rpc, signature, { timeoutMs: 300, intervalMs: 50 }), {
      name: 'TransactionConfirmationTimeoutError',
      message: /not confirmed in time[\s\S]*within 0.3 seconds/,
    })
    assert.ok(Date.now() - started < 2_000)
  })

  test('behavior: confirmSignature stops when its signal aborts', async () => {
    const signature = encodeBase58(randomBytes(64))
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    await assert.rejects(confirmSignature(rpc, signature, { intervalMs: 1_000, signal: controller.signal }), {
      name: 'RequestAbortedError',
    })
  })

  test('behavior: confirmSignature waits through processed and unknown, and asks with searchTransactionHistory', async () => {
    const answers: unknown[] = [
      null,
      { slot: 9, confirmations: 0, err: null, confirmationStatus: 'processed' },
      { slot: 9, confirmations: 1, err: null, confirmationStatus: 'confirmed' },
    ]
    const params: unknown[] = []
    const fake: SolanaRpc = async (method, args) => {
      assert.equal(method, 'getSignatureStatuses')
      params.push(args)
      return { context: { slot: 10 }, value: [answers.shift()] }
    }
    const signature = encodeBase58(randomBytes(64))
    assert.deepEqual(await confirmSignature(fake, signature, { intervalMs: 1 }), {
      slot: 9,
      confirmationStatus: 'confirmed',
    })
    assert.equal(params.length, 3)
    assert.deepEqual(params[0], [[signature], { searchTransactionHistory: true }])
  })

  test('error: malformed answers are rejected with the method named', async () => {
    const fake: SolanaRpc = async () => ({ foo: 1 })
    await assert.rejects(buildSolTransfer(fake, { from: key(0), to: key(1), lamports: 1n }), {
      name: 'InvalidResponseError',
      message: /Method: getLatestBlockhash/,
    })
    await assert.rejects(
      buildTokenTransfer(fake, { from: key(0), to: key(2), mint: TEST_MINT, amount: 1n, decimals: 6 }),
      { name: 'InvalidResponseError', message: /Method: getAccountInfo/ },
    )
    await assert.rejects(confirmSignature(fake, encodeBase58(randomBytes(64))), {
      name: 'InvalidResponseError',
      message: /Method: getSignatureStatuses/,
    })
  })

  test('error: errors of the rpc function itself pass through', async () => {
    const failing: SolanaRpc = async () => {
      throw new Error('proxy down')
    }
    await assert.rejects(buildSolTransfer(failing, { from: key(0), to: key(1), lamports: 1n }), {
      message: 'proxy down',
    })
    await assert.rejects(confirmSignature(failing, encodeBase58(randomBytes(64))), { message: 'proxy down' })
  })
})
