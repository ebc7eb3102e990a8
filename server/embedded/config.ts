import { z } from 'zod'
import { type SocialProvider, socialProviders } from '../../src/protocol/api/catalogue.ts'
import { blankToUndefined, ConfigError, commaItems, integer, isHttpUrl } from '../config/env.ts'

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
  /**
   * The Bitcoin node of each bip122 network the wallet signs for (`BITCOIN_NODE_URLS`,
   * `bip122:<ref>=<url>` comma separated): its coins, fee rates and broadcast (bcoin's HTTP API).
   */
  bitcoinNodes: Readonly<Record<string, string>>
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

/** The social and Farcaster variables, read by name rather than through {@link embeddedEnv}. */
export type EmbeddedSignInEnvName =
  | 'SOCIAL_REDIRECT_BASE'
  | 'FARCASTER_RELAY_URL'
  | 'FARCASTER_RPC_URL'
  | 'SOCIAL_PROVIDER_URL'
  | 'SOCIAL_APPLE_TEAM_ID'
  | 'SOCIAL_APPLE_KEY_ID'
  | 'SOCIAL_APPLE_PRIVATE_KEY'
  | 'BITCOIN_NODE_URLS'
  | `SOCIAL_${Uppercase<SocialProvider>}_CLIENT_ID`
  | `SOCIAL_${Uppercase<SocialProvider>}_CLIENT_SECRET`

type SignInEnv = Partial<Record<EmbeddedSignInEnvName, string | undefined>>

/** The embedded wallet's frame, mail and custody variables. */
export const embeddedEnv = z.object({
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
  // Not in `.data` (the database's folder): one copy of it must not hold both (it would open every wallet).
  WALLET_KEK_FILE: z.preprocess(blankToUndefined, z.string().default('.secrets/wallet-kek')),
  WALLET_MAILS_PER_HOUR: integer('WALLET_MAILS_PER_HOUR', 0, 1_000_000, 1000),
})

/** Reads the social providers' settings; a provider with half its credentials is a configuration error. */
function socialConfig(env: SignInEnv, frameUrl: string): SocialConfig {
  const problems: string[] = []
  const credentials: SocialConfig['credentials'] = {}
  const read = (name: EmbeddedSignInEnvName) => env[name]?.trim() || undefined
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
function farcasterConfig(env: SignInEnv): FarcasterConfig {
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

/** Reads `BITCOIN_NODE_URLS`; problems never quote a URL (it may hold credentials). */
export function bitcoinNodesConfig(value: string | undefined): Record<string, string> {
  const nodes: Record<string, string> = {}
  const problems: string[] = []
  for (const item of commaItems(value ?? '')) {
    const at = item.indexOf('=')
    const chainId = item.slice(0, at).trim()
    const url = item.slice(at + 1).trim()
    if (at < 0 || !/^bip122:[0-9a-f]{32}$/.test(chainId) || !isHttpUrl(url))
      problems.push('BITCOIN_NODE_URLS must be bip122:<32 hex digits>=<http(s) URL>, comma separated')
    else nodes[chainId] = url.replace(/\/$/, '')
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return nodes
}

const LOOPBACK_ADDRESSES = new Set(['127.0.0.1', '::1'])

/**
 * The embedded wallet's slice: its frame (default on the service's host, `localhost` for a loopback
 * address, port 8788), mail, custody keys, social providers and Farcaster. Social problems, then
 * Farcaster ones, throw a {@link ConfigError}.
 *
 * @example
 * const embedded = embeddedConfig(embeddedEnv.parse(env), '127.0.0.1', env)
 */
export function embeddedConfig(
  values: z.output<typeof embeddedEnv>,
  host: string,
  env: SignInEnv,
): EmbeddedConfig {
  const framePort = values.FRAME_PORT === '' ? null : values.FRAME_PORT
  // WebAuthn refuses an IP address as RP ID: on loopback the frame's default URL names `localhost`,
  // which reaches the same listener, so passkeys work in development.
  const hostInUrl = LOOPBACK_ADDRESSES.has(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host
  const framePublicUrl = (values.FRAME_PUBLIC_URL ?? `http://${hostInUrl}:${framePort ?? 8788}`).replace(
    /\/$/,
    '',
  )
  return {
    framePort,
    framePublicUrl,
    social: socialConfig(env, framePublicUrl),
    farcaster: farcasterConfig(env),
    bitcoinNodes: bitcoinNodesConfig(env.BITCOIN_NODE_URLS),
    frameDir: values.FRAME_DIR,
    smtpUrl: values.SMTP_URL ?? null,
    mailFrom: values.MAIL_FROM,
    kek: values.WALLET_KEK ?? null,
    kekPrevious: values.WALLET_KEK_PREVIOUS,
    kekFile: values.WALLET_KEK_FILE,
    mailsPerHour: values.WALLET_MAILS_PER_HOUR,
  }
}
