// Signing by plan: execute relays only signatures that are the person's own over what the preview planned.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { type Hex, hexToBytes, keccak256, stringToHex } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { executeSignedRequest, previewRequest } from '../../../server/embedded/methods/index.ts'
import {
  foreignSignatureMessage,
  planOf,
  signatureCountMessage,
} from '../../../server/embedded/methods/plan.ts'
import type { ApprovalMethod } from '../../../src/protocol/embedded/index.ts'
import { signPlan } from '../../../src/protocol/embedded/signer.ts'
import { encodeBase58 } from '../../../src/protocol/siwx/base58.ts'
import { EVM, newPerson, SOLANA } from './embedded-methods-helpers.ts'

const RECEIVER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

type Person = ReturnType<typeof newPerson>

/** The person's keys as bytes, as the frame will hold them. */
const keysOf = (person: Person) => ({ secp256k1: hexToBytes(person.evmKey), ed25519: person.solanaKey })

/** Someone else's keys. */
const strangerKeys = () => ({
  secp256k1: hexToBytes(generatePrivateKey()),
  ed25519: ed25519.utils.randomPrivateKey(),
})

/** A request previewed and stored (as JSON, as the database keeps it), and its plan signed with `keys`. */
async function planned(
  person: Person,
  chainId: string,
  method: ApprovalMethod,
  params: unknown,
  keys = keysOf(person),
) {
  const ctx = person.contextOn(chainId)
  const { prepared } = await previewRequest(ctx, method, params)
  const stored = JSON.parse(JSON.stringify(prepared)) as unknown
  const signatures = signPlan({ method, plan: planOf(stored), keys, ownAccounts: [] })
  const execute = (given: readonly string[]) => executeSignedRequest(ctx, method, params, stored, given)
  return { stored, signatures, execute }
}

/** 0.5 SOL from `from`, unsigned, in base64, as a page sends it. */
function transfer(from: string) {
  return new Transaction({
    feePayer: new PublicKey(from),
    recentBlockhash: Keypair.generate().publicKey.toBase58(),
  })
    .add(
      SystemProgram.transfer({
        fromPubkey: new PublicKey(from),
        toPubkey: Keypair.generate().publicKey,
        lamports: 500_000_000,
      }),
    )
    .serialize({ requireAllSignatures: false, verifySignatures: false })
    .toString('base64')
}

describe('signing by plan: the preview describes every signature', () => {
  test('default: each method’s plan, signed outside the service, is relayed without opening a key', async () => {
    const person = newPerson()
    const message = await planned(person, EVM, 'personal_sign', [stringToHex('Hello'), person.evm.address])
    assert.deepEqual(planOf(message.stored), [{ kind: 'evm-message', message: stringToHex('Hello') }])
    assert.equal(
      await message.execute(message.signatures),
      await person.evm.signMessage({ message: 'Hello' }),
    )

    const sent = await planned(person, EVM, 'eth_sendTransaction', [
      { from: person.evm.address, to: RECEIVER, value: '0x1' },
    ])
    const [request] = planOf(sent.stored)
    // Everything signed is fixed at the preview: the nonce, the gas and the fees.
    assert.equal(request?.kind, 'evm-transaction')
    assert.equal(request?.kind === 'evm-transaction' && request.transaction.nonce, 7)
    assert.equal(await sent.execute(sent.signatures), keccak256(person.upstream.sent[0] as Hex))

    const solana = await planned(person, SOLANA, 'solana_signMessage', {
      message: encodeBase58(new TextEncoder().encode('Sign in')),
    })
    const answer = (await solana.execute(solana.signatures)) as { signature: string }
    assert.equal(answer.signature, encodeBase58(hexToBytes(solana.signatures[0] as Hex)))
    assert.deepEqual(person.opened, [])
  })
})

describe('signing by plan: execute refuses what the preview did not plan', () => {
  test('error: a signature by another key is refused, nothing sent', async () => {
    const person = newPerson()
    const tx = await planned(
      person,
      EVM,
      'eth_sendTransaction',
      [{ from: person.evm.address, to: RECEIVER, value: '0x1' }],
      strangerKeys(),
    )
    await assert.rejects(tx.execute(tx.signatures), { message: foreignSignatureMessage(0) })
    const message = await planned(
      person,
      EVM,
      'personal_sign',
      ['0x68656c6c6f', person.evm.address],
      strangerKeys(),
    )
    await assert.rejects(message.execute(message.signatures), { message: foreignSignatureMessage(0) })
    const solana = await planned(
      person,
      SOLANA,
      'solana_signTransaction',
      { transaction: transfer(person.solana) },
      strangerKeys(),
    )
    await assert.rejects(solana.execute(solana.signatures), { message: foreignSignatureMessage(0) })
    assert.deepEqual(person.upstream.sent, [])
  })

  test('error: the person’s own signature of another request is refused (a page cannot swap what is signed)', async () => {
    const person = newPerson()
    const approved = await planned(person, EVM, 'personal_sign', ['0x68656c6c6f', person.evm.address])
    const other = await planned(person, EVM, 'personal_sign', ['0x0badc0de', person.evm.address])
    await assert.rejects(approved.execute(other.signatures), { message: foreignSignatureMessage(0) })

    const calls = await planned(person, EVM, 'wallet_sendCalls', [
      {
        calls: [
          { to: RECEIVER, value: '0x1' },
          { to: RECEIVER, value: '0x2' },
        ],
      },
    ])
    // Both signatures are the person's, in the wrong order: the first stands for another transaction.
    await assert.rejects(calls.execute([...calls.signatures].reverse()), {
      message: foreignSignatureMessage(0),
    })
    const bigger = await planned(person, EVM, 'eth_sendTransaction', [
      { from: person.evm.address, to: RECEIVER, value: '0xde0b6b3a7640000' },
    ])
    const smaller = await planned(person, EVM, 'eth_sendTransaction', [
      { from: person.evm.address, to: RECEIVER, value: '0x1' },
    ])
    await assert.rejects(smaller.execute(bigger.signatures), { message: foreignSignatureMessage(0) })

    const first = await planned(person, SOLANA, 'solana_signAndSendTransaction', {
      transaction: transfer(person.solana),
    })
    const second = await planned(person, SOLANA, 'solana_signAndSendTransaction', {
      transaction: transfer(person.solana),
    })
    await assert.rejects(first.execute(second.signatures), { message: foreignSignatureMessage(0) })
    assert.deepEqual(person.upstream.sent, [])
    assert.deepEqual(person.upstream.solanaSent, [])
  })

  test('error: a missing or an extra signature is refused', async () => {
    const person = newPerson()
    const message = await planned(person, EVM, 'personal_sign', ['0x68656c6c6f', person.evm.address])
    await assert.rejects(message.execute([]), { message: signatureCountMessage(1, 0) })
    await assert.rejects(message.execute([...message.signatures, ...message.signatures]), {
      message: 'This request needs 1 signature; 2 given',
    })
    const calls = await planned(person, EVM, 'wallet_sendCalls', [
      {
        calls: [
          { to: RECEIVER, value: '0x1' },
          { to: RECEIVER, value: '0x2' },
        ],
      },
    ])
    await assert.rejects(calls.execute(calls.signatures.slice(0, 1)), {
      message: 'This request needs 2 signatures; 1 given',
    })
    const solana = await planned(person, SOLANA, 'solana_signMessage', {
      message: encodeBase58(new Uint8Array([1, 2, 3])),
    })
    await assert.rejects(solana.execute(['0x']), { message: foreignSignatureMessage(0) })
    await assert.rejects(solana.execute([]), { message: signatureCountMessage(1, 0) })
    assert.deepEqual(person.upstream.sent, [])
    assert.deepEqual(person.opened, [])
  })
})
