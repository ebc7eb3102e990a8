import * as z from 'zod/mini'
import type { CaipNetworkId } from './caip.ts'
import { CaipNetworkIdSchema, parseCaipNetworkIdList } from './caip.ts'
import { DEFAULT_NETWORK_ID } from './constants.ts'
import type { Network } from './entities.ts'
import type { SocialProvider } from './optionRules.ts'
import {
  AccentSchema,
  AccountTypeAttributeSchema,
  SocialProviderSchema,
  ThemeAttributeSchema,
} from './optionRules.ts'
import { validate } from './validation.ts'

export const FEATURES = [
  'email',
  'socials',
  'farcaster',
  'swaps',
  'onramp',
  'send',
  'activity',
  'names',
] as const
export type Feature = (typeof FEATURES)[number]
export const SiwxModeSchema = z.enum(['off', 'optional', 'required'], {
  error: 'Expected off, optional or required',
})
export type SiwxMode = z.infer<typeof SiwxModeSchema>

/** A sign-in session (SPEC section 3): the message's fields, its text, the signature and the CACAO. */
export interface SiwxSession {
  data: Record<string, unknown> & { accountAddress: string; chainId: string }
  message: string
  signature: string
  cacao: unknown
}

/**
 * A site's own sign-in backend, given as `config.siwx` instead of a mode: the modal builds the
 * message and gets the signature; the site verifies it and keeps the sessions.
 *
 * @example
 * modal.config = { siwx: { required: true, addSession, getSessions, revokeSession } }
 */
export interface SiwxVerifier {
  /** No connected state counts until a session exists (default: optional). */
  required?: boolean | undefined
  /** Statement shown in the message. */
  statement?: string | undefined
  /** A fresh nonce for a message (default: the companion service's `/auth/v1/nonce`). */
  getNonce?: ((input: { address: string; chainId: CaipNetworkId }) => Promise<string>) | undefined
  /** Verifies a signed message and keeps the session; rejects to refuse it. */
  addSession(session: SiwxSession): Promise<void>
  /** The sessions kept for an account on a network; empty when there are none. */
  getSessions(chainId: CaipNetworkId, address: string): Promise<readonly SiwxSession[]>
  /** Forgets the account's sessions (sign-out and disconnect). */
  revokeSession(chainId: CaipNetworkId, address: string): Promise<void>
}

/** The message for a `config.siwx` object that is not a verifier, or undefined when it is one. */
function verifierProblem(value: Record<string, unknown>): string | undefined {
  for (const name of ['addSession', 'getSessions', 'revokeSession'])
    if (typeof value[name] !== 'function') return `${name} must be a function`
  if (value.getNonce !== undefined && typeof value.getNonce !== 'function')
    return 'getNonce must be a function'
  if (value.required !== undefined && typeof value.required !== 'boolean')
    return 'required must be true or false'
  return undefined
}

/** The validated options of one modal: attributes plus the `config` property. */
export interface ModalOptions {
  projectId: string | undefined
  apiUrl: string | undefined
  relayUrl: string | undefined
  /**
   * The WalletConnect Cloud project id the sign-client gives the relay (its `projectId`); unset, the
   * relay gets `projectId` (the companion service's project), as before this option existed.
   */
  walletConnectProjectId: string | undefined
  frameUrl: string | undefined
  /** The frame build's published hash: a frame page that does not match is never loaded (unset: none). */
  frameIntegrity?: string | undefined
  networks: readonly CaipNetworkId[]
  defaultNetwork: CaipNetworkId | undefined
  theme: 'light' | 'dark' | 'system'
  accent: string | undefined
  features: Readonly<Record<Feature, boolean>>
  socials: readonly SocialProvider[]
  /** The EVM account type a new embedded-wallet user starts on (they switch on the Account view). */
  defaultAccountType: 'eoa' | 'smartAccount'
  siwx: SiwxMode
  /** The site's own sign-in backend (`config.siwx` as an object); the service's when undefined. */
  siwxVerifier: SiwxVerifier | undefined
  /** Language of the views (a BCP 47 tag); undefined follows the browser's languages. */
  locale: string | undefined
  /** Render the views in the page flow (SPEC section 2, embedded mode) rather than as a dialog. */
  inline: boolean
  /** With the embedded wallet on, announce it to the page's dapps (EIP-6963, Wallet Standard). */
  announce: boolean
  /**
   * RPC URLs per network, tried in order with a fallback (the `config` property only); a network
   * not listed uses the companion service's proxy first, then its default RPC.
   */
  rpcUrls: Readonly<Record<string, readonly string[]>>
  /** Networks the site defines itself (the `config` property only). */
  customNetworks: readonly Network[]
  /** Analytics are opt-in. */
  analytics: boolean
  /** Keep a client log in memory for `getLogs()` (the `debug` attribute). */
  enableLogger: boolean
  /** Catalogue wallets shown first on Connect, in this order (default: the catalogue's first 4). */
  featuredWalletIds: readonly string[]
  /** Only these catalogue wallets (empty: all). */
  includeWalletIds: readonly string[]
  /** Never these catalogue wallets. */
  excludeWalletIds: readonly string[]
}

/**
 * Options as a page writes them, for `createConfig` and the `config` property of `<wallet-modal>`:
 * typed, so a wrong value does not compile, and still checked at run time (a page may be plain
 * JavaScript). Lists take an array or, like the attributes, a comma-separated string. Leaving an
 * option out (or `undefined`) gives it its default.
 *
 * @example
 * const options: ModalOptionsInput = { networks: ['eip155:1', 'eip155:8453'], theme: 'dark' }
 */
export interface ModalOptionsInput {
  projectId?: string | undefined
  apiUrl?: string | undefined
  relayUrl?: string | undefined
  /** Project id at WalletConnect Cloud, for the public relay (default: `projectId`). */
  walletConnectProjectId?: string | undefined
  frameUrl?: string | undefined
  /** `sha384-…`, the `frame` value of the frame build's integrity.json (`npm run frame:hash`). */
  frameIntegrity?: string | undefined
  networks?: readonly CaipNetworkId[] | string | undefined
  defaultNetwork?: CaipNetworkId | undefined
  theme?: ModalOptions['theme'] | undefined
  accent?: string | undefined
  /** The features to turn on, or some features each on or off (the others keep their defaults). */
  features?: readonly Feature[] | Partial<Record<Feature, boolean>> | string | undefined
  socials?: readonly SocialProvider[] | string | undefined
  defaultAccountType?: ModalOptions['defaultAccountType'] | undefined
  /** A mode, or the site's own sign-in backend. */
  siwx?: SiwxMode | SiwxVerifier | undefined
  locale?: string | undefined
  /** `false` keeps the embedded wallet off the page's EIP-6963 and Wallet Standard lists (default `true`). */
  announce?: boolean | undefined
  /** RPC URL, or URLs in the order to try them, per CAIP-2 network id. */
  rpcUrls?: Readonly<Record<string, string | readonly string[]>> | undefined
  customNetworks?: readonly Network[] | undefined
  analytics?: boolean | undefined
  enableLogger?: boolean | undefined
  featuredWalletIds?: readonly string[] | string | undefined
  includeWalletIds?: readonly string[] | string | undefined
  excludeWalletIds?: readonly string[] | string | undefined
}

/** Options as they arrive from outside the type system (attributes, plain JavaScript): each is checked. */
export type UncheckedOptions = Partial<Record<keyof ModalOptions, unknown>>

export const DEFAULT_OPTIONS: ModalOptions = {
  projectId: undefined,
  apiUrl: undefined,
  relayUrl: undefined,
  walletConnectProjectId: undefined,
  frameUrl: undefined,
  networks: [DEFAULT_NETWORK_ID],
  defaultNetwork: undefined,
  theme: 'system',
  accent: undefined,
  features: {
    email: false,
    socials: false,
    farcaster: false,
    swaps: false,
    onramp: false,
    send: true,
    activity: true,
    names: false,
  },
  socials: [],
  defaultAccountType: 'eoa',
  siwx: 'off',
  siwxVerifier: undefined,
  locale: undefined,
  inline: false,
  announce: true,
  rpcUrls: {},
  customNetworks: [],
  analytics: false,
  enableLogger: false,
  featuredWalletIds: [],
  includeWalletIds: [],
  excludeWalletIds: [],
}

const UrlSchema = z.string().check(
  z.refine((value) => /^(https?|wss?):\/\/[^\s]+$/.test(value), {
    error: 'Expected an http(s) or ws(s) URL',
  }),
)
const TextSchema = z.string().check(z.minLength(1, { error: 'Required' }), z.maxLength(200))

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean)

const WalletIdSchema = z.string().check(z.regex(/^[A-Za-z0-9._-]{1,128}$/, { error: 'Invalid wallet id' }))

function walletIds(value: unknown): { value: readonly string[] } | { message: string } {
  const ids = typeof value === 'string' ? list(value) : value
  const result = validate(z.array(WalletIdSchema), ids)
  return result.ok ? { value: result.value } : { message: result.message }
}

/** A boolean option; as an attribute, present (`<wallet-modal inline>`), `true`/`on` or `false`/`off`. */
function flag(value: unknown): { value: boolean } | { message: string } {
  if (typeof value === 'boolean') return { value }
  if (value === 'true' || value === 'on' || value === '') return { value: true }
  if (value === 'false' || value === 'off') return { value: false }
  return { message: 'Expected true or false' }
}

type Parser<K extends keyof ModalOptions> = (
  value: unknown,
) => { value: ModalOptions[K] } | { message: string }

function fromSchema<K extends keyof ModalOptions>(schema: z.ZodMiniType): Parser<K> {
  return (value) => {
    const result = validate(schema, value)
    return result.ok ? { value: result.value as ModalOptions[K] } : { message: result.message }
  }
}

const parsers: { [K in keyof ModalOptions]: Parser<K> } = {
  projectId: fromSchema(TextSchema),
  apiUrl: fromSchema(UrlSchema),
  relayUrl: fromSchema(UrlSchema),
  walletConnectProjectId: fromSchema(TextSchema),
  frameUrl: fromSchema(UrlSchema),
  // Its form (`sha384-` and 64 base64 characters) is checked by the lazily loaded embedded connector,
  // before any load: the first paint's budget has no room for the pattern.
  frameIntegrity: fromSchema(TextSchema),
  networks: (value) => {
    if (Array.isArray(value)) value = value.join(',')
    if (typeof value !== 'string') return { message: 'Expected a list of CAIP-2 network ids' }
    const parsed = parseCaipNetworkIdList(value)
    if (!parsed.ok) return { message: parsed.message }
    return parsed.value.length === 0 ? { message: 'Invalid CAIP-2 network id' } : { value: parsed.value }
  },
  defaultNetwork: fromSchema(CaipNetworkIdSchema),
  theme: fromSchema(ThemeAttributeSchema),
  accent: fromSchema(AccentSchema),
  features: (value) => {
    const names = typeof value === 'string' ? list(value) : Array.isArray(value) ? value : undefined
    if (names) {
      const unknown = names.find((name) => !FEATURES.includes(name as Feature))
      if (unknown !== undefined) return { message: `Unknown feature: ${String(unknown)}` }
      return {
        value: Object.fromEntries(FEATURES.map((feature) => [feature, names.includes(feature)])) as Record<
          Feature,
          boolean
        >,
      }
    }
    if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value)
      const bad = entries.find(([name, on]) => !FEATURES.includes(name as Feature) || typeof on !== 'boolean')
      if (bad) return { message: `Unknown feature: ${bad[0]}` }
      return { value: { ...DEFAULT_OPTIONS.features, ...(value as Record<Feature, boolean>) } }
    }
    return { message: 'Expected a list of features' }
  },
  socials: (value) => {
    const names = typeof value === 'string' ? list(value) : value
    return fromSchema<'socials'>(z.array(SocialProviderSchema))(names)
  },
  defaultAccountType: fromSchema(AccountTypeAttributeSchema),
  siwx: fromSchema(SiwxModeSchema),
  siwxVerifier: (value) => {
    const problem =
      typeof value === 'object' && value !== null
        ? verifierProblem(value as Record<string, unknown>)
        : 'Expected a sign-in verifier'
    return problem ? { message: problem } : { value: value as SiwxVerifier }
  },
  locale: fromSchema(
    z.string().check(z.regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { error: 'Invalid locale' })),
  ),
  rpcUrls: (value) => {
    const result = validate(
      z.record(CaipNetworkIdSchema, z.union([UrlSchema, z.array(UrlSchema).check(z.minLength(1))])),
      value,
    )
    if (!result.ok) return { message: result.message }
    return {
      value: Object.fromEntries(
        Object.entries(result.value).map(([id, urls]) => [id, typeof urls === 'string' ? [urls] : urls]),
      ),
    }
  },
  // Each definition is checked against NetworkSchema when networks load (off the first paint).
  customNetworks: (value) =>
    Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null)
      ? { value: value as Network[] }
      : { message: 'Expected an array of network definitions' },
  analytics: flag,
  enableLogger: flag,
  inline: flag,
  announce: flag,
  featuredWalletIds: walletIds,
  includeWalletIds: walletIds,
  excludeWalletIds: walletIds,
}

/** The attribute that carries each option on `<wallet-modal>` (kebab-case). */
export const OPTION_ATTRIBUTES = {
  projectId: 'project-id',
  apiUrl: 'api-url',
  relayUrl: 'relay-url',
  walletConnectProjectId: 'walletconnect-project-id',
  frameUrl: 'frame-url',
  frameIntegrity: 'frame-integrity',
  networks: 'networks',
  defaultNetwork: 'default-network',
  theme: 'theme',
  accent: 'accent',
  features: 'features',
  socials: 'socials',
  defaultAccountType: 'default-account-type',
  siwx: 'siwx',
  siwxVerifier: 'config.siwx',
  locale: 'locale',
  inline: 'inline',
  announce: 'announce',
  rpcUrls: 'config.rpcUrls',
  customNetworks: 'config.customNetworks',
  analytics: 'analytics',
  enableLogger: 'debug',
  featuredWalletIds: 'featured-wallet-ids',
  includeWalletIds: 'include-wallet-ids',
  excludeWalletIds: 'exclude-wallet-ids',
} as const satisfies Record<keyof ModalOptions, string>

export interface OptionIssue {
  option: keyof ModalOptions
  /** The attribute or property path the bad value came from. */
  source: string
  message: string
}

/**
 * Validates each given option on its own: good values are kept, a bad one keeps its value in
 * `base` and is reported, so one typo never leaves the page without a modal. `from` names where the
 * values came from in the issues: the attribute (`theme`) or the `config` property (`config.theme`).
 *
 * @example
 * parseOptions({ networks: 'foo' }).issues[0]?.message // 'Invalid CAIP-2 network id'
 */
export function parseOptions(
  input: UncheckedOptions,
  base: ModalOptions = DEFAULT_OPTIONS,
  from: 'attributes' | 'property' = 'attributes',
): { options: ModalOptions; issues: OptionIssue[] } {
  const sourceOf = (key: keyof ModalOptions) =>
    from === 'property' ? `config.${key === 'siwxVerifier' ? 'siwx' : key}` : OPTION_ATTRIBUTES[key]
  const options: Record<string, unknown> = { ...base }
  const issues: OptionIssue[] = []
  const entries = Object.entries(input) as [keyof ModalOptions, unknown][]
  // `config.siwx` as an object is the site's own verifier; its `required` flag gives the mode.
  const siwx = input.siwx
  if (typeof siwx === 'object' && siwx !== null) {
    const index = entries.findIndex(([key]) => key === 'siwx')
    const problem = verifierProblem(siwx as Record<string, unknown>)
    const required = (siwx as { required?: unknown }).required === true
    if (!problem)
      entries.splice(index, 1, ['siwxVerifier', siwx], ['siwx', required ? 'required' : 'optional'])
    else {
      entries.splice(index, 1)
      issues.push({ option: 'siwx', source: 'config.siwx', message: problem })
    }
  } else if (typeof siwx === 'string') {
    options.siwxVerifier = undefined
  }
  for (const [key, raw] of entries) {
    const parser = parsers[key] as Parser<typeof key> | undefined
    if (!parser) continue
    // A bare boolean attribute (`<wallet-modal analytics>`) is an empty string that means on.
    if (
      raw === undefined ||
      raw === null ||
      (raw === '' && key !== 'analytics' && key !== 'inline' && key !== 'enableLogger')
    ) {
      options[key] = DEFAULT_OPTIONS[key]
      continue
    }
    const result = parser(raw)
    if ('value' in result) options[key] = result.value
    else issues.push({ option: key, source: sourceOf(key), message: result.message })
  }
  return { options: options as unknown as ModalOptions, issues }
}

/** Names `parseOptions` does not know (it skips them): the `config` property reports them. */
export function unknownOptions(input: object): string[] {
  return Object.keys(input).filter((key) => key === 'siwxVerifier' || !(key in DEFAULT_OPTIONS))
}
