import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { previewRequest } from '../../../server/embedded/methods/index.ts'
import { transactionAsMessageMessage } from '../../../server/embedded/methods/solanaSignMessage.ts'
import { decodeBase58, encodeBase58 } from '../../../src/protocol/siwx/base58.ts'
import {
  chainFacts,
  executeRequest,
  newPerson,
  previewThenExecute,
  SOLANA,
} from './embedded-methods-helpers.ts'

// The Solana methods of the embedded wallet, each without HTTP: what is shown is what is signed.

describe('solana_signMessage', () => {
  test('default: the text shown is the bytes signed, raw ed25519 by the Solana key', async () => {
    const person = newPerson()
    const message = encodeBase58(new TextEncoder().encode('Hello, Solana'))
    const { shown, result } = await previewThenExecute(person.contextOn(SOLANA), 'solana_signMessage', {
      message,
      pubkey: person.solana,
    })
    assert.deepEqual(shown, { from: person.solana, message: { text: 'Hello, Solana' } })
    const signature = decodeBase58((result as { signature: string }).signature) as Uint8Array
    const signed = new TextEncoder().encode(shown.message?.text)
    assert.ok(ed25519.verify(signature, signed, decodeBase58(person.solana) as Uint8Array))
    assert.deepEqual(person.opened, ['ed25519'])
  })

  test('error: a transaction’s bytes, bad base58 and another account are refused, never signed', async () => {
    const person = newPerson()
    const ctx = person.contextOn(SOLANA)
    const tx = transfer(person.solana)
    const messageBytes = tx.serializeMessage()
    await assert.rejects(previewRequest(ctx, 'solana_signMessage', { message: encodeBase58(messageBytes) }), {
      message: transactionAsMessageMessage,
    })
    await assert.rejects(
      executeRequest(ctx, 'solana_signMessage', { message: encodeBase58(messageBytes) }, null),
      {
        message: transactionAsMessageMessage,
      },
    )
    await assert.rejects(previewRequest(ctx, 'solana_signMessage', { message: '0OIl' }), {
      message: 'Invalid params of solana_signMessage',
    })
    await assert.rejects(
      previewRequest(ctx, 'solana_signMessage', {
        message: 'abc',
        pubkey: Keypair.generate().publicKey.toBase58(),
      }),
      { message: 'The request names an account this wallet does not hold' },
    )
    assert.deepEqual(person.opened, [])
  })
})

/** 0.5 SOL from `from` to a new account, unsigned, as a page builds it. */
function transfer(from: string, receiver = Keypair.generate().publicKey) {
  return new Transaction({
    feePayer: new PublicKey(from),
    recentBlockhash: Keypair.generate().publicKey.toBase58(),
  }).add(
    SystemProgram.transfer({ fromPubkey: new PublicKey(from), toPubkey: receiver, lamports: 500_000_000 }),
  )
}

const unsigned = (tx: Transaction) =>
  tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64')

describe('solana_signTransaction and solana_signAndSendTransaction', () => {
  test('default: the transfer shown is parsed from the message signed; the signed transaction is answered', async () => {
    const person = newPerson()
    const receiver = Keypair.generate().publicKey
    const tx = transfer(person.solana, receiver)
    const { shown, result } = await previewThenExecute(person.contextOn(SOLANA), 'solana_signTransaction', {
      transaction: unsigned(tx),
    })
    assert.deepEqual(shown.transfers, [{ to: receiver.toBase58(), value: '500000000', dataBytes: 0 }])
    assert.equal(shown.fee, String(chainFacts.solanaFee))
    const answer = result as { signature: string; transaction: string }
    const signed = Transaction.from(Buffer.from(answer.transaction, 'base64'))
    assert.ok(signed.verifySignatures())
    assert.deepEqual(signed.serializeMessage(), tx.serializeMessage())
    assert.equal(encodeBase58(signed.signature as Uint8Array), answer.signature)
    assert.equal(person.upstream.solanaSent.length, 0)
  })

  test('default: sign and send sends that transaction signed, with the page’s send options', async () => {
    const person = newPerson()
    const tx = transfer(person.solana)
    const { result } = await previewThenExecute(person.contextOn(SOLANA), 'solana_signAndSendTransaction', {
      transaction: unsigned(tx),
      sendOptions: { skipPreflight: true },
    })
    assert.deepEqual(result, { signature: 'sent-signature' })
    const [sent] = person.upstream.solanaSent
    assert.deepEqual(sent?.options, {
      encoding: 'base64',
      preflightCommitment: 'confirmed',
      skipPreflight: true,
    })
    const signed = Transaction.from(Buffer.from(sent?.transaction ?? '', 'base64'))
    assert.ok(signed.verifySignatures())
    assert.deepEqual(signed.serializeMessage(), tx.serializeMessage())
  })

  test('error: a transaction this wallet need not sign, unreadable bytes and bad params are refused', async () => {
    const person = newPerson()
    const ctx = person.contextOn(SOLANA)
    const someoneElse = transfer(Keypair.generate().publicKey.toBase58())
    await assert.rejects(
      previewRequest(ctx, 'solana_signTransaction', { transaction: unsigned(someoneElse) }),
      {
        message: "This transaction does not need this wallet's signature",
      },
    )
    await assert.rejects(previewRequest(ctx, 'solana_signAndSendTransaction', { transaction: 'AAAA' }), {
      message: 'The transaction could not be read',
    })
    await assert.rejects(previewRequest(ctx, 'solana_signTransaction', { transaction: '***' }), {
      message: 'Invalid params of solana_signTransaction',
    })
    assert.deepEqual(person.opened, [])
  })
})
