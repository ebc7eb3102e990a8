import { z } from 'zod'
import { type AnalyticsConfig, analyticsConfig, analyticsEnv } from './analytics/config.ts'
import { type AuthConfig, authConfig, authEnv } from './auth/config.ts'
import { type BlockchainConfig, blockchainConfig, blockchainEnv } from './blockchain/config.ts'
import { blankToUndefined, ConfigError, integer } from './config/env.ts'
import { type DatabaseConfig, databaseConfig, databaseEnv } from './db/config.ts'
import {
  type EmbeddedConfig,
  type EmbeddedSignInEnvName,
  embeddedConfig,
  embeddedEnv,
} from './embedded/config.ts'
import { type HistoryConfig, historyConfig, historyEnv } from './history/config.ts'
import { type HttpConfig, httpConfig, httpEnv } from './http/config.ts'
import { type NamesConfig, namesConfig, namesEnv } from './names/config.ts'
import { type OnrampConfig, onrampConfig, onrampEnv } from './onramp/config.ts'
import { type PaymasterConfig, paymasterConfig, paymasterEnv } from './paymaster/config.ts'
import { type ProjectsConfig, projectsConfig, projectsEnv } from './projects/config.ts'
import { type RpcConfig, rpcConfig, rpcEnv } from './rpc/config.ts'

// The composition of the contexts' configuration slices (server/<context>/config.ts). Their types and
// defaults are re-exported here, so `../config.ts` keeps serving every existing import.
export type { AnalyticsConfig } from './analytics/config.ts'
export type { AuthConfig } from './auth/config.ts'
export type { BlockchainConfig } from './blockchain/config.ts'
export { ConfigError } from './config/env.ts'
export { type DatabaseConfig, memoryDataDir } from './db/config.ts'
export type { EmbeddedConfig, FarcasterConfig, SocialConfig } from './embedded/config.ts'
export type { HistoryConfig } from './history/config.ts'
export { defaultRateLimits, type HttpConfig, type RateLimitSettings } from './http/config.ts'
export type { NamesConfig } from './names/config.ts'
export type { OnrampConfig } from './onramp/config.ts'
export type { PaymasterConfig } from './paymaster/config.ts'
export { defaultDevOrigins, type ProjectsConfig } from './projects/config.ts'
export { defaultRpcUpstreams, type RpcConfig } from './rpc/config.ts'

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof logLevels)[number]

/** The service's configuration, after validation: the service's own settings and every context's slice. */
export interface ServiceConfig
  extends DatabaseConfig,
    ProjectsConfig,
    RpcConfig,
    BlockchainConfig,
    HistoryConfig,
    HttpConfig,
    AnalyticsConfig,
    AuthConfig,
    NamesConfig,
    PaymasterConfig {
  /**
   * `development` when `NODE_ENV` is `development` or `test` (`npm start` and the tests), else
   * `production`: only development creates the dev project without being asked to.
   */
  environment: 'development' | 'production'
  /** Interface to listen on. */
  host: string
  /** Port to listen on; 0 picks a free one. */
  port: number
  /** How long each instance reuses a project (with its origins) and a catalogue page, in ms (0: no cache). */
  cacheMs: number
  logLevel: LogLevel
  /** The embedded wallet: its frame's origin, mail, and the key-encryption key of its custody. */
  embedded: EmbeddedConfig
  /** The on-ramp provider (docs/SELF-HOSTING.md, "On-ramp"); off when `providerUrl` is null. */
  onramp: OnrampConfig
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
    | 'PAYMASTER_SIGNER_KEY'
    | 'PAYMASTER_ADDRESSES'
    | 'PAYMASTER_PUBLIC_URL'
    | EmbeddedSignInEnvName,
    string | undefined
  >
>

// The slices' variables in one schema, so one ConfigError names every bad variable. The order of the
// keys is the order of the problems: the service's own variables sit between the slices where they
// always have.
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
  ...databaseEnv.shape,
  ...projectsEnv.shape,
  ...rpcEnv.shape,
  ...blockchainEnv.shape,
  CACHE_MS: integer('CACHE_MS', 0, 3_600_000, 5_000),
  ...historyEnv.shape,
  ...httpEnv.shape,
  ...analyticsEnv.shape,
  LOG_LEVEL: z.preprocess(
    (value) => (typeof value === 'string' ? blankToUndefined(value.toLowerCase()) : value),
    z.enum(logLevels, { error: `LOG_LEVEL must be one of ${logLevels.join(', ')}` }).default('info'),
  ),
  ...authEnv.shape,
  ...namesEnv.shape,
  ...onrampEnv.shape,
  ...paymasterEnv.shape,
  ...embeddedEnv.shape,
})

/**
 * Reads the service configuration from environment variables and validates it, throwing a
 * {@link ConfigError} that names every bad variable. Rules across variables (the token list file,
 * history against the RPC upstreams, social and Farcaster sign-in) are checked after, slice by slice.
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
  const blockchain = blockchainConfig(values)
  const rpc = rpcConfig(values)
  const history = historyConfig(values, rpc.rpcUpstreams)
  const environment =
    values.NODE_ENV === 'development' || values.NODE_ENV === 'test' ? 'development' : 'production'
  return {
    environment,
    host: values.HOST,
    port: values.PORT,
    ...databaseConfig(values),
    ...projectsConfig(values, environment),
    ...rpc,
    ...blockchain,
    ...history,
    cacheMs: values.CACHE_MS,
    ...httpConfig(values),
    ...analyticsConfig(values),
    logLevel: values.LOG_LEVEL,
    ...authConfig(values),
    ...namesConfig(values),
    onramp: onrampConfig(values),
    ...paymasterConfig(values, { host: values.HOST, port: values.PORT }),
    embedded: embeddedConfig(values, values.HOST, env),
  }
}

/**
 * {@link loadConfig} for a process that starts from the environment (the service, its command-line
 * tools): a bad configuration is its problems on stderr, exit code 1 and `undefined`, never a stack.
 *
 * @example
 * const config = loadConfigOrReport(process.env)
 * if (!config) return
 */
export function loadConfigOrReport(env: ServiceEnv = process.env): ServiceConfig | undefined {
  try {
    return loadConfig(env)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    console.error(error.message)
    process.exitCode = 1
    return undefined
  }
}
