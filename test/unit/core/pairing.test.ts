import assert from 'node:assert/strict'
import { describe, it, mock } from 'node:test'
import { buildNamespaces, walletLink } from '../../../src/connectors/walletconnect/namespaces.ts'
import { canRetryPairing, isPairingExpired, pairingRefreshAt } from '../../../src/core/pairing/rules.ts'
import { PAIRING_LIFETIME_MS } from '../../../src/protocol/constants.ts'

describe('pairing rules (SPEC section 4)', () => {
  it('default: a pairing lasts 4 minutes and counts as expired when 10 s or less remain', () => {
    const createdAt = 1_000_000
    assert.equal(PAIRING_LIFETIME_MS, 240_000)
    assert.equal(isPairingExpired(createdAt, createdAt), false)
    assert.equal(isPairingExpired(createdAt, createdAt + 229_999), false)
    assert.equal(isPairingExpired(createdAt, createdAt + 230_000), true)
    assert.equal(isPairingExpired(createdAt, createdAt + 240_000), true)
    assert.equal(pairingRefreshAt(createdAt), createdAt + 230_000)
  })

  it('behavior: with a fake clock, the refresh timer fires exactly when the URI turns expired', () => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 })
    try {
      const createdAt = Date.now()
      const refreshed: number[] = []
      setTimeout(() => refreshed.push(Date.now()), pairingRefreshAt(createdAt) - createdAt)
      mock.timers.tick(229_999)
      assert.deepEqual(refreshed, [])
      assert.equal(isPairingExpired(createdAt, Date.now()), false)
      mock.timers.tick(1)
      assert.deepEqual(refreshed, [230_000])
      assert.equal(isPairingExpired(createdAt, Date.now()), true)
    } finally {
      mock.timers.reset()
    }
  })

  it('behavior: a retry is allowed 1 s after the previous attempt', () => {
    assert.equal(canRetryPairing(5_000, 5_999), false)
    assert.equal(canRetryPairing(5_000, 6_000), true)
  })
})

describe('WalletConnect namespaces and links', () => {
  it('default: eip155 and solana namespaces from the configured networks, with the rpcMap', () => {
    const namespaces = buildNamespaces(
      [
        'eip155:1',
        'eip155:31337',
        'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
        'bip122:000000000019d6689c085ae165831e93',
      ],
      (id) => `https://rpc.example/${id}`,
    )
    // bip122 has its own record too (test/unit/connectors/walletconnect-namespaces.test.ts).
    assert.deepEqual(Object.keys(namespaces), ['eip155', 'solana', 'bip122'])
    assert.deepEqual(namespaces.eip155?.chains, ['eip155:1', 'eip155:31337'])
    assert.deepEqual(namespaces.eip155?.methods, [
      'personal_sign',
      'eth_signTypedData_v4',
      'eth_sendTransaction',
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'wallet_sendCalls',
      'wallet_getCallsStatus',
      'wallet_getCapabilities',
      'wallet_showCallsStatus',
    ])
    assert.deepEqual(namespaces.eip155?.events, ['accountsChanged', 'chainChanged'])
    assert.equal(namespaces.eip155?.rpcMap?.['31337'], 'https://rpc.example/eip155:31337')
    assert.deepEqual(namespaces.solana?.methods, [
      'solana_signMessage',
      'solana_signTransaction',
      'solana_signAndSendTransaction',
    ])
  })

  it('args: deep links encode the URI the way each link type needs', () => {
    const uri = 'wc:7f6e@2?relay-protocol=irn&symKey=abc&expiryTimestamp=1'
    const encoded = encodeURIComponent(uri)
    assert.equal(walletLink('rainbow:', uri), `rainbow://wc?uri=${encoded}`)
    assert.equal(walletLink('trust://', uri), `trust://wc?uri=${encoded}`)
    assert.equal(walletLink('zerion://app', uri), `zerion://app/wc?uri=${encoded}`)
    assert.equal(walletLink('https://rnbwapp.com', uri), `https://rnbwapp.com/wc?uri=${encoded}`)
    assert.equal(
      walletLink('https://link.trustwallet.com/', uri),
      `https://link.trustwallet.com/wc?uri=${encoded}`,
    )
    assert.equal(walletLink('metamask:', uri)?.includes('&symKey'), false, 'the URI is percent-encoded')
  })

  it('error: a link with a scheme the modal must not open builds no link', () => {
    const uri = 'wc:7f6e@2?relay-protocol=irn&symKey=abc'
    for (const link of [
      'javascript:alert(document.cookie)//',
      'JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'http://wallet.example',
      'https://user@evil.example',
      '1inch:',
      ' rainbow:',
      'rainbow:\n',
    ]) {
      assert.equal(walletLink(link, uri), undefined, link)
    }
  })
})
