// Sign-in with a Bitcoin account (bip122): BIP-322 simple signatures (P2WPKH, P2TR) and the legacy
// message signature, checked by the service for the sign-in network's addresses.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { base64 } from '@scure/base'
import * as btc from '@scure/btc-signer'
import { verifyBitcoinSignature } from '../../../server/auth/bitcoin.ts'
import { authenticateResponse, authMeResponse } from '../../../src/protocol/api/index.ts'
import { createSiwxMessage } from '../../../src/protocol/siwx/index.ts'
import {
  authenticate,
  errorOf,
  fieldsFor,
  getNonce,
  me,
  setNow,
  start,
  startAuthService,
} from './auth-helpers.ts'

startAuthService()

const MAINNET = '000000000019d6689c085ae165831e93'
const TESTNET = '000000000933ea01ad0ee984209779ba'
const REGTEST = '0f9188f13cb7b2c71f2a335e3a4fc328'
const regtest = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef }

// BIP-322's published test vectors (the BIP's private key L3VFeEujGtevx9w18HD1fhRbCH67Az2dpCymeRE1SoPK6XQtaN2k).
const VECTOR_P2WPKH = 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l'
const VECTORS = [
  {
    message: '',
    signature:
      'AkcwRAIgM2gBAQqvZX15ZiysmKmQpDrG83avLIT492QBzLnQIxYCIBaTpOaD20qRlEylyxFSeEA2ba9YOixpX8z46TSDtS40ASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=',
  },
  {
    message: '',
    signature:
      'AkgwRQIhAPkJ1Q4oYS0htvyuSFHLxRQpFAY56b70UvE7Dxazen0ZAiAtZfFz1S6T6I23MWI2lK/pcNTWncuyL8UL+oMdydVgzAEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy',
  },
  {
    message: 'Hello World',
    signature:
      'AkcwRAIgZRfIY3p7/DoVTty6YZbWS71bc5Vct9p9Fia83eRmw2QCICK/ENGfwLtptFluMGs2KsqoNSk89pO7F29zJLUx9a/sASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=',
  },
  {
    message: 'Hello World',
    signature:
      'AkgwRQIhAOzyynlqt93lOKJr+wmmxIens//zPzl9tqIOua93wO6MAiBi5n5EyAcPScOjf1lAqIUIQtr3zKNeavYabHyR8eGhowEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy',
  },
] as const
const VECTOR_P2TR = {
  address: 'bc1ppv609nr0vr25u07u95waq5lucwfm6tde4nydujnu8npg4q75mr5sxq8lt3',
  message: 'Hello World',
  signature: 'AUHd69PrJQEv+oKTfZ8l+WROBHuy9HKrbFCJu7U1iK2iiEy1vMU5EfMtjc+VSHM7aU0SDbak5IUZRVno2P5mjSafAQ==',
}

/** BIP-322's message hash, written from the BIP for the test's own signer. */
function messageHash(message: string): Uint8Array {
  const tag = sha256(new TextEncoder().encode('BIP0322-signed-message'))
  return sha256(new Uint8Array([...tag, ...tag, ...new TextEncoder().encode(message)]))
}

/**
 * A BIP-322 simple signature made by @scure/btc-signer: `to_sign` spends `to_spend`'s output (0 sats to
 * `script`) to OP_RETURN; the library computes the BIP-143 or BIP-341 signature hash and signs it.
 */
function signSimple(
  privateKey: Uint8Array,
  payment: { script: Uint8Array; tapInternalKey?: Uint8Array },
  message: string,
): string {
  const toSpend = new btc.Transaction({ version: 0, allowUnknownInputs: true, allowUnknownOutputs: true })
  toSpend.addOutput({ script: payment.script, amount: 0n })
  toSpend.addInput({
    txid: new Uint8Array(32),
    index: 0xffffffff,
    sequence: 0,
    finalScriptSig: btc.Script.encode(['OP_0', messageHash(message)]),
  })
  const toSign = new btc.Transaction({ version: 0, allowUnknownOutputs: true })
  toSign.addInput({
    txid: toSpend.id,
    index: 0,
    sequence: 0,
    witnessUtxo: { script: payment.script, amount: 0n },
    ...(payment.tapInternalKey ? { tapInternalKey: payment.tapInternalKey } : {}),
  })
  toSign.addOutput({ script: btc.Script.encode(['RETURN']), amount: 0n })
  toSign.signIdx(privateKey, 0)
  toSign.finalizeIdx(0)
  const witness = toSign.getInput(0).finalScriptWitness ?? []
  return base64.encode(btc.RawWitness.encode(witness))
}

/** A legacy "Bitcoin Signed Message" signature with a BIP-137 header, written from the format for the test. */
function signLegacy(privateKey: Uint8Array, message: string, header: number): string {
  const prefix = new TextEncoder().encode('\x18Bitcoin Signed Message:\n')
  const body = new TextEncoder().encode(message)
  const length = body.length < 0xfd ? [body.length] : [0xfd, body.length & 0xff, body.length >> 8]
  const digest = sha256(sha256(new Uint8Array([...prefix, ...length, ...body])))
  const signature = secp256k1.sign(digest, privateKey)
  return base64.encode(new Uint8Array([header + (signature.recovery ?? 0), ...signature.toCompactRawBytes()]))
}

const key = sha256(new TextEncoder().encode('wallet-elements/test/bitcoin/sign-in'))
const publicKey = secp256k1.getPublicKey(key, true)
const p2wpkh = btc.p2wpkh(publicKey, regtest)
const p2tr = btc.p2tr(schnorr.getPublicKey(key), undefined, regtest)
const p2shP2wpkh = btc.p2sh(btc.p2wpkh(publicKey, regtest), regtest)
const p2pkh = btc.p2pkh(publicKey, regtest)

describe('Bitcoin sign-in signatures (server/auth/bitcoin.ts)', () => {
  test('default: the BIP-322 test vectors verify (P2WPKH, both encodings per message, and P2TR)', () => {
    for (const { message, signature } of VECTORS) {
      const result = verifyBitcoinSignature({
        reference: MAINNET,
        address: VECTOR_P2WPKH,
        message,
        signature,
      })
      assert.equal(result, 'bip122:bip322-simple', JSON.stringify(message))
    }
    assert.equal(verifyBitcoinSignature({ reference: MAINNET, ...VECTOR_P2TR }), 'bip122:bip322-simple')
  })

  test('error: a vector with the other message, another address or another network does not verify', () => {
    const [empty, , hello] = VECTORS
    assert.equal(
      verifyBitcoinSignature({
        reference: MAINNET,
        address: VECTOR_P2WPKH,
        message: 'Hello World',
        signature: empty.signature,
      }),
      'invalid',
    )
    assert.equal(
      verifyBitcoinSignature({
        reference: MAINNET,
        address: VECTOR_P2TR.address,
        message: hello.message,
        signature: hello.signature,
      }),
      'invalid',
    )
    // The same key's address on testnet is another address: a mainnet address never signs in on testnet.
    assert.equal(
      verifyBitcoinSignature({
        reference: TESTNET,
        address: VECTOR_P2WPKH,
        message: hello.message,
        signature: hello.signature,
      }),
      'invalid',
    )
    // Mixed case is not an address (BIP-173).
    const mixed = `bc1Q${VECTOR_P2WPKH.slice(4)}`
    assert.equal(
      verifyBitcoinSignature({
        reference: MAINNET,
        address: mixed,
        message: hello.message,
        signature: hello.signature,
      }),
      'invalid',
    )
  })

  test('default: signatures made by @scure/btc-signer for regtest P2WPKH and P2TR keys verify; of other text they do not', () => {
    for (const payment of [p2wpkh, p2tr]) {
      const message = 'localhost wants you to sign in with your Bitcoin account:'
      const signature = signSimple(key, payment, message)
      const address = payment.address ?? ''
      assert.equal(
        verifyBitcoinSignature({ reference: REGTEST, address, message, signature }),
        'bip122:bip322-simple',
      )
      assert.equal(
        verifyBitcoinSignature({ reference: REGTEST, address, message: `${message}!`, signature }),
        'invalid',
      )
    }
  })

  test('default: the legacy message signature verifies for P2PKH, P2SH-P2WPKH and P2WPKH, whichever segwit header the wallet wrote', () => {
    const message = 'Sign in to the shop'
    for (const [payment, headers] of [
      [p2pkh, [31]],
      [p2shP2wpkh, [35, 31]],
      [p2wpkh, [39, 31]],
    ] as const) {
      for (const header of headers) {
        const signature = signLegacy(key, message, header)
        const address = payment.address ?? ''
        assert.equal(
          verifyBitcoinSignature({ reference: REGTEST, address, message, signature }),
          'bip122:ecdsa',
        )
        assert.equal(
          verifyBitcoinSignature({ reference: REGTEST, address, message: 'other', signature }),
          'invalid',
        )
      }
    }
    // An uncompressed key's header (27-30) names the uncompressed key's P2PKH address, never a segwit one.
    assert.equal(
      verifyBitcoinSignature({
        reference: REGTEST,
        address: p2wpkh.address ?? '',
        message,
        signature: signLegacy(key, message, 27),
      }),
      'invalid',
    )
  })

  test('error: bytes that are neither form are malformed, not a crash', () => {
    for (const signature of ['not base64!', base64.encode(new Uint8Array([5, 1, 2])), '']) {
      assert.equal(
        verifyBitcoinSignature({
          reference: REGTEST,
          address: p2wpkh.address ?? '',
          message: 'x',
          signature,
        }),
        'malformed',
      )
    }
  })
})

describe('POST /auth/v1/authenticate (bip122)', () => {
  const chainId = `bip122:${REGTEST}`

  test('default: a regtest P2WPKH account signs the CAIP-122 message with BIP-322 and gets a session', async () => {
    setNow(start)
    const address = p2wpkh.address ?? ''
    const { nonce, token } = await getNonce()
    const message = createSiwxMessage(fieldsFor(address, nonce, { chainId }))
    assert.match(message, /^localhost:5173 wants you to sign in with your Bitcoin account:\nbcrt1q/)
    const signature = signSimple(key, p2wpkh, message)
    const response = await authenticate({ message, signature, nonceToken: token })
    assert.equal(response.statusCode, 200, response.body)
    const { session, token: sessionToken } = authenticateResponse.parse(response.json())
    assert.equal(session.data.chainId, chainId)
    assert.deepEqual(session.cacao.h, { t: 'caip122' })
    assert.deepEqual(session.cacao.s, { t: 'bip122:bip322-simple', s: signature })
    const answer = await me(sessionToken)
    assert.equal(answer.statusCode, 200)
    assert.equal(authMeResponse.parse(answer.json()).caipAddress, `${chainId}:${address}`)
  })

  test('default: a legacy message signature signs in too', async () => {
    setNow(start)
    const address = p2pkh.address ?? ''
    const { nonce, token } = await getNonce()
    const message = createSiwxMessage(fieldsFor(address, nonce, { chainId }))
    const signature = signLegacy(key, message, 31)
    const response = await authenticate({ message, signature, nonceToken: token })
    assert.equal(response.statusCode, 200, response.body)
    assert.equal(authenticateResponse.parse(response.json()).session.cacao.s.t, 'bip122:ecdsa')
  })

  test('error: another key, another network or a malformed signature is refused with words, nothing signed in', async () => {
    setNow(start)
    const address = p2wpkh.address ?? ''
    const other = sha256(new TextEncoder().encode('someone else'))
    const { nonce, token } = await getNonce()
    const message = createSiwxMessage(fieldsFor(address, nonce, { chainId }))
    const byOther = signSimple(other, btc.p2wpkh(secp256k1.getPublicKey(other, true), regtest), message)
    const refused = await authenticate({ message, signature: byOther, nonceToken: token })
    assert.equal(refused.statusCode, 401)
    assert.equal(errorOf(refused.body).code, 'INVALID_SIGNATURE')

    // The regtest address in a mainnet sign-in message.
    const mainnetMessage = createSiwxMessage(fieldsFor(address, nonce, { chainId: `bip122:${MAINNET}` }))
    const wrongNetwork = await authenticate({
      message: mainnetMessage,
      signature: signSimple(key, p2wpkh, mainnetMessage),
      nonceToken: token,
    })
    assert.equal(wrongNetwork.statusCode, 401)
    assert.equal(errorOf(wrongNetwork.body).code, 'INVALID_SIGNATURE')

    const malformed = await authenticate({ message, signature: 'AAAA', nonceToken: token })
    assert.equal(malformed.statusCode, 400)
    assert.equal(errorOf(malformed.body).field, 'signature')
  })
})
