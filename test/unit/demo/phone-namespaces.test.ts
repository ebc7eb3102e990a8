import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519'
import { secp256k1 } from '@noble/curves/secp256k1'
import { sha256 } from '@noble/hashes/sha2'
import { hexToBytes, utf8ToBytes } from '@noble/hashes/utils'
import { base58, base64 } from '@scure/base'
import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import { DEV_MNEMONIC } from '../../../demo/wallets/dev-account.ts'
import { bip122Signer, bitcoinMessageHash, REGTEST_CHAIN } from '../../../demo/wallets/phone/bip122.ts'
import { aminoSignBytes, cosmosSigner } from '../../../demo/wallets/phone/cosmos.ts'
import { buildNamespaces } from '../../../demo/wallets/phone/namespaces.ts'
import { compact, polkadotSigner } from '../../../demo/wallets/phone/polkadot.ts'
import type { NamespaceSigner } from '../../../demo/wallets/phone/signer.ts'

const seed = mnemonicToSeedSync(DEV_MNEMONIC)
const root = HDKey.fromMasterSeed(seed)
const [bip122, polkadot, cosmos] = [bip122Signer(root), polkadotSigner(seed), cosmosSigner(root)]
const signers = [bip122, polkadot, cosmos]
/** Runs a request the signer understands; fails the test on one it does not. */
const run = async (signer: NamespaceSigner, method: string, params: unknown, chain: string) => {
  const action = await signer.actionFor(method, params, chain, 1)
  if (!action) throw new Error(`${method} is not understood`)
  return (await action.run()) as never
}
const EVM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const POLKADOT = 'polkadot:91b171bb158e2d3848fa23a9f1c25182'

describe('Demo Phone Wallet: the bip122, polkadot and cosmos namespaces', () => {
  it('default: approves the requested chains it has accounts on, with the methods it serves', () => {
    const outcome = buildNamespaces(
      {
        requiredNamespaces: {},
        optionalNamespaces: {
          eip155: { chains: ['eip155:31337'], methods: ['personal_sign'], events: [] },
          polkadot: { chains: [POLKADOT], methods: ['polkadot_signMessage'], events: [] },
          cosmos: { chains: ['cosmos:cosmoshub-4'], methods: [], events: [] },
          bip122: {
            chains: [REGTEST_CHAIN, 'bip122:000000000019d6689c085ae165831e93'],
            methods: ['getAccountAddresses', 'signMessage', 'sendTransfer', 'signPsbt'],
            events: ['bip122_addressesChanged'],
          },
        },
      },
      EVM,
      signers,
    )
    assert.ok(outcome.ok)
    const { namespaces } = outcome
    assert.deepEqual(Object.keys(namespaces).sort(), ['bip122', 'cosmos', 'eip155', 'polkadot'])
    assert.deepEqual(namespaces.polkadot?.methods, ['polkadot_signMessage'])
    assert.match(
      namespaces.polkadot?.accounts[0] ?? '',
      new RegExp(`^${POLKADOT}:1[1-9A-HJ-NP-Za-km-z]{46,47}$`),
    )
    assert.match(namespaces.cosmos?.accounts[0] ?? '', /^cosmos:cosmoshub-4:cosmos1[02-9ac-hj-np-z]{38}$/)
    // Only regtest (the wallet has no mainnet account); the four methods, sendTransfer included.
    assert.deepEqual(namespaces.bip122?.chains, [REGTEST_CHAIN])
    assert.deepEqual(namespaces.bip122?.methods, [
      'getAccountAddresses',
      'signMessage',
      'signPsbt',
      'sendTransfer',
    ])
    assert.deepEqual(namespaces.bip122?.events, ['bip122_addressesChanged'])
  })

  it('error: a required namespace it does not serve fails; an optional one is left out', () => {
    const required = buildNamespaces(
      {
        requiredNamespaces: { tron: { chains: ['tron:0x2b6653dc'], methods: [], events: [] } },
        optionalNamespaces: {},
      },
      EVM,
      signers,
    )
    assert.equal(required.ok, false)
    const optional = buildNamespaces(
      {
        requiredNamespaces: {},
        optionalNamespaces: {
          cosmos: { chains: ['cosmos:unknown-1'], methods: [], events: [] },
          polkadot: { chains: [POLKADOT], methods: [], events: [] },
        },
      },
      EVM,
      signers,
    )
    assert.ok(optional.ok)
    assert.deepEqual(optional.leftOut, ['cosmos'])
    assert.deepEqual(Object.keys(optional.namespaces), ['polkadot'])
  })

  it('default: the signatures verify with the keys the answers carry', async () => {
    const [entry]: { publicKey: string }[] = await run(bip122, 'getAccountAddresses', {}, REGTEST_CHAIN)
    const signed: { signature: string } = await run(bip122, 'signMessage', { message: 'hi' }, REGTEST_CHAIN)
    const bytes = base64.decode(signed.signature)
    const recovered = secp256k1.Signature.fromCompact(bytes.slice(1))
      .addRecoveryBit((bytes[0] ?? 0) - 39)
      .recoverPublicKey(bitcoinMessageHash(utf8ToBytes('hi')))
      .toHex(true)
    assert.equal(recovered, entry?.publicKey)

    const address = polkadot.addressOn(POLKADOT) ?? ''
    const { signature }: { signature: string } = await run(
      polkadot,
      'polkadot_signMessage',
      { address, message: 'hi' },
      POLKADOT,
    )
    const key = base58.decode(address).slice(1, 33)
    assert.ok(ed25519.verify(hexToBytes(signature.slice(4)), utf8ToBytes('<Bytes>hi</Bytes>'), key))

    const [account]: { address: string; pubkey: string }[] = await run(
      cosmos,
      'cosmos_getAccounts',
      {},
      'cosmos:cosmoshub-4',
    )
    const doc = { chain_id: 'cosmoshub-4', memo: '<a&b>', msgs: [], fee: { gas: '1', amount: [] } }
    const amino: { signature: { signature: string } } = await run(
      cosmos,
      'cosmos_signAmino',
      { signerAddress: account?.address, signDoc: doc },
      'cosmos:cosmoshub-4',
    )
    assert.equal(
      new TextDecoder().decode(aminoSignBytes(doc)),
      '{"chain_id":"cosmoshub-4","fee":{"amount":[],"gas":"1"},"memo":"\\u003ca\\u0026b\\u003e","msgs":[]}',
    )
    assert.ok(
      secp256k1.verify(
        base64.decode(amino.signature.signature),
        sha256(aminoSignBytes(doc)),
        base64.decode(account?.pubkey ?? ''),
      ),
    )
  })

  it("error: a signer that is not the wallet's account is refused with 4100", () => {
    assert.throws(
      () =>
        cosmos.actionFor(
          'cosmos_signDirect',
          { signerAddress: 'cosmos1nobody', signDoc: {} },
          'cosmos:cosmoshub-4',
          6,
        ),
      (error: Error & { code?: number }) => error.code === 4100,
    )
  })

  it('error: sendTransfer refuses a bad address, amount, change address or memo before reading the node', async () => {
    const offline = bip122Signer(root, {
      fetch: async () => {
        throw new Error('the node is not asked')
      },
    })
    const recipient = 'bcrt1qafv44gvsx8mpcwmgm7lhye6xs64k045vvyly3r'
    const refused = async (params: Record<string, unknown>, message: RegExp) =>
      assert.rejects(
        async () => offline.actionFor('sendTransfer', params, REGTEST_CHAIN, 7),
        (error: Error & { code?: number }) => error.code === -32000 && message.test(error.message),
      )
    // A mainnet address, then text that is no address at all.
    await refused(
      { recipientAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', amount: '1000' },
      /not a Bitcoin regtest address/,
    )
    await refused({ recipientAddress: 'nobody', amount: '1000' }, /not a Bitcoin regtest address/)
    for (const amount of ['0.01', 'ten', '-5', '0', 1000, ''])
      await refused({ recipientAddress: recipient, amount }, /whole number of satoshis/)
    await refused(
      { recipientAddress: recipient, amount: '1000', changeAddress: recipient },
      /takes its change at/,
    )
    await refused({ recipientAddress: recipient, amount: '1000', memo: '6869' }, /memo/)
  })

  it('error: sendTransfer of more than the coins hold is refused with the balance, before any prompt', async () => {
    const own = bip122.addressOn(REGTEST_CHAIN) ?? ''
    const node = bip122Signer(root, {
      fetch: async (input) => {
        const url = String(input)
        if (url.includes(`/coin/address/${own}`))
          return Response.json([{ hash: 'ab'.repeat(32), index: 0, value: 5_000_000, height: 1 }])
        if (url.includes('/fee')) return Response.json({ rate: 5000 })
        return new Response('not found', { status: 404 })
      },
    })
    await assert.rejects(
      async () =>
        node.actionFor(
          'sendTransfer',
          { account: own, recipientAddress: own, amount: '5000000' },
          REGTEST_CHAIN,
          8,
        ),
      (error: Error & { code?: number }) =>
        error.code === -32000 && /Insufficient balance.*5000000 this account holds/.test(error.message),
    )
    // Within the balance: the prompt shows the payment, the change and the fee as they will be signed.
    const action = await node.actionFor(
      'sendTransfer',
      { account: own, recipientAddress: 'bcrt1qafv44gvsx8mpcwmgm7lhye6xs64k045vvyly3r', amount: '1000000' },
      REGTEST_CHAIN,
      9,
    )
    const labels = action?.summary.map((line) => `${line.label}: ${line.value}`) ?? []
    assert.ok(
      labels.includes('Pay: 0.01 BTC to bcrt1qafv44gvsx8mpcwmgm7lhye6xs64k045vvyly3r'),
      labels.join('; '),
    )
    assert.ok(
      labels.some((line) => line.startsWith(`Change: 0.0399`) && line.endsWith(own)),
      labels.join('; '),
    )
    assert.ok(
      labels.some((line) => /^Fee: 0\.00000\d+ BTC$/.test(line)),
      labels.join('; '),
    )
  })

  it('error: signPsbt refuses text that is not a PSBT', async () => {
    await assert.rejects(
      async () => bip122.actionFor('signPsbt', { psbt: 'bm90IGEgcHNidA==' }, REGTEST_CHAIN, 10),
      /not a valid PSBT/,
    )
  })

  it('edge: SCALE compact encoding at each mode boundary', () => {
    assert.deepEqual([...compact(63n)], [252])
    assert.deepEqual([...compact(64n)], [1, 1])
    assert.deepEqual([...compact(16384n)], [2, 0, 1, 0])
    assert.deepEqual([...compact(1n << 30n)], [3, 0, 0, 0, 64])
  })
})
