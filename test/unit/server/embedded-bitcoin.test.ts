// The embedded wallet's Bitcoin methods against the local regtest node (bcoin: scripts and signatures checked).
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { p2wpkh, Transaction } from '@scure/btc-signer'
import { type BitcoinNode, startBitcoinNode } from '../../../server/dev/bitcoin/index.ts'
import { REGTEST_NETWORK } from '../../../server/dev/bitcoin/keys.ts'
import { createBitcoinNodes } from '../../../server/embedded/bitcoinNode.ts'
import {
  insufficientBalanceMessage,
  invalidBitcoinAddressMessage,
} from '../../../server/embedded/methods/bitcoinSendTransfer.ts'
import {
  answerWalletMethod,
  executeSignedRequest,
  type MethodContext,
  previewRequest,
} from '../../../server/embedded/methods/index.ts'
import { foreignSignatureMessage, planOf } from '../../../server/embedded/methods/plan.ts'
import { p2wpkhAddress } from '../../../src/protocol/embedded/bitcoin.ts'
import {
  foreignInputMessage,
  signBitcoinRequest,
  verifyBitcoinSignature,
} from '../../../src/protocol/embedded/bitcoinSigner.ts'
import type { ApprovalMethod } from '../../../src/protocol/embedded/index.ts'
import { signPlan } from '../../../src/protocol/embedded/signer.ts'
import { EVM, newPerson } from './embedded-methods-helpers.ts'

const REGTEST = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'

let node: BitcoinNode
before(async () => {
  node = await startBitcoinNode({ port: 0, blockIntervalMs: 0, devAddressCount: 2 })
})
after(async () => {
  await node?.stop()
})

/** The person (dev key 1: funded by the node at start) on regtest, with the node behind the service. */
function bitcoinPerson() {
  const key = node.devKeys[1]
  if (!key) throw new Error('no dev key')
  const nodes = createBitcoinNodes({ [REGTEST]: node.url })
  const ctx: MethodContext = {
    ...newPerson().contextOn(EVM),
    chainId: REGTEST,
    network: { caipNetworkId: REGTEST, name: 'Bitcoin Regtest', symbol: 'BTC', decimals: 8 },
    bitcoin: async () => ({
      network: { hrp: 'bcrt', key: 'bitcoinTest', path: "m/84'/1'/0'/0/1", name: 'Bitcoin Regtest' },
      publicKey: key.publicKey,
      address: key.address,
      path: key.path,
      node: nodes,
    }),
  }
  return { ctx, key }
}

/** As the frame does after Approve: the stored plan signed by the signer and its rules, then relayed. */
async function approve(ctx: MethodContext, method: ApprovalMethod, params: unknown, key: Uint8Array) {
  const { shown, prepared } = await previewRequest(ctx, method, params)
  const stored = JSON.parse(JSON.stringify({ params, prepared })) as { params: unknown; prepared: unknown }
  const signatures = signPlan({
    method,
    plan: planOf(stored.prepared),
    keys: { bitcoinTest: key },
    ownAccounts: [],
    bitcoin: { signBitcoinRequest },
  })
  const result = await executeSignedRequest(ctx, method, stored.params, stored.prepared, signatures)
  return { shown, prepared: stored.prepared, result }
}

const freshAddress = () =>
  p2wpkhAddress(secp256k1.getPublicKey(secp256k1.utils.randomPrivateKey(), true), 'bcrt')

describe('embedded wallet: Bitcoin (bip122) methods on the regtest node', () => {
  it('behavior: getAccountAddresses answers the BIP-84 native segwit address, its public key and path, for payments', async () => {
    const { ctx, key } = bitcoinPerson()
    const answer = await answerWalletMethod(ctx, 'getAccountAddresses', {
      account: `${REGTEST}:${key.address}`,
    })
    assert.deepEqual(answer, [
      {
        address: key.address,
        publicKey: Buffer.from(key.publicKey).toString('hex'),
        path: key.path,
        intention: 'payment',
      },
    ])
    assert.deepEqual(await answerWalletMethod(ctx, 'getAccountAddresses', { intentions: ['ordinal'] }), [])
    await assert.rejects(answerWalletMethod({ ...ctx, chainId: EVM }, 'getAccountAddresses', {}), {
      message: 'Requested RPC call is not allowed',
    })
  })

  it('behavior: sendTransfer of 0.01 BTC: the preview is read from the PSBT (recipient, change, fee), the node takes it, a block confirms it', async () => {
    const { ctx, key } = bitcoinPerson()
    const to = freshAddress()
    const { shown, result } = await approve(
      ctx,
      'sendTransfer',
      { account: `${REGTEST}:${key.address}`, recipientAddress: to, amount: '1000000' },
      key.privateKey,
    )
    const bitcoin = shown.bitcoin
    assert.ok(bitcoin)
    assert.deepEqual(bitcoin.outputs[0], { address: to, amount: '1000000', own: false })
    assert.equal(bitcoin.outputs[1]?.own, true, 'the change comes back to the account')
    assert.ok(bitcoin.inputs.every((input) => input.own && input.address === key.address))
    const paid = bitcoin.inputs.reduce((sum, input) => sum + BigInt(input.amount), 0n)
    const spent = bitcoin.outputs.reduce((sum, output) => sum + BigInt(output.amount), 0n)
    assert.equal(shown.fee, (paid - spent).toString())
    assert.ok(BigInt(shown.fee ?? '0') > 0n)
    const { txid } = result as { txid: string }
    assert.match(txid, /^[0-9a-f]{64}$/)
    const mempool = (await fetch(`${node.url}/mempool`).then((response) => response.json())) as string[]
    assert.ok(mempool.includes(txid), 'in the mempool')
    await node.mine(1)
    assert.deepEqual(await node.balance(to), {
      address: to,
      confirmed: 1_000_000,
      pending: 0,
      total: 1_000_000,
    })
  })

  it('error: sendTransfer to a bad address, an address of another network, or above the balance is refused with its message', async () => {
    const { ctx } = bitcoinPerson()
    const mainnet = p2wpkhAddress(secp256k1.getPublicKey(secp256k1.utils.randomPrivateKey(), true), 'bc')
    // Mainnet's legacy P2PKH and P2SH addresses are not regtest's (m…/n…, 2…).
    const mainnetLegacy = ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy']
    for (const recipientAddress of ['bcrt1qnotanaddress', mainnet, ...mainnetLegacy])
      await assert.rejects(previewRequest(ctx, 'sendTransfer', { recipientAddress, amount: '1000' }), {
        message: invalidBitcoinAddressMessage,
      })
    await assert.rejects(
      previewRequest(ctx, 'sendTransfer', { recipientAddress: freshAddress(), amount: '100000000000' }),
      { message: insufficientBalanceMessage },
    )
  })

  it("attack: signPsbt of a PSBT with another address's input: naming that input is refused; otherwise only the own input is signed, and the other signer completes it", async () => {
    const { ctx, key } = bitcoinPerson()
    const other = node.devKeys[0]
    assert.ok(other)
    const coinsOf = async (address: string) =>
      (await fetch(`${node.url}/coin/address/${address}`).then((response) => response.json())) as {
        hash: string
        index: number
        value: number
      }[]
    const [mine] = await coinsOf(key.address)
    const [theirs] = await coinsOf(other.address)
    assert.ok(mine && theirs)
    const tx = new Transaction()
    tx.addInput({
      txid: mine.hash,
      index: mine.index,
      witnessUtxo: { script: p2wpkh(key.publicKey).script, amount: BigInt(mine.value) },
    })
    tx.addInput({
      txid: theirs.hash,
      index: theirs.index,
      witnessUtxo: { script: p2wpkh(other.publicKey).script, amount: BigInt(theirs.value) },
    })
    const to = freshAddress()
    tx.addOutputAddress(to, BigInt(mine.value + theirs.value - 10_000), REGTEST_NETWORK)
    const psbt = Buffer.from(tx.toPSBT()).toString('base64')

    await assert.rejects(
      previewRequest(ctx, 'signPsbt', { psbt, signInputs: [{ address: other.address, index: 1 }] }),
      { message: foreignInputMessage(1) },
    )
    await assert.rejects(
      previewRequest(ctx, 'signPsbt', { psbt, signInputs: [{ address: key.address, index: 1 }] }),
      { message: foreignInputMessage(1) },
    )

    const { shown, result } = await approve(ctx, 'signPsbt', { psbt }, key.privateKey)
    assert.deepEqual(
      shown.bitcoin?.inputs.map((input) => [input.address, input.own]),
      [
        [key.address, true],
        [other.address, false],
      ],
    )
    assert.equal(shown.fee, '10000')
    const signed = Transaction.fromPSBT(Buffer.from((result as { psbt: string }).psbt, 'base64'))
    assert.ok(signed.getInput(0).finalScriptWitness, 'the own input is signed')
    assert.equal(signed.getInput(1).finalScriptWitness, undefined, "the other address's input is not")
    // The other signer signs its own input: the node accepts the whole transaction (our witness is valid).
    signed.signIdx(other.privateKey, 1)
    signed.finalizeIdx(1)
    const sent = await fetch(`${node.url}/broadcast`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tx: signed.hex }),
    })
    assert.equal(sent.status, 200, await sent.text())
  })

  it('behavior: signMessage answers a BIP-137 signature (and BIP-322 on request) of the exact text, for the account only', async () => {
    const { ctx, key } = bitcoinPerson()
    const { shown, result, prepared } = await approve(
      ctx,
      'signMessage',
      { address: key.address, message: 'Sign in to shop.example' },
      key.privateKey,
    )
    assert.deepEqual(shown.message, { text: 'Sign in to shop.example' })
    const answer = result as { address: string; signature: string; messageHash: string }
    assert.equal(answer.address, key.address)
    const [request] = planOf(prepared)
    assert.ok(request?.kind === 'bip122-message')
    const hex = `0x${Buffer.from(answer.signature, 'base64').toString('hex')}`
    assert.equal(verifyBitcoinSignature(request, hex, key.publicKey), true)
    const bip322 = await approve(ctx, 'signMessage', { message: 'hello', protocol: 'bip322' }, key.privateKey)
    const [bip322Request] = planOf(bip322.prepared)
    assert.ok(bip322Request?.kind === 'bip122-message')
    const witness = `0x${Buffer.from((bip322.result as { signature: string }).signature, 'base64').toString('hex')}`
    assert.equal(verifyBitcoinSignature(bip322Request, witness, key.publicKey), true)
    await assert.rejects(previewRequest(ctx, 'signMessage', { address: freshAddress(), message: 'x' }), {
      message: "This address is not this wallet's Bitcoin account",
    })
  })

  it('attack: a signature of another request (another message, another key) is refused at relay', async () => {
    const { ctx, key } = bitcoinPerson()
    const { prepared } = await previewRequest(ctx, 'signMessage', { message: 'pay nothing' })
    const other = await previewRequest(ctx, 'signMessage', { message: 'pay everything' })
    const sign = (plan: unknown, secret: Uint8Array) =>
      signPlan({
        method: 'signMessage',
        plan: planOf(plan),
        keys: { bitcoinTest: secret },
        ownAccounts: [],
        bitcoin: { signBitcoinRequest },
      })
    for (const signatures of [
      sign(other.prepared, key.privateKey),
      sign(prepared, secp256k1.utils.randomPrivateKey()),
    ])
      await assert.rejects(
        executeSignedRequest(ctx, 'signMessage', { message: 'pay nothing' }, prepared, signatures),
        { message: foreignSignatureMessage(0) },
      )
  })
})
