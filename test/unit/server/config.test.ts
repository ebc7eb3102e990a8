// loadConfig: the defaults and every variable read.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { loadConfig } from '../../../server/config.ts'

describe('loadConfig', () => {
  test('default: production, loopback, port 8787, PGlite in .data/service, no dev project, the local chains (EVM and Solana)', () => {
    assert.deepEqual(loadConfig({}), {
      environment: 'production',
      host: '127.0.0.1',
      port: 8787,
      dataDir: '.data/service',
      databaseUrl: null,
      databaseSchema: 'public',
      databasePoolMax: 10,
      databaseTimeoutMs: 4000,
      devProjectId: null,
      devOrigins: [
        'http://127.0.0.1:5173',
        'http://localhost:5173',
        'http://127.0.0.1:4173',
        'http://localhost:4173',
      ],
      rpcUpstreams: {
        'eip155:31337': 'http://127.0.0.1:8545',
        'eip155:31338': 'http://127.0.0.1:8546',
        'solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9': 'http://127.0.0.1:8899',
      },
      bundlerUpstreams: {},
      rpcTimeoutMs: 10_000,
      rpcAllowMethods: [],
      tokenLists: {},
      historyNetworks: [],
      historyPollMs: 1000,
      historyUpstreams: {},
      historyUpstreamKey: null,
      priceSourceUrl: null,
      cacheMs: 5000,
      trustProxyHops: 0,
      rateLimits: {
        rpcPerSecond: 100,
        rpcEntriesPerSecond: 1000,
        analyticsEventsPerMinute: 600,
        signInPerMinute: 60,
        walletPerMinute: 20,
        dataPerSecond: 50,
      },
      analyticsRetentionDays: 90,
      logLevel: 'info',
      embedded: {
        framePort: 8788,
        framePublicUrl: 'http://localhost:8788',
        frameDir: 'dist-frame',
        smtpUrl: null,
        mailFrom: 'wallet-elements <wallet@localhost>',
        kek: null,
        kekPrevious: [],
        // Not in .data beside the database: one copy of .data must not hold both.
        kekFile: '.secrets/wallet-kek',
        mailsPerHour: 1000,
        social: { credentials: {}, apple: null, redirectBase: 'http://localhost:8788', providerUrl: null },
        farcaster: { relayUrl: 'https://relay.farcaster.xyz', rpcUrl: 'https://mainnet.optimism.io' },
        bitcoinNodes: {},
      },
      nameSuffix: 'wallet.test',
      nameGatewayKey: null,
      onramp: { providerUrl: null, apiKey: null, webhookSecret: null, senderAddresses: {} },
      paymasterSignerKey: null,
      paymasterAddresses: {},
      paymasterPublicUrl: 'http://127.0.0.1:8787/paymaster/v1',
    })
  })

  test('args: the paymaster signer key and contracts; problems never quote the key', () => {
    const config = loadConfig({
      PAYMASTER_SIGNER_KEY: ` 0x${'cd'.repeat(32)} `,
      PAYMASTER_ADDRESSES: `eip155:31337=0x${'a'.repeat(40)}, eip155:8453=0x${'b'.repeat(40)}`,
    })
    assert.equal(config.paymasterSignerKey, `0x${'cd'.repeat(32)}`)
    assert.equal(
      loadConfig({ PAYMASTER_PUBLIC_URL: 'https://api.example.com/paymaster/v1' }).paymasterPublicUrl,
      'https://api.example.com/paymaster/v1',
    )
    assert.deepEqual(config.paymasterAddresses, {
      'eip155:31337': `0x${'a'.repeat(40)}`,
      'eip155:8453': `0x${'b'.repeat(40)}`,
    })
    assert.throws(
      () => loadConfig({ PAYMASTER_SIGNER_KEY: `0x${'cd'.repeat(31)}`, PAYMASTER_ADDRESSES: 'solana:x=0x1' }),
      (error: Error) =>
        /PAYMASTER_SIGNER_KEY must be 0x and 64 hex digits/.test(error.message) &&
        /PAYMASTER_ADDRESSES entry 1: expected eip155:CHAIN-ID=0x/.test(error.message) &&
        !error.message.includes('cd'.repeat(31)),
    )
  })

  test('args: the name suffix and the on-ramp provider, key, webhook secret and sender addresses', () => {
    const config = loadConfig({
      NAME_SUFFIX: 'Shop.Example',
      NAME_GATEWAY_KEY: ` 0x${'ab'.repeat(32)} `,
      ONRAMP_PROVIDER_URL: 'https://onramp.example.com/api',
      ONRAMP_API_KEY: 'key',
      ONRAMP_WEBHOOK_SECRET: 's'.repeat(32),
      ONRAMP_SENDER_ADDRESSES: `eip155:1=0x${'a'.repeat(40)}|0x${'b'.repeat(40)}, eip155:8453=0x${'c'.repeat(40)}`,
    })
    assert.equal(config.nameSuffix, 'shop.example')
    assert.equal(config.nameGatewayKey, `0x${'ab'.repeat(32)}`)
    assert.deepEqual(config.onramp, {
      providerUrl: 'https://onramp.example.com/api',
      apiKey: 'key',
      webhookSecret: 's'.repeat(32),
      senderAddresses: {
        'eip155:1': [`0x${'a'.repeat(40)}`, `0x${'b'.repeat(40)}`],
        'eip155:8453': [`0x${'c'.repeat(40)}`],
      },
    })
  })

  test('args: Farcaster: the relay and the chain-10 RPC, real ones by default; a bad URL is not quoted', () => {
    const farcaster = loadConfig({
      FARCASTER_RELAY_URL: 'http://127.0.0.1:8792/',
      FARCASTER_RPC_URL: 'http://127.0.0.1:8791',
    }).embedded.farcaster
    assert.deepEqual(farcaster, { relayUrl: 'http://127.0.0.1:8792', rpcUrl: 'http://127.0.0.1:8791' })
    assert.throws(
      () => loadConfig({ FARCASTER_RPC_URL: 'ftp://secret-key@rpc.example' }),
      (error: Error) =>
        /FARCASTER_RPC_URL must be an http\(s\) URL/.test(error.message) &&
        !error.message.includes('secret-key'),
    )
  })

  test('args: social providers: credentials in pairs, Apple from its key, the redirect base and the stand-in', () => {
    const social = loadConfig({
      SOCIAL_GOOGLE_CLIENT_ID: 'g-id',
      SOCIAL_GOOGLE_CLIENT_SECRET: 'g-secret',
      SOCIAL_APPLE_CLIENT_ID: 'com.shop.web',
      SOCIAL_APPLE_TEAM_ID: 'TEAM',
      SOCIAL_APPLE_KEY_ID: 'KEY',
      SOCIAL_APPLE_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\\nabc\\n-----END PRIVATE KEY-----',
      SOCIAL_REDIRECT_BASE: 'https://login.shop.example/',
      SOCIAL_PROVIDER_URL: 'http://127.0.0.1:8790',
    }).embedded.social
    assert.deepEqual(social.credentials, {
      google: { clientId: 'g-id', clientSecret: 'g-secret' },
      apple: { clientId: 'com.shop.web', clientSecret: '' },
    })
    assert.deepEqual(social.apple, {
      teamId: 'TEAM',
      keyId: 'KEY',
      privateKey: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----',
    })
    assert.equal(social.redirectBase, 'https://login.shop.example')
    assert.equal(social.providerUrl, 'http://127.0.0.1:8790')
    assert.throws(
      () => loadConfig({ SOCIAL_GITHUB_CLIENT_ID: 'only-the-id' }),
      /SOCIAL_GITHUB_CLIENT_ID and SOCIAL_GITHUB_CLIENT_SECRET must be set together/,
    )
    assert.throws(
      () => loadConfig({ SOCIAL_APPLE_CLIENT_ID: 'x' }),
      /SOCIAL_APPLE_CLIENT_ID needs SOCIAL_APPLE_TEAM_ID/,
    )
    assert.throws(
      () => loadConfig({ SOCIAL_REDIRECT_BASE: 'ftp://x' }),
      /SOCIAL_REDIRECT_BASE must be an http/,
    )
  })

  test('args: the embedded wallet: frame port and public URL, SMTP, KEKs', () => {
    const kek = Buffer.alloc(32, 7).toString('base64')
    const config = loadConfig({
      NODE_ENV: 'production',
      FRAME_PORT: '9788',
      FRAME_PUBLIC_URL: 'https://wallet.example.com/',
      FRAME_DIR: '/srv/frame',
      SMTP_URL: 'smtps://user:pass@mail.example.com',
      MAIL_FROM: 'Wallet <wallet@example.com>',
      WALLET_KEK: kek,
      WALLET_KEK_PREVIOUS: 'a, b',
      WALLET_KEK_FILE: '/secrets/kek',
      WALLET_MAILS_PER_HOUR: '250',
    })
    assert.deepEqual(config.embedded, {
      framePort: 9788,
      framePublicUrl: 'https://wallet.example.com',
      frameDir: '/srv/frame',
      smtpUrl: 'smtps://user:pass@mail.example.com',
      mailFrom: 'Wallet <wallet@example.com>',
      kek,
      kekPrevious: ['a', 'b'],
      kekFile: '/secrets/kek',
      mailsPerHour: 250,
      social: { credentials: {}, apple: null, redirectBase: 'https://wallet.example.com', providerUrl: null },
      farcaster: { relayUrl: 'https://relay.farcaster.xyz', rpcUrl: 'https://mainnet.optimism.io' },
      bitcoinNodes: {},
    })
    assert.equal(loadConfig({ FRAME_PORT: 'off' }).embedded.framePort, null)
    assert.throws(
      () => loadConfig({ FRAME_PUBLIC_URL: 'https://wallet.example.com/frame' }),
      /FRAME_PUBLIC_URL must be an origin/,
    )
    assert.throws(() => loadConfig({ SMTP_URL: 'http://mail' }), /SMTP_URL must be an smtp/)
    assert.throws(() => loadConfig({ MAIL_FROM: 'a\nBcc: x@y' }), /MAIL_FROM must be one line/)
  })

  test("args: the frame's default URL names localhost on a loopback address (WebAuthn refuses an IP), else the host", () => {
    const frameUrl = (HOST: string) => loadConfig({ HOST }).embedded.framePublicUrl
    assert.equal(frameUrl('127.0.0.1'), 'http://localhost:8788')
    assert.equal(frameUrl('::1'), 'http://localhost:8788')
    assert.equal(frameUrl('0.0.0.0'), 'http://0.0.0.0:8788')
    assert.equal(frameUrl('fd00::1'), 'http://[fd00::1]:8788')
    assert.equal(loadConfig({ FRAME_PORT: '9000' }).embedded.framePublicUrl, 'http://localhost:9000')
  })

  test('args: every variable is read', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '0',
      DATA_DIR: 'memory://',
      DATABASE_URL: 'postgresql://wallet:secret@127.0.0.1:5432/wallet',
      DATABASE_SCHEMA: 'wallet_elements',
      DATABASE_POOL_MAX: '20',
      DEV_PROJECT_ID: 'my_dev',
      DEV_ORIGINS: ' https://*.example.com , http://localhost:3000 ',
      RPC_UPSTREAMS: 'eip155:1=https://rpc.example.com/key, solana:mainnet=https://sol.example.com',
      BUNDLER_UPSTREAMS: 'eip155:1=https://bundler.example.com/key',
      RPC_TIMEOUT_MS: '2500',
      CACHE_MS: '0',
      TRUST_PROXY_HOPS: '1',
      LOG_LEVEL: 'DEBUG',
      HISTORY_NETWORKS: 'eip155:1',
      HISTORY_POLL_MS: '500',
    })
    assert.deepEqual(config.historyNetworks, ['eip155:1'])
    assert.equal(config.historyPollMs, 500)
    assert.equal(config.host, '0.0.0.0')
    assert.equal(config.port, 0)
    assert.equal(config.dataDir, 'memory://')
    assert.equal(config.databaseUrl, 'postgresql://wallet:secret@127.0.0.1:5432/wallet')
    assert.equal(config.databaseSchema, 'wallet_elements')
    assert.equal(config.databasePoolMax, 20)
    assert.equal(config.devProjectId, 'my_dev')
    assert.deepEqual(config.devOrigins, ['https://*.example.com', 'http://localhost:3000'])
    assert.deepEqual(config.rpcUpstreams, {
      'eip155:1': 'https://rpc.example.com/key',
      'solana:mainnet': 'https://sol.example.com',
    })
    assert.deepEqual(config.bundlerUpstreams, { 'eip155:1': 'https://bundler.example.com/key' })
    assert.equal(config.rpcTimeoutMs, 2500)
    assert.equal(config.cacheMs, 0)
    assert.equal(config.trustProxyHops, 1)
    assert.equal(config.logLevel, 'debug')
  })
})
