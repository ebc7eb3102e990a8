import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  buildNamespaces,
  namespaceRecord,
  WALLETCONNECT_NAMESPACES,
} from '../../../src/connectors/walletconnect/namespaces.ts'
import { checkResult } from '../../../src/connectors/walletconnect/results.ts'

const rpc = (id: string) => `https://rpc.example/${id}`
const POLKADOT = 'polkadot:91b171bb158e2d3848fa23a9f1c25182'
const REGTEST = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'

describe('WalletConnect proposal namespaces, one record per namespace', () => {
  it('default: bip122 asks for the Bitcoin methods and the address event, without an rpcMap', () => {
    const namespaces = buildNamespaces(['bip122:000000000019d6689c085ae165831e93', REGTEST], rpc)
    assert.deepEqual(namespaces, {
      bip122: {
        chains: ['bip122:000000000019d6689c085ae165831e93', REGTEST],
        methods: ['getAccountAddresses', 'signMessage', 'sendTransfer', 'signPsbt'],
        events: ['bip122_addressesChanged'],
      },
    })
  })

  it('default: polkadot and cosmos ask for their signing methods, beside eip155 with its rpcMap', () => {
    const namespaces = buildNamespaces(['eip155:1', POLKADOT, 'cosmos:cosmoshub-4', 'cosmos:osmosis-1'], rpc)
    assert.deepEqual(Object.keys(namespaces), ['eip155', 'polkadot', 'cosmos'])
    assert.deepEqual(namespaces.polkadot, {
      chains: [POLKADOT],
      methods: ['polkadot_signTransaction', 'polkadot_signMessage'],
      events: [],
    })
    assert.deepEqual(namespaces.cosmos, {
      chains: ['cosmos:cosmoshub-4', 'cosmos:osmosis-1'],
      methods: ['cosmos_getAccounts', 'cosmos_signDirect', 'cosmos_signAmino'],
      events: [],
    })
    assert.equal(namespaces.eip155?.rpcMap?.['1'], 'https://rpc.example/eip155:1')
  })

  it('edge: networks of a namespace without a record are left out of the proposal', () => {
    assert.deepEqual(buildNamespaces(['tron:0x2b6653dc', 'starknet:SN_MAIN', 'hedera:mainnet'], rpc), {})
    assert.deepEqual(Object.keys(buildNamespaces(['tron:0x2b6653dc', 'cosmos:cosmoshub-4'], rpc)), ['cosmos'])
    assert.equal(namespaceRecord('tron'), undefined)
    assert.equal(namespaceRecord('toString'), undefined, 'no prototype key passes for a namespace')
  })

  it('default: every namespace of SPEC 3 has exactly one record', () => {
    assert.deepEqual(Object.keys(WALLETCONNECT_NAMESPACES).sort(), [
      'bip122',
      'cosmos',
      'eip155',
      'polkadot',
      'solana',
    ])
  })
})

describe('WalletConnect answers of the bip122, polkadot and cosmos methods', () => {
  it('default: well-formed answers pass', () => {
    const accounts = [
      { algo: 'secp256k1', address: 'cosmos1abc', pubkey: 'AgSEjOuOr991QlHCORRmdE5ahVKeyBrmtgoYepCpQGOW' },
    ]
    assert.deepEqual(checkResult('cosmos_getAccounts', accounts), accounts)
    assert.deepEqual(checkResult('polkadot_signMessage', { signature: '0x00ab' }), { signature: '0x00ab' })
    assert.deepEqual(checkResult('signMessage', { address: 'bcrt1q', signature: 'J+Ab' }), {
      address: 'bcrt1q',
      signature: 'J+Ab',
    })
  })

  it('error: a malformed answer is an Invalid response naming the method', () => {
    for (const [method, value] of [
      ['cosmos_signDirect', { signature: 'abc' }],
      ['polkadot_signTransaction', { signature: 'not hex' }],
      ['getAccountAddresses', [{ publicKey: '02ab' }]],
      ['sendTransfer', { txid: 'short' }],
    ] as const) {
      assert.throws(
        () => checkResult(method, value),
        (error: Error & { shortMessage?: string; method?: string }) =>
          error.name === 'InvalidResponseError' &&
          error.shortMessage === 'Invalid response' &&
          error.method === method,
        method,
      )
    }
  })

  it('edge: answers of methods without a known shape pass as they are', () => {
    assert.equal(checkResult('personal_sign', '0xsig'), '0xsig')
  })
})
