// Bitcoin without a node: the networks the modal knows, address validation per network and type, and the
// payment PSBT (built, then signed and finalized with the dev key to prove it spends what it says).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { p2tr, p2wpkh, Transaction } from '@scure/btc-signer'
import { devKey, REGTEST_NETWORK } from '../../../server/dev/bitcoin/keys.ts'
import { bitcoinAddressType } from '../../../src/chains/bip122/address.ts'
import { addressNetworks, isAddressOnNetwork, standardChainOf } from '../../../src/chains/bip122/chains.ts'
import {
  BITCOIN_NETWORK_IDS,
  bitcoinNetworkKind,
  bitcoinNetworks,
  resolveBitcoinNetwork,
} from '../../../src/chains/bip122/networks.ts'
import { buildPaymentPsbt, InsufficientFundsError } from '../../../src/chains/bip122/psbt.ts'
import { loadNetworks } from '../../../src/core/actions/loadNetworks.ts'
import { createConfig } from '../../../src/core/createConfig.ts'
import { NetworkSchema } from '../../../src/protocol/entities.ts'

const DEV0 = 'bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw'

describe('Bitcoin networks', () => {
  test('default: mainnet, testnet, signet and regtest by their CAIP-2 ids (the genesis hash, first 32 hex characters)', () => {
    assert.deepEqual(
      bitcoinNetworks.map((network) => [network.caipNetworkId, network.name]),
      [
        ['bip122:000000000019d6689c085ae165831e93', 'Bitcoin'],
        ['bip122:000000000933ea01ad0ee984209779ba', 'Bitcoin Testnet'],
        ['bip122:00000008819873e925422c1ff0f99f7c', 'Bitcoin Signet'],
        ['bip122:0f9188f13cb7b2c71f2a335e3a4fc328', 'Local Bitcoin'],
      ],
    )
    for (const network of bitcoinNetworks) {
      assert.equal(NetworkSchema.safeParse(network).success, true, network.name)
      assert.deepEqual(network.nativeCurrency, { name: 'Bitcoin', symbol: 'BTC', decimals: 8 })
      assert.equal(network.chainNamespace, 'bip122')
      assert.equal(network.testnet, network.caipNetworkId !== BITCOIN_NETWORK_IDS.mainnet)
    }
  })

  test('behavior: explorers are mempool.space, none for the local regtest node', () => {
    const explorer = (id: string) =>
      resolveBitcoinNetwork(id as `bip122:${string}`)?.blockExplorers?.default.url
    assert.equal(explorer(BITCOIN_NETWORK_IDS.mainnet), 'https://mempool.space')
    assert.equal(explorer(BITCOIN_NETWORK_IDS.testnet), 'https://mempool.space/testnet')
    assert.equal(explorer(BITCOIN_NETWORK_IDS.signet), 'https://mempool.space/signet')
    assert.equal(explorer(BITCOIN_NETWORK_IDS.regtest), undefined)
    assert.equal(bitcoinNetworkKind(BITCOIN_NETWORK_IDS.signet), 'signet')
    assert.equal(bitcoinNetworkKind('bip122:ffff'), undefined)
    assert.equal(standardChainOf(BITCOIN_NETWORK_IDS.regtest), 'bitcoin:regtest')
  })

  test('behavior: `networks` beside EVM and Solana resolves them; an unknown bip122 id is Network Not Found', async () => {
    const config = createConfig({
      networks: `eip155:1,solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp,${BITCOIN_NETWORK_IDS.mainnet},${BITCOIN_NETWORK_IDS.regtest},bip122:00000000000000000000000000000000`,
    })
    const errors: string[] = []
    config.events.on('error', (event) => {
      errors.push(event.message)
      return undefined
    })
    const networks = await loadNetworks(config)
    assert.deepEqual(
      networks.map((network) => network.name),
      ['Ethereum', 'Solana', 'Bitcoin', 'Local Bitcoin'],
    )
    assert.deepEqual(errors, ['Network Not Found'])
  })

  test('behavior: the page’s rpc-urls replace a Bitcoin network’s node URL', async () => {
    const config = createConfig({
      networks: BITCOIN_NETWORK_IDS.regtest,
      rpcUrls: { [BITCOIN_NETWORK_IDS.regtest]: ['http://127.0.0.1:18794'] },
    })
    const [network] = await loadNetworks(config)
    assert.deepEqual(network?.rpcUrls.default.http, ['http://127.0.0.1:18794'])
  })
})

describe('Bitcoin addresses', () => {
  test('default: each type on its network (BIP-173/350 vectors, the dev address)', () => {
    const cases: [string, Parameters<typeof bitcoinAddressType>[1], string][] = [
      ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'mainnet', 'p2wpkh'],
      ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'mainnet', 'p2tr'],
      ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'mainnet', 'p2sh'],
      ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'mainnet', 'p2pkh'],
      ['tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'testnet', 'p2wpkh'],
      ['tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'signet', 'p2wpkh'],
      ['2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc', 'testnet', 'p2sh'],
      ['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'regtest', 'p2pkh'],
      [DEV0, 'regtest', 'p2wpkh'],
      [p2tr(devKey(1).publicKey.slice(1), undefined, REGTEST_NETWORK).address ?? '', 'regtest', 'p2tr'],
    ]
    for (const [address, network, type] of cases)
      assert.equal(bitcoinAddressType(address, network), type, `${address} on ${network}`)
  })

  test('error: another network’s address, a checksum typo, junk', () => {
    assert.equal(bitcoinAddressType('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'regtest'), undefined)
    assert.equal(bitcoinAddressType(DEV0, 'mainnet'), undefined)
    assert.equal(bitcoinAddressType('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'testnet'), undefined)
    assert.equal(bitcoinAddressType(`${DEV0.slice(0, -1)}x`, 'regtest'), undefined)
    assert.equal(bitcoinAddressType('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'mainnet'), undefined)
    assert.equal(bitcoinAddressType('', 'mainnet'), undefined)
  })

  test('behavior: the prefix alone tells which networks an address can be of (the connectors’ filter)', () => {
    assert.deepEqual(addressNetworks(DEV0), ['regtest'])
    assert.deepEqual(addressNetworks('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'), ['testnet', 'signet'])
    assert.deepEqual(addressNetworks('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'), ['mainnet'])
    assert.equal(isAddressOnNetwork(DEV0, BITCOIN_NETWORK_IDS.regtest), true)
    assert.equal(isAddressOnNetwork(DEV0, BITCOIN_NETWORK_IDS.mainnet), false)
  })
})

describe('buildPaymentPsbt', () => {
  const key = devKey(0)
  const to = devKey(2).address
  const utxos = [
    { txid: 'aa'.repeat(32), vout: 0, value: 5_000_000_000n },
    { txid: 'bb'.repeat(32), vout: 1, value: 5_000_000_000n },
  ]

  test('default: pays the amount, returns the change to the sender, pays a fee at the rate', () => {
    const built = buildPaymentPsbt({
      network: 'regtest',
      from: key.address,
      to,
      amount: 1_000_000n,
      utxos,
      feeRate: 5n,
    })
    const tx = Transaction.fromPSBT(built.psbt)
    assert.deepEqual(built.inputs, [0])
    assert.equal(tx.inputsLength, 1)
    const outputs = Array.from({ length: tx.outputsLength }, (_, i) => tx.getOutput(i))
    const ours = p2wpkh(key.publicKey, REGTEST_NETWORK).script
    const pay = outputs.find((output) => output.amount === 1_000_000n)
    const change = outputs.find(
      (output) => output.script && Buffer.from(output.script).equals(Buffer.from(ours)),
    )
    assert.ok(pay, 'the payment output')
    assert.equal(change?.amount, 5_000_000_000n - 1_000_000n - built.fee)
    // Signed and finalized with the sender's key, the fee is the rate times the virtual size (a little over).
    for (const index of built.inputs) tx.signIdx(key.privateKey, index)
    tx.finalize()
    assert.ok(built.fee >= 5n * BigInt(tx.vsize), `fee ${built.fee} for ${tx.vsize} vbytes`)
    assert.ok(built.fee <= 5n * BigInt(tx.vsize + 2))
  })

  test('behavior: two coins when one is not enough', () => {
    const built = buildPaymentPsbt({
      network: 'regtest',
      from: key.address,
      to,
      amount: 6_000_000_000n,
      utxos,
      feeRate: 2n,
    })
    assert.deepEqual(built.inputs, [0, 1])
  })

  test('error: more than the coins hold is refused', () => {
    assert.throws(
      () =>
        buildPaymentPsbt({
          network: 'regtest',
          from: key.address,
          to,
          amount: 10_000_000_000n,
          utxos,
          feeRate: 2n,
        }),
      InsufficientFundsError,
    )
    assert.throws(
      () =>
        buildPaymentPsbt({ network: 'regtest', from: key.address, to, amount: 1n, utxos: [], feeRate: 2n }),
      InsufficientFundsError,
    )
  })
})
