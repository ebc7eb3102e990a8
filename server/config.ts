import type { Hex } from 'viem'
import { z } from 'zod'
import { type SocialProvider, socialProviders } from '../src/protocol/api/catalogue.ts'
import { apiLimits, isCaip2, projectIdPattern } from '../src/protocol/api/index.ts'
import { readTokenListFile, TokenListError, type TokenLists } from './blockchain/tokenLists.ts'
import { isOriginPattern } from './projects/origins.ts'
import { rpcMethodNamePattern } from './rpc/methods.ts'

/** Where the service keeps an in-memory database (tests): `DATA_DIR=memory://`. */
export const memoryDataDir = 'memory://'

/** The demo's origins (vite dev server and preview, by IP and by name). */
export const defaultDevOrigins = [
  'http://127.0.0.1:5173',
  'http://localhost:5173',
  'http://127.0.0.1:4173',
  'http://localhost:4173',
]

/** The local chains started by `npm start` (server/dev/chain). */
export const defaultRpcUpstreams: Record<string, string> = {
  'eip155:31337': 'http://127.0.0.1:8545',
  'eip155:31338': 'http://127.0.0.1:8546',
  'solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9': 'http://127.0.0.1:8899',
}

/** Rate limits per client address and project; 0 turns one off. Each allows bursts of its whole amount. */
export interface RateLimitSettings {
  /** `POST /v1/` requests per second (`RATE_LIMIT_RPC`). */
  rpcPerSecond: number
  /** JSON-RPC requests per second, batch entries counted one by one (`RATE_LIMIT_RPC_ENTRIES`). */
  rpcEntriesPerSecond: number
  /** Analytics events per minute on `POST /e` (`RATE_LIMIT_ANALYTICS`). */
  analyticsEventsPerMinute: number
  /** Calls per minute of each sign-in route that writes: nonce, authenticate, sign-out (`RATE_LIMIT_SIGN_IN`). */
  signInPerMinute: number
  /**
   * Calls per minute of each embedded-wallet route that writes: sign-in mail, codes, device approval,
   * e-mail update, signing requests (`RATE_LIMIT_WALLET`).
   */
  walletPerMinute: number
  /** Blockchain data API requests (`/blockchain/v1/*`) per second (`RATE_LIMIT_DATA`). */
  dataPerSecond: number
}

/** The defaults of {@link RateLimitSettings}. */
export const defaultRateLimits: RateLimitSettings = {
  rpcPerSecond: 100,
  rpcEntriesPerSecond: 1000,
  analyticsEventsPerMinute: 600,
  signInPerMinute: 60,
  walletPerMinute: 20,
  dataPerSecond: 50,
}

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof logLevels)[number]

/** The service's configuration, after validation. */
export interface ServiceConfig {
  /**
   * `development` when `NODE_ENV` is `development` or `test` (`npm start` and the tests), else
   * `production`: only development creates the dev project without being asked to.
   */
  environment: 'development' | 'production'
  /** Interface to listen on. */
  host: string
  /** Port to listen on; 0 picks a free one. */
  port: number
  /** PGlite data folder, or `memory://`; ignored when `databaseUrl` is set. */
  dataDir: string
  /** PostgreSQL connection string; PGlite is used when null. */
  databaseUrl: string | null
  /** PostgreSQL schema holding the service's tables (created when missing). */
  databaseSchema: string
  /** Most PostgreSQL connections per instance. */
  databasePoolMax: number
  /** How long a PostgreSQL connection or query may take before the request answers 503, in ms. */
  databaseTimeoutMs: number
  /** Id of the dev project created or updated at start; null when disabled (production, unless `DEV_PROJECT_ID` is set). */
  devProjectId: string | null
  /** Origins the dev project allows. */
  devOrigins: string[]
  /** CAIP-2 network id -> JSON-RPC upstream URL. */
  rpcUpstreams: Record<string, string>
  /**
   * CAIP-2 network id -> ERC-4337 bundler URL (`BUNDLER_UPSTREAMS`, none by default): the bundler proxy
   * (`POST /v1/bundler`) and the embedded wallet's smart accounts on those networks.
   */
  bundlerUpstreams: Record<string, string>
  /** Upstream timeout of the RPC proxy and the bundler proxy, in ms. */
  rpcTimeoutMs: number
  /** Methods the RPC proxy forwards besides its allow-list (server/rpc/methods.ts), on every network. */
  rpcAllowMethods: string[]
  /** Token lists and markets per CAIP-2 network, from `TOKEN_LIST_FILE` (none by default). */
  tokenLists: TokenLists
  /**
   * The operator's price source (`PRICE_SOURCE_URL`) for networks without a market; null: none, and
   * prices there are absent.
   */
  priceSourceUrl: string | null
  /** EVM networks whose history the service indexes from their RPC upstream (`HISTORY_NETWORKS`); none by default. */
  historyNetworks: string[]
  /** How often the history indexer looks for new blocks, in ms (`HISTORY_POLL_MS`). */
  historyPollMs: number
  /**
   * EVM networks whose history is read from an Etherscan-compatible account API instead of indexed
   * (`HISTORY_UPSTREAMS`, `eip155:1=https://api.etherscan.io/v2/api, ...`); none by default.
   */
  historyUpstreams: Record<string, string>
  /** The upstreams' API key (`HISTORY_UPSTREAM_KEY`), sent as `apikey`; never logged. */
  historyUpstreamKey: string | null
  /** How long each instance reuses a project (with its origins) and a catalogue page, in ms (0: no cache). */
  cacheMs: number
  /** Trust `X-Forwarded-*` from this many proxies in front (0: none). */
  trustProxyHops: number
  rateLimits: RateLimitSettings
  /** Analytics events are deleted this many days after they arrive; 0 keeps them (`ANALYTICS_RETENTION_DAYS`). */
  analyticsRetentionDays: number
  logLevel: LogLevel
  /** Sign-in session lifetime in seconds (`AUTH_SESSION_TTL`); absent: 7 days (`authLimits`). */
  authSessionTtlSeconds?: number
  /** `iss` claim of sign-in tokens (`AUTH_ISSUER`); absent: `wallet-elements`. */
  authIssuer?: string
  /** The embedded wallet: its frame's origin, mail, and the key-encryption key of its custody. */
  embedded: EmbeddedConfig
  /** The name registry's suffix (`NAME_SUFFIX`, default `wallet.test`): names are `label.suffix`. */
  nameSuffix: string
  /**
   * The signing key of the names' EIP-3668 gateway (`NAME_GATEWAY_KEY`, 0x and 64 hex digits); the
   * gateway is off when null. `npm start` makes one at each start.
   */
  nameGatewayKey: Hex | null
  /** The on-ramp provider (docs/SELF-HOSTING.md, "On-ramp"); off when `providerUrl` is null. */
  onramp: OnrampConfig
}

/** The on-ramp provider's settings. */
export interface OnrampConfig {
  /** The provider's API (`ONRAMP_PROVIDER_URL`); null: no on-ramp. */
  providerUrl: string | null
  /** Sent to the provider as a bearer token (`ONRAMP_API_KEY`); never logged. */
  apiKey: string | null
  /** HMAC-SHA256 key of the provider's completion webhook (`ONRAMP_WEBHOOK_SECRET`, 32 or more characters). */
  webhookSecret: string | null
  /**
   * Addresses the provider delivers from, per CAIP-2 network (`ONRAMP_SENDER_ADDRESSES`,
   * `eip155:31337=0xabc…|0xdef…,eip155:1=…`): a transfer from one of them is an on-ramp delivery.
   */
  senderAddresses: Record<string, string[]>
}

/** Settings of the embedded wallet (docs/EMBEDDED-WALLET.md, "Operator settings"). */
export interface EmbeddedConfig {
  /** Port of the frame's own origin (`FRAME_PORT`, 8788); null: no frame and no e-mail login. */
  framePort: number | null
  /** The frame's public URL (`FRAME_PUBLIC_URL`): links in mails, and the one origin its API answers. */
  framePublicUrl: string
  /** The built frame app (`FRAME_DIR`, `dist-frame`). */
  frameDir: string
  /** SMTP server for sign-in mail (`SMTP_URL`, e.g. `smtps://user:pass@mail.example.com`); null: no mail. */
  smtpUrl: string | null
  /** Sender of sign-in mail (`MAIL_FROM`). */
  mailFrom: string
  /** The key-encryption key (`WALLET_KEK`, 32 bytes, base64 or hex); required in production. */
  kek: string | null
  /** Earlier keys still read during a rotation (`WALLET_KEK_PREVIOUS`, comma separated). */
  kekPrevious: string[]
  /**
   * Where a development KEK is generated when `WALLET_KEK` is unset (`WALLET_KEK_FILE`,
   * `.secrets/wallet-kek`; never in or beside `DATA_DIR`); production needs `WALLET_KEK`.
   */
  kekFile: string
  /** Sign-in mails one project may send an hour, every address and client together (`WALLET_MAILS_PER_HOUR`, 1000; 0 is no budget). */
  mailsPerHour: number
  /** Social sign-in (docs/EMBEDDED-WALLET.md, "Social providers"). */
  social: SocialConfig
  /** Sign In With Farcaster (docs/EMBEDDED-WALLET.md, "Farcaster"). */
  farcaster: FarcasterConfig
}

/** Where Sign In With Farcaster opens its channels and reads the ID and key registries. */
export interface FarcasterConfig {
  /** `FARCASTER_RELAY_URL` (default the real relay, https://relay.farcaster.xyz). */
  relayUrl: string
  /** `FARCASTER_RPC_URL`: an OP-mainnet (chain id 10) RPC (default https://mainnet.optimism.io). */
  rpcUrl: string
}

/** The social providers' credentials and where they send the person back. */
export interface SocialConfig {
  /** `SOCIAL_<PROVIDER>_CLIENT_ID` and `_CLIENT_SECRET`; a provider without both is off. */
  credentials: Partial<Record<SocialProvider, { clientId: string; clientSecret: string }>>
  /** Apple's client secret is a JWT we sign: `SOCIAL_APPLE_TEAM_ID`, `_KEY_ID`, `_PRIVATE_KEY` (PEM). */
  apple: { teamId: string; keyId: string; privateKey: string } | null
  /** `SOCIAL_REDIRECT_BASE` (default the frame's public URL): callbacks are `<base>/social/callback/<provider>`. */
  redirectBase: string
  /**
   * `SOCIAL_PROVIDER_URL`: every provider at `<url>/<provider>` (the local stand-in, `npm start`);
   * null: the real providers.
   */
  providerUrl: string | null
}

/** The environment variables the service reads. */
export type ServiceEnv = Partial<
  Record<
    | 'NODE_ENV'
    | 'HOST'
    | 'PORT'
    | 'DATA_DIR'
    | 'DATABASE_URL'
    | 'DATABASE_SCHEMA'
    | 'DATABASE_POOL_MAX'
    | 'DATABASE_TIMEOUT_MS'
    | 'DEV_PROJECT_ID'
    | 'DEV_ORIGINS'
    | 'RPC_UPSTREAMS'
    | 'BUNDLER_UPSTREAMS'
    | 'RPC_TIMEOUT_MS'
    | 'RPC_ALLOW_METHODS'
    | 'TOKEN_LIST_FILE'
    | 'PRICE_SOURCE_URL'
    | 'CACHE_MS'
    | 'HISTORY_NETWORKS'
    | 'HISTORY_POLL_MS'
    | 'HISTORY_UPSTREAMS'
    | 'HISTORY_UPSTREAM_KEY'
    | 'TRUST_PROXY_HOPS'
    | 'RATE_LIMIT_RPC'
    | 'RATE_LIMIT_RPC_ENTRIES'
    | 'RATE_LIMIT_ANALYTICS'
    | 'RATE_LIMIT_SIGN_IN'
    | 'RATE_LIMIT_WALLET'
    | 'RATE_LIMIT_DATA'
    | 'ANALYTICS_RETENTION_DAYS'
    | 'LOG_LEVEL'
    | 'AUTH_SESSION_TTL'
    | 'AUTH_ISSUER'
    | 'FRAME_PORT'
    | 'FRAME_PUBLIC_URL'
    | 'FRAME_DIR'
    | 'SMTP_URL'
    | 'MAIL_FROM'
    | 'WALLET_KEK'
    | 'WALLET_KEK_PREVIOUS'
    | 'WALLET_KEK_FILE'
    | 'WALLET_MAILS_PER_HOUR'
    | 'NAME_SUFFIX'
    | 'NAME_GATEWAY_KEY'
    | 'ONRAMP_PROVIDER_URL'
    | 'ONRAMP_API_KEY'
    | 'ONRAMP_WEBHOOK_SECRET'
    | 'ONRAMP_SENDER_ADDRESSES'
    | 'SOCIAL_REDIRECT_BASE'
    | 'FARCASTER_RELAY_URL'
    | 'FARCASTER_RPC_URL'
    | 'SOCIAL_PROVIDER_URL'
    | 'SOCIAL_APPLE_TEAM_ID'
    | 'SOCIAL_APPLE_KEY_ID'
    | 'SOCIAL_APPLE_PRIVATE_KEY'
    | `SOCIAL_${Uppercase<SocialProvider>}_CLIENT_ID`
    | `SOCIAL_${Uppercase<SocialProvider>}_CLIENT_SECRET`,
    string | undefined
  >
>

/** Thrown by {@link loadConfig} with one line per bad variable. */
export class ConfigError extends Error {
  override name = 'ConfigError'
  readonly problems: readonly string[]
  constructor(problems: readonly string[]) {
    super(`Invalid service configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    this.problems = problems
  }
}

const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value

function integer(name: string, min: number, max: number, fallback: number) {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d+$/, `${name} must be a whole number from ${min} to ${max}`)
      .transform(Number)
      .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`))
      .default(fallback),
  )
}

/** Like {@link integer}, but absent (undefined) when not set, so the default lives with its feature. */
function optionalInteger(name: string, min: number, max: number) {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d+$/, `${name} must be a whole number from ${min} to ${max}`)
      .transform(Number)
      .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`))
      .optional(),
  )
}

function commaItems(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

const envSchema = z.object({
  NODE_ENV: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() : undefined),
    z.string().optional(),
  ),
  HOST: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9.:[\]-]+$/, 'HOST must be a host name or IP address such as 127.0.0.1')
      .default('127.0.0.1'),
  ),
  PORT: integer('PORT', 0, 65535, 8787),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default('.data/service')),
  DATABASE_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(
        /^postgres(ql)?:\/\/.+/,
        'DATABASE_URL must be a PostgreSQL URL such as postgresql://user:password@127.0.0.1:5432/wallet_elements',
      )
      .optional(),
  ),
  DATABASE_SCHEMA: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'DATABASE_SCHEMA must be a lower-case SQL identifier such as public')
      .default('public'),
  ),
  DATABASE_POOL_MAX: integer('DATABASE_POOL_MAX', 1, 1000, 10),
  // Connecting and one query each get this long: together under the 10 s a request may wait.
  DATABASE_TIMEOUT_MS: integer('DATABASE_TIMEOUT_MS', 100, 60_000, 4000),
  // Undefined means the environment's default; an empty value turns the dev project off.
  DEV_PROJECT_ID: z
    .string()
    .transform((value) => value.trim())
    .refine(
      (value) => value === '' || projectIdPattern.test(value),
      'DEV_PROJECT_ID must use letters, digits, _ and - (up to 128), or be empty to turn the dev project off',
    )
    .optional(),
  DEV_ORIGINS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .transform(commaItems)
      .superRefine((items, context) => {
        for (const item of items) {
          if (!isOriginPattern(item)) {
            context.addIssue({
              code: 'custom',
              message: `DEV_ORIGINS has "${item}", which is not an origin such as http://localhost:5173 or https://*.example.com`,
            })
          }
        }
      })
      .optional(),
  ),
  RPC_UPSTREAMS: upstreamMap('RPC_UPSTREAMS'),
  BUNDLER_UPSTREAMS: upstreamMap('BUNDLER_UPSTREAMS'),
  RPC_TIMEOUT_MS: integer('RPC_TIMEOUT_MS', 1, 600_000, apiLimits.rpcTimeoutMs),
  RPC_ALLOW_METHODS: z.preprocess(
    (value) => (typeof value === 'string' ? value : ''),
    z
      .string()
      .transform(commaItems)
      .superRefine((items, context) => {
        for (const item of items) {
          if (!rpcMethodNamePattern.test(item)) {
            context.addIssue({
              code: 'custom',
              message: `RPC_ALLOW_METHODS has "${item}", which is not a JSON-RPC method name such as debug_traceTransaction`,
            })
          }
        }
      }),
  ),
  TOKEN_LIST_FILE: z.preprocess(blankToUndefined, z.string().optional()),
  // Problems name the variable, never the URL (which may hold an API key).
  PRICE_SOURCE_URL: z.preprocess(
    blankToUndefined,
    z.string().refine(isHttpUrl, 'PRICE_SOURCE_URL must be an http:// or https:// URL').optional(),
  ),
  CACHE_MS: integer('CACHE_MS', 0, 3_600_000, 5_000),
  HISTORY_NETWORKS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .transform(commaItems)
      .superRefine((items, context) => {
        for (const item of items) {
          if (!/^eip155:[1-9]\d{0,15}$/.test(item))
            context.addIssue({
              code: 'custom',
              message: `HISTORY_NETWORKS has "${item}": expected EVM CAIP-2 network ids such as eip155:31337`,
            })
        }
      })
      .optional(),
  ),
  HISTORY_POLL_MS: integer('HISTORY_POLL_MS', 50, 60_000, 1_000),
  HISTORY_UPSTREAMS: upstreamMap('HISTORY_UPSTREAMS'),
  HISTORY_UPSTREAM_KEY: z.preprocess(blankToUndefined, z.string().max(200).optional()),
  TRUST_PROXY_HOPS: integer('TRUST_PROXY_HOPS', 0, 100, 0),
  RATE_LIMIT_RPC: integer('RATE_LIMIT_RPC', 0, 1_000_000, defaultRateLimits.rpcPerSecond),
  RATE_LIMIT_RPC_ENTRIES: integer(
    'RATE_LIMIT_RPC_ENTRIES',
    0,
    10_000_000,
    defaultRateLimits.rpcEntriesPerSecond,
  ),
  RATE_LIMIT_ANALYTICS: integer(
    'RATE_LIMIT_ANALYTICS',
    0,
    10_000_000,
    defaultRateLimits.analyticsEventsPerMinute,
  ),
  RATE_LIMIT_SIGN_IN: integer('RATE_LIMIT_SIGN_IN', 0, 1_000_000, defaultRateLimits.signInPerMinute),
  RATE_LIMIT_WALLET: integer('RATE_LIMIT_WALLET', 0, 1_000_000, defaultRateLimits.walletPerMinute),
  RATE_LIMIT_DATA: integer('RATE_LIMIT_DATA', 0, 1_000_000, defaultRateLimits.dataPerSecond),
  ANALYTICS_RETENTION_DAYS: integer('ANALYTICS_RETENTION_DAYS', 0, 36_500, 90),
  LOG_LEVEL: z.preprocess(
    (value) => (typeof value === 'string' ? blankToUndefined(value.toLowerCase()) : value),
    z.enum(logLevels, { error: `LOG_LEVEL must be one of ${logLevels.join(', ')}` }).default('info'),
  ),
  // A minute to a year.
  AUTH_SESSION_TTL: optionalInteger('AUTH_SESSION_TTL', 60, 31_536_000),
  AUTH_ISSUER: z.preprocess(
    (value) => (typeof value === 'string' ? blankToUndefined(value.trim()) : value),
    z
      .string()
      .regex(/^[\x21-\x7e]{1,256}$/, 'AUTH_ISSUER must be 1 to 256 printable characters without spaces')
      .optional(),
  ),
  NAME_SUFFIX: z.preprocess(
    (value) => (typeof value === 'string' ? blankToUndefined(value.trim().toLowerCase()) : value),
    z
      .string()
      .regex(/^[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63}){0,3}$/, 'NAME_SUFFIX must be a domain such as wallet.test')
      .default('wallet.test'),
  ),
  // Never quoted back: a problem names the variable only.
  NAME_GATEWAY_KEY: z.preprocess(
    (value) => (typeof value === 'string' ? blankToUndefined(value.trim()) : value),
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, 'NAME_GATEWAY_KEY must be 0x and 64 hex digits (a secp256k1 private key)')
      .optional(),
  ),
  // Problems name the variable, never the URL or key.
  ONRAMP_PROVIDER_URL: z.preprocess(
    blankToUndefined,
    z.string().refine(isHttpUrl, 'ONRAMP_PROVIDER_URL must be an http:// or https:// URL').optional(),
  ),
  ONRAMP_API_KEY: z.preprocess(blankToUndefined, z.string().max(4096).optional()),
  ONRAMP_WEBHOOK_SECRET: z.preprocess(
    blankToUndefined,
    z.string().min(32, 'ONRAMP_WEBHOOK_SECRET must have 32 characters or more').max(4096).optional(),
  ),
  ONRAMP_SENDER_ADDRESSES: z.preprocess(
    (value) => (typeof value === 'string' ? value : ''),
    z.string().transform((value, context) => {
      const senders: Record<string, string[]> = {}
      for (const [index, item] of commaItems(value).entries()) {
        const separator = item.indexOf('=')
        const chainId = separator === -1 ? '' : item.slice(0, separator).trim()
        const addresses =
          separator === -1
            ? []
            : item
                .slice(separator + 1)
                .split('|')
                .map((a) => a.trim())
        if (
          !isCaip2(chainId) ||
          addresses.length === 0 ||
          !addresses.every((a) => /^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/.test(a))
        ) {
          context.addIssue({
            code: 'custom',
            message: `ONRAMP_SENDER_ADDRESSES entry ${index + 1}: expected CAIP-2-id=address|address such as eip155:31337=0x…`,
          })
        } else {
          senders[chainId] = addresses
        }
      }
      return senders
    }),
  ),
  // `off` (or empty) runs no frame.
  FRAME_PORT: z.preprocess(
    (value) => (typeof value === 'string' && value.trim().toLowerCase() === 'off' ? '' : value),
    z.union([z.literal(''), integer('FRAME_PORT', 0, 65535, 8788)]),
  ),
  FRAME_PUBLIC_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine(
        (value) => isHttpUrl(value) && new URL(value).pathname === '/' && !value.includes('?'),
        'FRAME_PUBLIC_URL must be an origin such as https://wallet.example.com',
      )
      .optional(),
  ),
  FRAME_DIR: z.preprocess(blankToUndefined, z.string().default('dist-frame')),
  SMTP_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^smtps?:\/\/.+/, 'SMTP_URL must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[^\r\n]{3,200}$/, 'MAIL_FROM must be one line such as Wallet <wallet@example.com>')
      .default('wallet-elements <wallet@localhost>'),
  ),
  WALLET_KEK: z.preprocess(blankToUndefined, z.string().optional()),
  WALLET_KEK_PREVIOUS: z.preprocess(
    (value) => (typeof value === 'string' ? value : ''),
    z.string().transform(commaItems),
  ),
  // Not in `.data` (the database's folder): one copy of it must not hold both (issue 23 item 7).
  WALLET_KEK_FILE: z.preprocess(blankToUndefined, z.string().default('.secrets/wallet-kek')),
  WALLET_MAILS_PER_HOUR: integer('WALLET_MAILS_PER_HOUR', 0, 1_000_000, 1000),
})

/**
 * Reads the service configuration from environment variables and validates it, throwing a
 * {@link ConfigError} that names every bad variable.
 *
 * @example
 * const config = loadConfig(process.env)
 * const test = loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'silent' })
 */
export function loadConfig(env: ServiceEnv = process.env): ServiceConfig {
  const parsed = envSchema.safeParse(env)
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? '')
        return issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`
      }),
    )
  }
  const values = parsed.data
  let tokenLists: TokenLists = {}
  if (values.TOKEN_LIST_FILE !== undefined) {
    try {
      tokenLists = readTokenListFile(values.TOKEN_LIST_FILE)
    } catch (error) {
      if (!(error instanceof TokenListError)) throw error
      throw new ConfigError(error.problems.map((problem) => `TOKEN_LIST_FILE: ${problem}`))
    }
  }
  const rpcUpstreams = values.RPC_UPSTREAMS ?? { ...defaultRpcUpstreams }
  const unreachable = (values.HISTORY_NETWORKS ?? []).filter((chainId) => rpcUpstreams[chainId] === undefined)
  if (unreachable.length > 0) {
    throw new ConfigError(
      unreachable.map((chainId) => `HISTORY_NETWORKS: ${chainId} has no RPC upstream (RPC_UPSTREAMS)`),
    )
  }
  const historyUpstreams = values.HISTORY_UPSTREAMS ?? {}
  const doubled = (values.HISTORY_NETWORKS ?? []).filter((chainId) => historyUpstreams[chainId] !== undefined)
  const notEvm = Object.keys(historyUpstreams).filter((chainId) => !/^eip155:[1-9]\d{0,15}$/.test(chainId))
  if (doubled.length > 0 || notEvm.length > 0) {
    throw new ConfigError([
      ...doubled.map(
        (chainId) =>
          `HISTORY_UPSTREAMS: ${chainId} is in HISTORY_NETWORKS too; a network with an upstream is not indexed`,
      ),
      ...notEvm.map((chainId) => `HISTORY_UPSTREAMS: ${chainId} is not an EVM network (eip155:N)`),
    ])
  }
  const environment =
    values.NODE_ENV === 'development' || values.NODE_ENV === 'test' ? 'development' : 'production'
  const devProjectId = values.DEV_PROJECT_ID ?? (environment === 'development' ? 'dev-project' : '')
  return {
    environment,
    host: values.HOST,
    port: values.PORT,
    dataDir: values.DATA_DIR,
    databaseUrl: values.DATABASE_URL ?? null,
    databaseSchema: values.DATABASE_SCHEMA,
    databasePoolMax: values.DATABASE_POOL_MAX,
    databaseTimeoutMs: values.DATABASE_TIMEOUT_MS,
    devProjectId: devProjectId === '' ? null : devProjectId,
    devOrigins: values.DEV_ORIGINS ?? [...defaultDevOrigins],
    rpcUpstreams,
    bundlerUpstreams: values.BUNDLER_UPSTREAMS ?? {},
    rpcTimeoutMs: values.RPC_TIMEOUT_MS,
    rpcAllowMethods: values.RPC_ALLOW_METHODS,
    tokenLists,
    priceSourceUrl: values.PRICE_SOURCE_URL ?? null,
    historyNetworks: values.HISTORY_NETWORKS ?? [],
    historyPollMs: values.HISTORY_POLL_MS,
    historyUpstreams,
    historyUpstreamKey: values.HISTORY_UPSTREAM_KEY ?? null,
    cacheMs: values.CACHE_MS,
    trustProxyHops: values.TRUST_PROXY_HOPS,
    rateLimits: {
      rpcPerSecond: values.RATE_LIMIT_RPC,
      rpcEntriesPerSecond: values.RATE_LIMIT_RPC_ENTRIES,
      analyticsEventsPerMinute: values.RATE_LIMIT_ANALYTICS,
      signInPerMinute: values.RATE_LIMIT_SIGN_IN,
      walletPerMinute: values.RATE_LIMIT_WALLET,
      dataPerSecond: values.RATE_LIMIT_DATA,
    },
    analyticsRetentionDays: values.ANALYTICS_RETENTION_DAYS,
    logLevel: values.LOG_LEVEL,
    // Present only when set, so the defaults stay in one place (server/auth).
    ...(values.AUTH_SESSION_TTL === undefined ? {} : { authSessionTtlSeconds: values.AUTH_SESSION_TTL }),
    ...(values.AUTH_ISSUER === undefined ? {} : { authIssuer: values.AUTH_ISSUER }),
    nameSuffix: values.NAME_SUFFIX,
    nameGatewayKey: (values.NAME_GATEWAY_KEY as Hex | undefined) ?? null,
    onramp: {
      providerUrl: values.ONRAMP_PROVIDER_URL ?? null,
      apiKey: values.ONRAMP_API_KEY ?? null,
      webhookSecret: values.ONRAMP_WEBHOOK_SECRET ?? null,
      senderAddresses: values.ONRAMP_SENDER_ADDRESSES,
    },
    embedded: embeddedConfig(values, env),
  }
}

/** Reads the social providers' settings; a provider with half its credentials is a configuration error. */
function socialConfig(env: ServiceEnv, frameUrl: string): SocialConfig {
  const problems: string[] = []
  const credentials: SocialConfig['credentials'] = {}
  const read = (name: keyof ServiceEnv) => env[name]?.trim() || undefined
  for (const provider of socialProviders) {
    const upper = provider.toUpperCase() as Uppercase<SocialProvider>
    const clientId = read(`SOCIAL_${upper}_CLIENT_ID`)
    const clientSecret = read(`SOCIAL_${upper}_CLIENT_SECRET`)
    // Apple's secret is minted from its key; the others need their secret.
    if (provider === 'apple' ? clientId : clientId && clientSecret) {
      credentials[provider] = { clientId: clientId as string, clientSecret: clientSecret ?? '' }
    } else if (clientId || clientSecret) {
      problems.push(`SOCIAL_${upper}_CLIENT_ID and SOCIAL_${upper}_CLIENT_SECRET must be set together`)
    }
  }
  const teamId = read('SOCIAL_APPLE_TEAM_ID')
  const keyId = read('SOCIAL_APPLE_KEY_ID')
  const privateKey = env.SOCIAL_APPLE_PRIVATE_KEY?.replace(/\\n/g, '\n').trim()
  const apple = teamId && keyId && privateKey ? { teamId, keyId, privateKey } : null
  if (credentials.apple && !apple)
    problems.push(
      'SOCIAL_APPLE_CLIENT_ID needs SOCIAL_APPLE_TEAM_ID, SOCIAL_APPLE_KEY_ID and SOCIAL_APPLE_PRIVATE_KEY',
    )
  const urlOf = (name: 'SOCIAL_REDIRECT_BASE' | 'SOCIAL_PROVIDER_URL') => {
    const value = read(name)
    if (value === undefined) return null
    if (!isHttpUrl(value) || value.includes('?')) {
      problems.push(`${name} must be an http(s) URL without a query`)
      return null
    }
    return value.replace(/\/$/, '')
  }
  const redirectBase = urlOf('SOCIAL_REDIRECT_BASE') ?? frameUrl
  const providerUrl = urlOf('SOCIAL_PROVIDER_URL')
  if (problems.length > 0) throw new ConfigError(problems)
  return { credentials, apple, redirectBase, providerUrl }
}

/** Reads the Farcaster relay and chain-10 RPC; problems never quote a URL (an RPC URL may hold a key). */
function farcasterConfig(env: ServiceEnv): FarcasterConfig {
  const problems: string[] = []
  const urlOf = (name: 'FARCASTER_RELAY_URL' | 'FARCASTER_RPC_URL', fallback: string) => {
    const value = env[name]?.trim() || undefined
    if (value === undefined) return fallback
    if (!isHttpUrl(value)) problems.push(`${name} must be an http(s) URL`)
    return value.replace(/\/$/, '')
  }
  const relayUrl = urlOf('FARCASTER_RELAY_URL', 'https://relay.farcaster.xyz')
  const rpcUrl = urlOf('FARCASTER_RPC_URL', 'https://mainnet.optimism.io')
  if (problems.length > 0) throw new ConfigError(problems)
  return { relayUrl, rpcUrl }
}

function embeddedConfig(values: z.output<typeof envSchema>, env: ServiceEnv): EmbeddedConfig {
  const framePort = values.FRAME_PORT === '' ? null : values.FRAME_PORT
  const host = values.HOST.includes(':') ? `[${values.HOST}]` : values.HOST
  const framePublicUrl = (values.FRAME_PUBLIC_URL ?? `http://${host}:${framePort ?? 8788}`).replace(/\/$/, '')
  return {
    framePort,
    framePublicUrl,
    social: socialConfig(env, framePublicUrl),
    farcaster: farcasterConfig(env),
    frameDir: values.FRAME_DIR,
    smtpUrl: values.SMTP_URL ?? null,
    mailFrom: values.MAIL_FROM,
    kek: values.WALLET_KEK ?? null,
    kekPrevious: values.WALLET_KEK_PREVIOUS,
    kekFile: values.WALLET_KEK_FILE,
    mailsPerHour: values.WALLET_MAILS_PER_HOUR,
  }
}

const upstreamExamples = {
  RPC_UPSTREAMS: 'eip155:31337=http://127.0.0.1:8545',
  BUNDLER_UPSTREAMS: 'eip155:31337=http://127.0.0.1:4337',
  HISTORY_UPSTREAMS: 'eip155:1=https://api.etherscan.io/v2/api',
}

/** `CAIP-2-id=URL, ...` (RPC_UPSTREAMS, BUNDLER_UPSTREAMS, HISTORY_UPSTREAMS); problems never quote a URL. */
function upstreamMap(name: 'RPC_UPSTREAMS' | 'BUNDLER_UPSTREAMS' | 'HISTORY_UPSTREAMS') {
  return z.preprocess(
    (value) => (typeof value === 'string' ? value : undefined),
    z
      .string()
      .transform((value, context) => {
        const upstreams: Record<string, string> = {}
        // Problems name the entry by position and network, never its URL (which may hold an API key).
        for (const [index, item] of commaItems(value).entries()) {
          const separator = item.indexOf('=')
          const chainId = separator === -1 ? '' : item.slice(0, separator).trim()
          const url = separator === -1 ? '' : item.slice(separator + 1).trim()
          if (!isCaip2(chainId)) {
            context.addIssue({
              code: 'custom',
              message: `${name} entry ${index + 1}: expected CAIP-2-id=URL such as ${upstreamExamples[name]}`,
            })
          } else if (!isHttpUrl(url)) {
            context.addIssue({
              code: 'custom',
              message: `${name} entry ${index + 1} (${chainId}): the URL after = must be http:// or https://`,
            })
          } else {
            upstreams[chainId] = url
          }
        }
        return upstreams
      })
      .optional(),
  )
}
