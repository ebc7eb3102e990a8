// loadConfig: development defaults, blank values, files, and the errors it reports.
import assert from 'node:assert/strict'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { ConfigError, loadConfig, type ServiceEnv } from '../../../server/config.ts'
import { problems } from './config-helpers.ts'

describe('loadConfig', () => {
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
