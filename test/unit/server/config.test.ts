import assert from 'node:assert/strict'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { ConfigError, loadConfig, type ServiceEnv } from '../../../server/config.ts'

function problems(env: ServiceEnv): string[] {
  try {
    loadConfig(env)
  } catch (error) {
    assert.ok(error instanceof ConfigError)
    assert.match(error.message, /^Invalid service configuration:/)
    return [...error.problems]
  }
  assert.fail('expected a ConfigError')
}

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
        framePublicUrl: 'http://127.0.0.1:8788',
        frameDir: 'dist-frame',
        smtpUrl: null,
        mailFrom: 'wallet-elements <wallet@localhost>',
        kek: null,
        kekPrevious: [],
        // Not in .data beside the database (issue 23 item 7).
        kekFile: '.secrets/wallet-kek',
        mailsPerHour: 1000,
        social: { credentials: {}, apple: null, redirectBase: 'http://127.0.0.1:8788', providerUrl: null },
        farcaster: { relayUrl: 'https://relay.farcaster.xyz', rpcUrl: 'https://mainnet.optimism.io' },
      },
      nameSuffix: 'wallet.test',
      nameGatewayKey: null,
      onramp: { providerUrl: null, apiKey: null, webhookSecret: null, senderAddresses: {} },
    })
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
    })
    assert.equal(loadConfig({ FRAME_PORT: 'off' }).embedded.framePort, null)
    assert.throws(
      () => loadConfig({ FRAME_PUBLIC_URL: 'https://wallet.example.com/frame' }),
      /FRAME_PUBLIC_URL must be an origin/,
    )
    assert.throws(() => loadConfig({ SMTP_URL: 'http://mail' }), /SMTP_URL must be an smtp/)
    assert.throws(() => loadConfig({ MAIL_FROM: 'a\nBcc: x@y' }), /MAIL_FROM must be one line/)
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

  test('behavior: the dev project exists only in development (npm start, tests) unless DEV_PROJECT_ID names one', () => {
    for (const NODE_ENV of ['development', 'test', ' Development ']) {
      const config = loadConfig({ NODE_ENV })
      assert.equal(config.environment, 'development', NODE_ENV)
      assert.equal(config.devProjectId, 'dev-project')
    }
    for (const NODE_ENV of [undefined, 'production', 'staging']) {
      const config = loadConfig({ NODE_ENV })
      assert.equal(config.environment, 'production', NODE_ENV)
      assert.equal(config.devProjectId, null)
    }
    assert.equal(loadConfig({ NODE_ENV: 'production', DEV_PROJECT_ID: 'demo' }).devProjectId, 'demo')
    assert.equal(loadConfig({ NODE_ENV: 'development', DEV_PROJECT_ID: '' }).devProjectId, null)
  })

  test('behavior: empty DEV_PROJECT_ID turns the dev project off; empty RPC_UPSTREAMS proxies nothing', () => {
    const config = loadConfig({ DEV_PROJECT_ID: '', RPC_UPSTREAMS: '' })
    assert.equal(config.devProjectId, null)
    assert.deepEqual(config.rpcUpstreams, {})
  })

  test('behavior: blank values take the defaults', () => {
    assert.equal(loadConfig({ PORT: ' ', HOST: '', LOG_LEVEL: '' }).port, 8787)
  })

  const bad: [ServiceEnv, RegExp][] = [
    [{ PORT: 'eighty' }, /^PORT must be a whole number from 0 to 65535$/],
    [{ PORT: '70000' }, /^PORT must be at most 65535$/],
    [{ HOST: 'local host' }, /^HOST must be a host name or IP address/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must be a PostgreSQL URL/],
    [{ DATABASE_SCHEMA: 'Drop Table' }, /^DATABASE_SCHEMA must be a lower-case SQL identifier/],
    [{ DEV_PROJECT_ID: 'my project' }, /^DEV_PROJECT_ID must use letters, digits/],
    [{ DEV_ORIGINS: 'http://localhost:5173,localhost/path' }, /^DEV_ORIGINS has "localhost\/path"/],
    [{ RPC_UPSTREAMS: 'eip155:1' }, /^RPC_UPSTREAMS entry 1: expected CAIP-2-id=URL/],
    [{ RPC_UPSTREAMS: 'eip155:1=http://a,mainnet=http://x' }, /^RPC_UPSTREAMS entry 2: expected/],
    [{ RPC_UPSTREAMS: 'eip155:1=ftp://x' }, /must be http:\/\/ or https:\/\//],
    [
      { BUNDLER_UPSTREAMS: 'eip155:1' },
      /^BUNDLER_UPSTREAMS entry 1: expected CAIP-2-id=URL such as eip155:31337=http:\/\/127.0.0.1:4337$/,
    ],
    [
      { BUNDLER_UPSTREAMS: 'eip155:1=ftp://x' },
      /^BUNDLER_UPSTREAMS entry 1 \(eip155:1\): the URL after = must be http/,
    ],
    [{ RPC_TIMEOUT_MS: '0' }, /^RPC_TIMEOUT_MS must be at least 1$/],
    [{ RPC_TIMEOUT_MS: '-5' }, /^RPC_TIMEOUT_MS must be a whole number/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent$/],
    [{ PRICE_SOURCE_URL: 'file:///etc/passwd' }, /^PRICE_SOURCE_URL must be an http:\/\/ or https:\/\/ URL$/],
    [{ RATE_LIMIT_DATA: 'many' }, /^RATE_LIMIT_DATA must be a whole number/],
    [{ NAME_SUFFIX: 'wallet test' }, /^NAME_SUFFIX must be a domain such as wallet.test$/],
    [
      { NAME_GATEWAY_KEY: '0x1234' },
      /^NAME_GATEWAY_KEY must be 0x and 64 hex digits \(a secp256k1 private key\)$/,
    ],
    [
      { ONRAMP_PROVIDER_URL: 'javascript:alert(1)' },
      /^ONRAMP_PROVIDER_URL must be an http:\/\/ or https:\/\/ URL$/,
    ],
    [{ ONRAMP_WEBHOOK_SECRET: 'short' }, /^ONRAMP_WEBHOOK_SECRET must have 32 characters or more$/],
    [
      { ONRAMP_SENDER_ADDRESSES: 'eip155:1=0x123' },
      /^ONRAMP_SENDER_ADDRESSES entry 1: expected CAIP-2-id=address/,
    ],
    [
      { TOKEN_LIST_FILE: '/nonexistent/tokens.json' },
      /^TOKEN_LIST_FILE: cannot read \/nonexistent\/tokens.json \(ENOENT\)$/,
    ],
  ]
  for (const [env, message] of bad) {
    test(`error: ${JSON.stringify(env)} is refused with a clear message`, () => {
      const found = problems(env)
      assert.equal(found.length, 1, found.join('\n'))
      assert.match(found[0] ?? '', message)
    })
  }

  test('args: TOKEN_LIST_FILE, PRICE_SOURCE_URL and RATE_LIMIT_DATA', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'token-list-'))
    const file = join(folder, 'tokens.json')
    const usdc = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'
    await writeFile(
      file,
      JSON.stringify({
        networks: {
          'eip155:1': { tokens: [{ address: usdc, symbol: 'USDC', name: 'USD Coin', decimals: 6 }] },
        },
      }),
    )
    const config = loadConfig({
      TOKEN_LIST_FILE: file,
      PRICE_SOURCE_URL: 'https://prices.example/v1?key=abc',
      RATE_LIMIT_DATA: '7',
    })
    // EVM addresses are kept with their checksum.
    assert.deepEqual(config.tokenLists, {
      'eip155:1': {
        tokens: [
          {
            address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
            symbol: 'USDC',
            name: 'USD Coin',
            decimals: 6,
          },
        ],
      },
    })
    assert.equal(config.priceSourceUrl, 'https://prices.example/v1?key=abc')
    assert.equal(config.rateLimits.dataPerSecond, 7)
  })

  test('error: a token list with mistakes names each one', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'token-list-'))
    const file = join(folder, 'tokens.json')
    const token = {
      address: '0x0000000000000000000000000000000000000001',
      symbol: 'A',
      name: 'A',
      decimals: 18,
    }
    await writeFile(
      file,
      JSON.stringify({
        networks: {
          mainnet: { tokens: [] },
          'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': {
            tokens: [token],
            stablecoin: token.address,
            uniswapV2: { factory: token.address, router: token.address, weth: token.address },
          },
          'eip155:1': {
            tokens: [token, { ...token, decimals: 300 }],
            uniswapV2: {
              factory: token.address,
              router: token.address,
              weth: '0x0000000000000000000000000000000000000002',
            },
          },
        },
      }),
    )
    const found = problems({ TOKEN_LIST_FILE: file })
    assert.deepEqual(found, [
      'TOKEN_LIST_FILE: networks.eip155:1.tokens.1.decimals: Too big: expected number to be <=255',
      'TOKEN_LIST_FILE: networks.eip155:1.uniswapV2.weth: WETH must be a listed token',
      'TOKEN_LIST_FILE: networks.eip155:1.stablecoin: A Uniswap V2 market needs a stablecoin',
      'TOKEN_LIST_FILE: networks.mainnet: Expected a CAIP-2 network id such as eip155:1',
      'TOKEN_LIST_FILE: networks.solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp.uniswapV2: Only EVM (eip155) networks can have uniswapV2',
      'TOKEN_LIST_FILE: networks.solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp.stablecoin: Only EVM (eip155) networks can have stablecoin',
    ])
    await writeFile(file, '{ not json')
    assert.deepEqual(problems({ TOKEN_LIST_FILE: file }), [`TOKEN_LIST_FILE: ${file} is not valid JSON`])
  })

  test('error: every bad variable is reported at once', () => {
    assert.equal(problems({ PORT: 'x', LOG_LEVEL: 'y', RPC_TIMEOUT_MS: 'z' }).length, 3)
  })

  test('error: HISTORY_NETWORKS takes EVM networks with an RPC upstream only', () => {
    assert.deepEqual(loadConfig({}).historyNetworks, [])
    assert.throws(
      () => loadConfig({ HISTORY_NETWORKS: 'eip155:31337,solana:mainnet' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.some((problem) => problem.includes('HISTORY_NETWORKS has "solana:mainnet"')),
    )
    assert.throws(
      () => loadConfig({ HISTORY_NETWORKS: 'eip155:10' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.includes('HISTORY_NETWORKS: eip155:10 has no RPC upstream (RPC_UPSTREAMS)'),
    )
    assert.throws(() => loadConfig({ HISTORY_POLL_MS: '10' }), /HISTORY_POLL_MS must be at least 50/)
  })
})
