import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import {
  AddressLookupTableAccount,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import {
  isSolanaTransactionShaped,
  readSolanaTransaction,
  writeSolanaTransaction,
} from '../../../src/protocol/embedded/solanaWire.ts'

// Transactions are built with @solana/web3.js (a test-only dependency here) and read by the service's
// own reader, which must agree with it byte for byte.
const blockhash = new PublicKey(Uint8Array.from({ length: 32 }, (_, index) => index + 1)).toBase58()
const payer = Keypair.fromSeed(Uint8Array.from({ length: 32 }, () => 7))
const other = Keypair.fromSeed(Uint8Array.from({ length: 32 }, () => 9))
const receiver = Keypair.fromSeed(Uint8Array.from({ length: 32 }, () => 3)).publicKey

function legacyTransfer(): Uint8Array {
  const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
    SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: receiver, lamports: 500_000_000 }),
  )
  return tx.serialize({ requireAllSignatures: false, verifySignatures: false })
}

function versionedWithLookups(): VersionedTransaction {
  const table = new AddressLookupTableAccount({
    key: Keypair.fromSeed(Uint8Array.from({ length: 32 }, () => 5)).publicKey,
    state: {
      deactivationSlot: BigInt('18446744073709551615'),
      lastExtendedSlot: 0,
      lastExtendedSlotStartIndex: 0,
      addresses: [receiver],
    },
  })
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: blockhash,
    instructions: [
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: receiver, lamports: 42 }),
      SystemProgram.transfer({ fromPubkey: other.publicKey, toPubkey: payer.publicKey, lamports: 7 }),
    ],
  }).compileToV0Message([table])
  return new VersionedTransaction(message)
}

describe('the Solana wire format (src/protocol/embedded/solanaWire.ts)', () => {
  test('default: a legacy transfer reads as web3.js reads it, and writes back byte for byte', () => {
    const bytes = legacyTransfer()
    const tx = readSolanaTransaction(bytes)
    const theirs = VersionedTransaction.deserialize(bytes)
    assert.equal(tx.version, 'legacy')
    assert.equal(tx.numRequiredSignatures, 1)
    assert.deepEqual(
      tx.staticAccountKeys,
      theirs.message.staticAccountKeys.map((key) => key.toBase58()),
    )
    assert.deepEqual(tx.message, Uint8Array.from(theirs.message.serialize()))
    assert.deepEqual(tx.instructions[0]?.accountKeyIndexes, [0, 1])
    assert.equal(Buffer.from(tx.instructions[0]?.data ?? []).readBigUInt64LE(4), 500_000_000n)
    assert.deepEqual(writeSolanaTransaction(tx), Uint8Array.from(bytes))
  })

  test('behavior: a version-0 message with an address table and two signers; a signature lands in its slot', () => {
    const theirs = versionedWithLookups()
    const bytes = theirs.serialize()
    const tx = readSolanaTransaction(bytes)
    assert.equal(tx.version, 0)
    assert.equal(tx.numRequiredSignatures, 2)
    assert.equal(tx.signatures.length, 2)
    assert.deepEqual(tx.message, Uint8Array.from(theirs.message.serialize()))
    // The receiver comes from the table, so the message's own keys do not name it.
    assert.ok(!tx.staticAccountKeys.includes(receiver.toBase58()))
    const slot = tx.staticAccountKeys.indexOf(other.publicKey.toBase58())
    assert.equal(slot, 1)
    tx.signatures[slot] = ed25519.sign(tx.message, other.secretKey.subarray(0, 32))
    const signed = VersionedTransaction.deserialize(writeSolanaTransaction(tx))
    assert.ok(
      ed25519.verify(
        signed.signatures[1] ?? new Uint8Array(),
        signed.message.serialize(),
        other.publicKey.toBytes(),
      ),
    )
    assert.deepEqual(signed.signatures[0], new Uint8Array(64))
  })

  test('error: truncated, trailing bytes, an unknown version or the wrong number of signatures are refused', () => {
    const bytes = legacyTransfer()
    assert.throws(() => readSolanaTransaction(bytes.subarray(0, bytes.length - 1)), /truncated/)
    assert.throws(() => readSolanaTransaction(Uint8Array.from([...bytes, 0])), /bytes after its message/)
    const versioned = versionedWithLookups().serialize()
    const messageAt = 1 + 2 * 64
    const v1 = Uint8Array.from(versioned)
    v1[messageAt] = 0x81
    assert.throws(() => readSolanaTransaction(v1), /version 1 is not supported/)
    const oneSignature = Uint8Array.from([1, ...versioned.subarray(1, 65), ...versioned.subarray(messageAt)])
    assert.throws(() => readSolanaTransaction(oneSignature), /wrong number of signatures/)
    assert.throws(() => readSolanaTransaction(new Uint8Array()), /truncated/)
    assert.throws(() => readSolanaTransaction(Uint8Array.from([0xff, 0xff, 0xff, 0xff])), /malformed/)
  })

  test('behavior: transaction-shaped bytes (what solana_signMessage refuses) and messages that are not', () => {
    const legacy = readSolanaTransaction(legacyTransfer())
    const versioned = versionedWithLookups()
    const shaped = [
      legacyTransfer(),
      legacy.message,
      Uint8Array.from([...legacy.message, ...new TextEncoder().encode('tail')]),
      versioned.message.serialize(),
      versioned.serialize(),
    ]
    for (const bytes of shaped) assert.equal(isSolanaTransactionShaped(bytes), true)
    const messages = [
      'example.com wants you to sign in with your Solana account:\nBzvW…\n\nURI: https://example.com\nVersion: 1\nNonce: 32891756',
      'こんにちは、ウォレット',
      'é'.repeat(600),
      '',
    ].map((text) => new TextEncoder().encode(text))
    for (const bytes of [...messages, new Uint8Array(64), Uint8Array.from({ length: 40 }, (_, i) => i)])
      assert.equal(isSolanaTransactionShaped(bytes), false)
  })
})
