import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { WalletUserSchema } from '../../../src/protocol/embedded/frame.ts'
import {
  AccountSchema,
  CatalogueEntrySchema,
  NetworkSchema,
  OnrampPurchaseCurrencySchema,
  PaymentCurrencySchema,
  SendFormStateSchema,
  SessionSchema,
  SignInMessageSchema,
  TokenBalanceSchema,
  TransactionSchema,
  validate,
  WalletSessionNamespaceSchema,
} from '../../../src/protocol/index.ts'

const address = '0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb'

const network = {
  id: 1,
  name: 'Ethereum',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['https://eth.example'] } },
  chainNamespace: 'eip155',
  caipNetworkId: 'eip155:1',
}

const signIn = {
  accountAddress: address,
  chainId: 'eip155:1',
  domain: 'app.example',
  uri: 'https://app.example',
  version: '1',
  nonce: 'n0nce123',
}

describe('NetworkSchema', () => {
  it('default: the minimal network', () =>
    assert.deepEqual(validate(NetworkSchema, network), { ok: true, value: network }))

  it('args: optional explorer, testnet, assets and extra rpc urls are kept', () => {
    const full = {
      ...network,
      id: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      chainNamespace: 'solana',
      caipNetworkId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      rpcUrls: { default: { http: ['https://sol.example'] }, local: { http: ['http://127.0.0.1:8899'] } },
      blockExplorers: { default: { name: 'Explorer', url: 'https://explorer.example' } },
      testnet: false,
      assets: { imageId: 'sol', imageUrl: 'https://img.example/sol.png' },
    }
    assert.deepEqual(validate(NetworkSchema, full), { ok: true, value: full })
  })

  it('error: missing rpc url list', () =>
    assert.deepEqual(validate(NetworkSchema, { ...network, rpcUrls: { default: {} } }), {
      ok: false,
      message: 'Required',
      path: ['rpcUrls', 'default', 'http'],
    }))

  it('error: bad CAIP-2 id', () =>
    assert.equal(
      (validate(NetworkSchema, { ...network, caipNetworkId: 'eip155' }) as { message: string }).message,
      'Invalid CAIP-2 network id',
    ))

  it('error: unknown namespace', () =>
    assert.equal(
      (validate(NetworkSchema, { ...network, chainNamespace: 'tron' }) as { message: string }).message,
      'Expected "eip155" | "solana" | "polkadot" | "bip122" | "cosmos", received "tron"',
    ))

  it('error: negative decimals', () =>
    assert.equal(
      (
        validate(NetworkSchema, {
          ...network,
          nativeCurrency: { ...network.nativeCurrency, decimals: -1 },
        }) as {
          message: string
        }
      ).message,
      'Must be at least 0',
    ))
})

describe('AccountSchema', () => {
  it('default: eoa and smart accounts', () => {
    assert.equal(validate(AccountSchema, { namespace: 'eip155', address, type: 'eoa' }).ok, true)
    assert.equal(
      validate(AccountSchema, {
        namespace: 'solana',
        address: 'x',
        type: 'smartAccount',
        publicKey: 'pk',
        path: "m/44'",
      }).ok,
      true,
    )
  })

  it('error: unknown type', () =>
    assert.deepEqual(validate(AccountSchema, { namespace: 'eip155', address, type: 'multisig' }), {
      ok: false,
      message: 'Expected "eoa" | "smartAccount", received "multisig"',
      path: ['type'],
    }))
})

describe('WalletUserSchema', () => {
  const user = {
    address,
    chainId: 1,
    accounts: [{ address, type: 'eoa' }],
    preferredAccountType: 'eoa',
    smartAccountDeployed: false,
  }

  it('default: e-mail optional and nullable', () => {
    for (const email of [undefined, null, 'ada@example.com'])
      assert.equal(validate(WalletUserSchema, { ...user, email }).ok, true)
  })

  it('error: smartAccountDeployed is required', () =>
    assert.deepEqual(validate(WalletUserSchema, { ...user, smartAccountDeployed: undefined }), {
      ok: false,
      message: 'Required',
      path: ['smartAccountDeployed'],
    }))
})

describe('CatalogueEntrySchema', () => {
  it('default: links and rdns may be null or absent', () => {
    const entry = {
      id: 'demo',
      name: 'Demo Wallet',
      image_id: 'demo-image',
      chains: ['eip155:1', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
      mobile_link: null,
      desktop_link: 'demo://',
      rdns: 'dev.wallet-elements.demo',
    }
    assert.deepEqual(validate(CatalogueEntrySchema, entry), { ok: true, value: entry })
  })

  it('error: bad chain id', () =>
    assert.deepEqual(validate(CatalogueEntrySchema, { id: 'a', name: 'A', chains: ['eip155'] }), {
      ok: false,
      message: 'Invalid CAIP-2 network id',
      path: ['chains', 0],
    }))
})

describe('TokenBalanceSchema', () => {
  const balance = {
    address: 'eip155:1:0xA0b8',
    symbol: 'USDC',
    quantity: { numeric: '12.5', decimals: 6 },
    price: 1,
  }

  it('default: a balance', () =>
    assert.deepEqual(validate(TokenBalanceSchema, balance), { ok: true, value: balance }))

  it('error: quantity must be a decimal string', () =>
    assert.deepEqual(
      validate(TokenBalanceSchema, { ...balance, quantity: { numeric: '1e6', decimals: 6 } }),
      {
        ok: false,
        message: 'Invalid decimal amount',
        path: ['quantity', 'numeric'],
      },
    ))

  it('error: decimals must be an integer', () =>
    assert.deepEqual(
      validate(TokenBalanceSchema, { ...balance, quantity: { numeric: '1', decimals: '6' } }),
      {
        ok: false,
        message: 'Expected number, received string',
        path: ['quantity', 'decimals'],
      },
    ))
})

describe('SendFormStateSchema', () => {
  it('default: an empty form', () => assert.equal(validate(SendFormStateSchema, { loading: false }).ok, true))
  it('error: loading flag required', () =>
    assert.deepEqual(validate(SendFormStateSchema, {}), {
      ok: false,
      message: 'Required',
      path: ['loading'],
    }))
})

describe('TransactionSchema', () => {
  const transaction = {
    id: '0xabc',
    metadata: { minedAt: '2024-05-01T10:00:00Z', chain: 'eip155:1', status: 'confirmed' },
    transfers: [{ direction: 'in', nft_info: { flags: { is_spam: true } } }, { direction: 'out' }],
  }

  it('default: a transaction with a spam flag', () =>
    assert.deepEqual(validate(TransactionSchema, transaction), { ok: true, value: transaction }))

  it('error: unknown direction', () =>
    assert.deepEqual(validate(TransactionSchema, { ...transaction, transfers: [{ direction: 'up' }] }), {
      ok: false,
      message: 'Expected "in" | "out" | "self", received "up"',
      path: ['transfers', 0, 'direction'],
    }))
})

describe('on-ramp currencies', () => {
  it('default: purchase and payment currencies', () => {
    assert.equal(
      validate(OnrampPurchaseCurrencySchema, {
        id: 'usdc',
        name: 'USD Coin',
        symbol: 'USDC',
        networks: [{ name: 'base', display_name: 'Base', chain_id: '8453', contract_address: '0x8335' }],
      }).ok,
      true,
    )
    assert.equal(
      validate(PaymentCurrencySchema, {
        id: 'USD',
        payment_method_limits: [{ id: 'card', min: '10.00', max: '7500.00' }],
      }).ok,
      true,
    )
  })

  it('error: limits are decimal strings', () =>
    assert.deepEqual(
      validate(PaymentCurrencySchema, {
        id: 'USD',
        payment_method_limits: [{ id: 'card', min: 10, max: '1' }],
      }),
      { ok: false, message: 'Expected string, received number', path: ['payment_method_limits', 0, 'min'] },
    ))
})

describe('SignInMessageSchema and SessionSchema', () => {
  it('default: message and session', () => {
    const data = {
      ...signIn,
      statement: 'Sign in',
      resources: ['https://app.example/tos'],
      issuedAt: '2024-05-01',
    }
    assert.equal(validate(SignInMessageSchema, data).ok, true)
    const session = {
      data,
      message: 'app.example wants you to sign in',
      signature: '0x01',
      cacao: { h: { t: 'caip122' } },
    }
    assert.deepEqual(validate(SessionSchema, session), { ok: true, value: session })
  })

  it('error: chain id must be CAIP-2', () =>
    assert.deepEqual(validate(SignInMessageSchema, { ...signIn, chainId: '1' }), {
      ok: false,
      message: 'Invalid CAIP-2 network id',
      path: ['chainId'],
    }))

  it('error: nonce required', () =>
    assert.deepEqual(validate(SignInMessageSchema, { ...signIn, nonce: undefined }), {
      ok: false,
      message: 'Required',
      path: ['nonce'],
    }))
})

describe('WalletSessionNamespaceSchema', () => {
  it('default: with and without rpcMap', () => {
    const namespace = {
      methods: ['personal_sign'],
      events: ['accountsChanged', 'chainChanged'],
      chains: ['eip155:1'],
    }
    assert.equal(validate(WalletSessionNamespaceSchema, namespace).ok, true)
    assert.equal(
      validate(WalletSessionNamespaceSchema, { ...namespace, rpcMap: { 1: 'https://eth.example' } }).ok,
      true,
    )
  })

  it('error: chains must be CAIP-2', () =>
    assert.deepEqual(validate(WalletSessionNamespaceSchema, { methods: [], events: [], chains: ['1'] }), {
      ok: false,
      message: 'Invalid CAIP-2 network id',
      path: ['chains', 0],
    }))
})
