import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { NETWORK, OutScript, p2pkh, p2sh, p2wpkh, Script, Transaction, WIF } from '@scure/btc-signer'
import { BITCOIN_PATH, BITCOIN_TEST_PATH, withKeys } from '../../../src/frame/keys/derive.ts'
import { secretFromKeys, secretFromPhrase } from '../../../src/frame/keys/secret.ts'
import { btcSignerNetwork } from '../../../src/protocol/bitcoinNetworks.ts'
import { bitcoinAccountOf, p2wpkhAddress } from '../../../src/protocol/embedded/bitcoin.ts'
import {
  foreignInputMessage,
  missingAmountMessage,
  previewPsbt,
  signBitcoinRequest,
  signedPsbt,
  verifyBitcoinSignature,
} from '../../../src/protocol/embedded/bitcoinSigner.ts'
import { classifyRequest } from '../../../src/protocol/embedded/methods.ts'
import { signPlan } from '../../../src/protocol/embedded/signer.ts'
import type { SignRequest } from '../../../src/protocol/embedded/signing.ts'
import { kindNotAllowedMessage } from '../../../src/protocol/embedded/signingRules.ts'

const ABANDON =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'
const HARDHAT = 'test test test test test test test test test test test junk'
const MAINNET = 'bip122:000000000019d6689c085ae165831e93'
const REGTEST = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'
const REGTEST_NETWORK = { ...NETWORK, bech32: 'bcrt' }

const publicKeysOf = (phrase: string) =>
  withKeys(secretFromPhrase(phrase), (keys) => ({
    bitcoin: bytesToHex(secp256k1.getPublicKey(keys.bitcoin, true)),
    bitcoinTest: bytesToHex(secp256k1.getPublicKey(keys.bitcoinTest, true)),
  }))

const keyOf = (phrase: string) => withKeys(secretFromPhrase(phrase), (keys) => keys.bitcoinTest.slice())

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')

/** A PSBT spending `own` coins of `key` (and `foreign` coins of another key) to `outputs`. */
function psbtOf(
  ownKey: Uint8Array,
  {
    own = [100_000n],
    foreign = [] as bigint[],
    outputs = [
      {
        script: p2wpkh(secp256k1.getPublicKey(secp256k1.utils.randomPrivateKey(), true)).script,
        amount: 90_000n,
      },
    ],
    withAmounts = true,
  } = {},
) {
  const ownScript = p2wpkh(secp256k1.getPublicKey(ownKey, true)).script
  const otherScript = p2wpkh(secp256k1.getPublicKey(secp256k1.utils.randomPrivateKey(), true)).script
  const tx = new Transaction({ allowUnknownOutputs: true })
  const coins = [
    ...own.map((amount) => ({ script: ownScript, amount })),
    ...foreign.map((amount) => ({ script: otherScript, amount })),
  ]
  for (const [index, coin] of coins.entries())
    tx.addInput({
      txid: bytesToHex(new Uint8Array(32).fill(index + 1)),
      index: 0,
      ...(withAmounts ? { witnessUtxo: coin } : {}),
    })
  for (const output of outputs) tx.addOutput(output)
  return b64(tx.toPSBT())
}

describe('the embedded wallet Bitcoin account: BIP-84 keys', () => {
  it("behavior: the BIP-84 test vector: \"abandon … about\" at m/84'/0'/0'/0/0 is bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu", async () => {
    assert.equal(BITCOIN_PATH, "m/84'/0'/0'/0/0")
    assert.equal(BITCOIN_TEST_PATH, "m/84'/1'/0'/0/0")
    const keys = await publicKeysOf(ABANDON)
    // BIP-84, "Test vectors": account 0, first receiving address.
    assert.equal(keys.bitcoin, '0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c')
    assert.equal(bitcoinAccountOf(keys, MAINNET)?.address, 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu')
  })

  it("behavior: the test networks use coin 1: the dev mnemonic opens the regtest node's dev address 0 (bcoin derives the same)", async () => {
    const keys = await publicKeysOf(HARDHAT)
    const account = bitcoinAccountOf(keys, REGTEST)
    assert.equal(account?.address, 'bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw')
    assert.equal(account?.path, "m/84'/1'/0'/0/0")
    assert.equal(
      bitcoinAccountOf(keys, 'bip122:000000000933ea01ad0ee984209779ba')?.address.slice(0, 3),
      'tb1',
    )
    assert.equal(bitcoinAccountOf(keys, 'bip122:ffffffffffffffffffffffffffffffff'), undefined)
  })

  it('behavior: keys moved out of custody (no phrase) use their secp256k1 key on every Bitcoin network; withKeys zeroes the Bitcoin keys', async () => {
    const evm = secp256k1.utils.randomPrivateKey()
    const seen: Uint8Array[] = []
    await withKeys(secretFromKeys({ secp256k1: evm, ed25519: new Uint8Array(32).fill(7) }), (keys) => {
      assert.deepEqual(keys.bitcoin, evm)
      assert.deepEqual(keys.bitcoinTest, evm)
      seen.push(keys.bitcoin, keys.bitcoinTest)
    })
    for (const key of seen) assert.ok(key.every((byte) => byte === 0))
  })
})

describe('the embedded wallet Bitcoin account: PSBTs read and signed', () => {
  it('behavior: the preview lists every input (address, amount, whose) and output, and the fee is inputs - outputs', async () => {
    const key = await keyOf(HARDHAT)
    const publicKey = secp256k1.getPublicKey(key, true)
    const change = p2wpkh(publicKey).script
    const receiver = p2wpkh(secp256k1.getPublicKey(secp256k1.utils.randomPrivateKey(), true), REGTEST_NETWORK)
    const psbt = psbtOf(key, {
      own: [60_000n, 50_000n],
      foreign: [5_000n],
      outputs: [
        { script: receiver.script, amount: 100_000n },
        { script: change, amount: 14_000n },
      ],
    })
    const preview = previewPsbt(psbt, publicKey, { hrp: 'bcrt' })
    assert.deepEqual(
      preview.inputs.map((input) => [input.amount, input.own]),
      [
        ['60000', true],
        ['50000', true],
        ['5000', false],
      ],
    )
    assert.equal(preview.inputs[0]?.address, 'bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw')
    assert.deepEqual(preview.outputs[0], { address: receiver.address, amount: '100000', own: false })
    assert.deepEqual(preview.outputs[1], {
      address: 'bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw',
      amount: '14000',
      own: true,
    })
    assert.equal(preview.fee, '1000')
    assert.deepEqual(preview.ownInputs, [0, 1])
  })

  it("behavior: a test network's legacy outputs (P2PKH, P2SH) show as its own m…/n… and 2… addresses, not mainnet's", async () => {
    const key = await keyOf(HARDHAT)
    const publicKey = secp256k1.getPublicKey(key, true)
    const other = secp256k1.getPublicKey(secp256k1.utils.randomPrivateKey(), true)
    const legacy = p2pkh(other, btcSignerNetwork('regtest'))
    const wrapped = p2sh(p2wpkh(other), btcSignerNetwork('regtest'))
    const psbt = psbtOf(key, {
      outputs: [
        { script: legacy.script, amount: 40_000n },
        { script: wrapped.script, amount: 50_000n },
      ],
    })
    const [first, second] = previewPsbt(psbt, publicKey, { hrp: 'bcrt' }).outputs
    assert.match(first?.address ?? '', /^[mn]/)
    assert.equal(first?.address, legacy.address)
    assert.match(second?.address ?? '', /^2/)
    assert.equal(second?.address, wrapped.address)
  })

  it('attack: an output the preview cannot name (OP_RETURN, a bare script) is still listed, as its script, never dropped', async () => {
    const key = await keyOf(HARDHAT)
    const publicKey = secp256k1.getPublicKey(key, true)
    const data = Script.encode(['RETURN', new TextEncoder().encode('hidden?')])
    const bare = Script.encode(['OP_1'])
    const psbt = psbtOf(key, {
      outputs: [
        { script: data, amount: 0n },
        { script: bare, amount: 40_000n },
        { script: p2wpkh(publicKey).script, amount: 50_000n },
      ],
    })
    const preview = previewPsbt(psbt, publicKey, { hrp: 'bcrt' })
    assert.equal(preview.outputs.length, 3)
    assert.equal(preview.outputs[0]?.address, `script:${bytesToHex(data)}`)
    assert.equal(preview.outputs[1]?.address, `script:${bytesToHex(bare)}`)
    assert.equal(preview.outputs[1]?.amount, '40000')
    assert.equal(preview.fee, '10000')
  })

  it('error: a PSBT whose input lacks its amount (witnessUtxo) is refused, so no fee is hidden', async () => {
    const key = await keyOf(HARDHAT)
    const publicKey = secp256k1.getPublicKey(key, true)
    assert.throws(() => previewPsbt(psbtOf(key, { withAmounts: false }), publicKey, { hrp: 'bcrt' }), {
      shortMessage: missingAmountMessage,
    })
  })

  it('attack: a PSBT with an input of another address: asking that input signed is refused, and the own input alone is signed', async () => {
    const key = await keyOf(HARDHAT)
    const publicKey = secp256k1.getPublicKey(key, true)
    const psbt = psbtOf(key, { own: [100_000n], foreign: [70_000n] })
    const foreign: SignRequest = { kind: 'bip122-psbt', key: 'bitcoinTest', psbt, inputs: [0, 1] }
    assert.throws(
      () =>
        signPlan({
          method: 'signPsbt',
          plan: [foreign],
          keys: { bitcoinTest: key },
          ownAccounts: [],
          bitcoin: { signBitcoinRequest },
        }),
      {
        shortMessage: foreignInputMessage(1),
      },
    )
    const own = { kind: 'bip122-psbt' as const, key: 'bitcoinTest' as const, psbt, inputs: [0] }
    const [signature] = signPlan({
      method: 'signPsbt',
      plan: [own],
      keys: { bitcoinTest: key },
      ownAccounts: [],
      bitcoin: { signBitcoinRequest },
    })
    assert.ok(signature)
    assert.equal(verifyBitcoinSignature(own, signature, publicKey), true)
    const signed = signedPsbt(own, signature, publicKey)
    assert.ok(signed.getInput(0).finalScriptWitness, 'the own input is signed')
    assert.equal(signed.getInput(1).finalScriptWitness, undefined, "the other address's input is not")
    assert.equal(signed.getInput(1).partialSig, undefined)
    // Another key cannot sign the person's input at all; bytes that are not a signature, or the
    // signature of another PSBT, are not the person's.
    assert.throws(() => signBitcoinRequest(own, secp256k1.utils.randomPrivateKey()), {
      shortMessage: foreignInputMessage(0),
    })
    assert.equal(verifyBitcoinSignature(own, `0x${'11'.repeat(64)}`, publicKey), false)
    const changed = { ...own, psbt: psbtOf(key) }
    assert.equal(verifyBitcoinSignature(changed, signature, publicKey), false)
  })

  it('attack: a message request cannot sign a PSBT, nor a PSBT method a message', async () => {
    const key = await keyOf(HARDHAT)
    const psbt: SignRequest = { kind: 'bip122-psbt', key: 'bitcoinTest', psbt: psbtOf(key), inputs: [0] }
    const message: SignRequest = {
      kind: 'bip122-message',
      key: 'bitcoinTest',
      protocol: 'ecdsa',
      message: b64(new TextEncoder().encode('hi')),
    }
    const sign = (
      method: 'signMessage' | 'signPsbt' | 'sendTransfer' | 'personal_sign',
      request: SignRequest,
    ) =>
      signPlan({
        method,
        plan: [request],
        keys: { bitcoinTest: key, secp256k1: key },
        ownAccounts: [],
        bitcoin: { signBitcoinRequest },
      })
    assert.throws(() => sign('signMessage', psbt), {
      shortMessage: kindNotAllowedMessage('bip122-psbt', 'signMessage'),
    })
    assert.throws(() => sign('signPsbt', message), {
      shortMessage: kindNotAllowedMessage('bip122-message', 'signPsbt'),
    })
    assert.throws(() => sign('sendTransfer', message), {
      shortMessage: kindNotAllowedMessage('bip122-message', 'sendTransfer'),
    })
    assert.throws(() => sign('personal_sign', message), {
      shortMessage: kindNotAllowedMessage('bip122-message', 'personal_sign'),
    })
  })

  it("behavior: the bip122 methods are approvals on bip122 only; getAccountAddresses is the wallet's own there", () => {
    for (const method of ['signMessage', 'signPsbt', 'sendTransfer']) {
      assert.equal(classifyRequest('bip122', method), 'approval')
      assert.equal(classifyRequest('eip155', method), 'refused')
    }
    assert.equal(classifyRequest('bip122', 'getAccountAddresses'), 'wallet')
    assert.equal(classifyRequest('solana', 'getAccountAddresses'), 'refused')
    assert.equal(classifyRequest('bip122', 'personal_sign'), 'refused')
    assert.equal(classifyRequest('bip122', 'eth_accounts'), 'refused')
  })
})

describe('the embedded wallet Bitcoin account: messages', () => {
  it('behavior: BIP-322 "simple": the BIP\'s own test vector verifies (to_spend and to_sign built as the BIP says)', () => {
    // BIP-322, "Test vectors": the key L3VFeEujGtevx9w18HD1fhRbCH67Az2dpCymeRE1SoPK6XQtaN2k, P2WPKH.
    const key = WIF().decode('L3VFeEujGtevx9w18HD1fhRbCH67Az2dpCymeRE1SoPK6XQtaN2k')
    const publicKey = secp256k1.getPublicKey(key, true)
    assert.equal(p2wpkhAddress(publicKey, 'bc'), 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l')
    const request = (text: string) => ({
      kind: 'bip122-message' as const,
      key: 'bitcoin' as const,
      protocol: 'bip322' as const,
      message: b64(new TextEncoder().encode(text)),
    })
    const hex = (base64: string) => `0x${Buffer.from(base64, 'base64').toString('hex')}`
    const empty = hex(
      'AkcwRAIgM2gBAQqvZX15ZiysmKmQpDrG83avLIT492QBzLnQIxYCIBaTpOaD20qRlEylyxFSeEA2ba9YOixpX8z46TSDtS40ASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=',
    )
    const hello = hex(
      'AkcwRAIgZRfIY3p7/DoVTty6YZbWS71bc5Vct9p9Fia83eRmw2QCICK/ENGfwLtptFluMGs2KsqoNSk89pO7F29zJLUx9a/sASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=',
    )
    assert.equal(verifyBitcoinSignature(request(''), empty, publicKey), true)
    assert.equal(verifyBitcoinSignature(request('Hello World'), hello, publicKey), true)
    assert.equal(verifyBitcoinSignature(request('Hello World'), empty, publicKey), false)
    // Ours verifies the same way.
    const ours = signBitcoinRequest(request('Hello World'), key)
    assert.equal(verifyBitcoinSignature(request('Hello World'), ours, publicKey), true)
  })

  it('behavior: "Bitcoin Signed Message" (BIP-137): 65 bytes, header 39 + recovery for a P2WPKH address, the key recovered from it', async () => {
    const key = await keyOf(HARDHAT)
    const publicKey = secp256k1.getPublicKey(key, true)
    const request = {
      kind: 'bip122-message' as const,
      key: 'bitcoinTest' as const,
      protocol: 'ecdsa' as const,
      message: b64(new TextEncoder().encode('Sign in to shop.example')),
    }
    const signature = signBitcoinRequest(request, key)
    const bytes = hexToBytes(signature.slice(2))
    assert.equal(bytes.length, 65)
    assert.ok((bytes[0] ?? 0) >= 39 && (bytes[0] ?? 0) <= 40)
    assert.equal(verifyBitcoinSignature(request, signature, publicKey), true)
    assert.equal(
      verifyBitcoinSignature(
        { ...request, message: b64(new TextEncoder().encode('Sign in to evil.example')) },
        signature,
        publicKey,
      ),
      false,
    )
    assert.equal(OutScript.decode(p2wpkh(publicKey).script).type, 'wpkh')
  })
})
