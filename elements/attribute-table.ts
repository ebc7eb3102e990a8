/**
 * The attributes of `<wallet-modal>` and `<wallet-button>`, one row each: the one place an attribute
 * is named, typed, given its default and described. From these tables come the framework typings
 * (`elements/attributes.ts`), the manifest (`custom-elements.json`, through the analyzer plugin in
 * `scripts/manifestPlugin.ts`) and so the generated reference (`docs/reference/elements.md`).
 *
 * The elements themselves do not import this file: its descriptions would count against the first
 * paint's byte budget. What they run is checked against it instead, at compile time: the modal's
 * attributes are `OPTION_ATTRIBUTES` of `src/protocol/config.ts` (the option parser names its
 * sources by them), and the table below must have exactly one row per attribute there, each naming
 * its option; the button's r2wc props must name exactly the properties below. A test
 * (`test/unit/package/elements-manifest.test.ts`) compares the element, the typings and the manifest.
 * @module
 */
import type { ModalOptions, OPTION_ATTRIBUTES } from '../src/protocol/config.ts'
import { FEATURES, SiwxModeSchema } from '../src/protocol/config.ts'
import {
  AccountTypeAttributeSchema,
  SocialProviderSchema,
  ThemeAttributeSchema,
} from '../src/protocol/optionRules.ts'

/**
 * One attribute. `type` says how its text is read: `string` as it is, `list` as comma-separated
 * items, `boolean` as a flag (present, `true`/`on`, or `false`/`off`), `enum` as one of `values`.
 * `default` is the attribute text that means what leaving it out means, when one does.
 */
export type AttributeRow<Property extends string = string> = {
  /** The property that carries the same value: the element's own, or for `<wallet-modal>` the `config` option. */
  readonly property: Property
  readonly default?: string
  readonly description: string
} & (
  | { readonly type: 'string' | 'list' | 'boolean' }
  | { readonly type: 'enum'; readonly values: readonly string[] }
)

type OptionAttributes = typeof OPTION_ATTRIBUTES

/** The attributes `<wallet-modal>` observes: the options that have one (the others are `config.*` only). */
export type WalletModalAttributeName = Exclude<OptionAttributes[keyof OptionAttributes], `config.${string}`>

/** The option an attribute of `<wallet-modal>` carries. */
type OptionOf<Name extends WalletModalAttributeName> = {
  [Option in keyof ModalOptions]-?: OptionAttributes[Option] extends Name ? Option : never
}[keyof ModalOptions]

/**
 * `<wallet-modal>`: one row per attribute, keyed by its name, in the order the reference lists them.
 *
 * @example
 * WALLET_MODAL_ATTRIBUTES.theme.default // 'system'
 */
export const WALLET_MODAL_ATTRIBUTES = {
  'project-id': {
    property: 'projectId',
    type: 'string',
    description: 'Project id at the companion service.',
  },
  'api-url': {
    property: 'apiUrl',
    type: 'string',
    description: 'URL of the companion service.',
  },
  'relay-url': {
    property: 'relayUrl',
    type: 'string',
    default: 'wss://relay.walletconnect.org',
    description: "WalletConnect relay URL (the default is WalletConnect's public relay).",
  },
  'walletconnect-project-id': {
    property: 'walletConnectProjectId',
    type: 'string',
    description:
      'Project id at WalletConnect Cloud, which the public relay requires; the relay gets `project-id` when unset.',
  },
  'frame-url': {
    property: 'frameUrl',
    type: 'string',
    description: 'URL of the embedded-wallet frame.',
  },
  'frame-integrity': {
    property: 'frameIntegrity',
    type: 'string',
    description:
      "The frame build's published hash (`sha384-…`, `npm run frame:hash`): a frame page that does not match it is not loaded.",
  },
  networks: {
    property: 'networks',
    type: 'list',
    default: 'eip155:1',
    description: 'CAIP-2 network ids, comma separated.',
  },
  'default-network': {
    property: 'defaultNetwork',
    type: 'string',
    description: 'The network selected before a wallet connects.',
  },
  theme: {
    property: 'theme',
    type: 'enum',
    values: ThemeAttributeSchema.options,
    default: 'system',
    description: 'Colour scheme.',
  },
  accent: {
    property: 'accent',
    type: 'string',
    description: 'Accent colour (a CSS colour).',
  },
  features: {
    property: 'features',
    type: 'list',
    default: 'send,activity',
    description: `Features to enable: ${FEATURES.join(', ')}.`,
  },
  socials: {
    property: 'socials',
    type: 'list',
    description: `Social providers, in the order shown: ${SocialProviderSchema.options.join(', ')}; all of them when unset.`,
  },
  'default-account-type': {
    property: 'defaultAccountType',
    type: 'enum',
    values: AccountTypeAttributeSchema.options,
    default: 'eoa',
    description: 'The EVM account a new e-mail or social user starts on; they switch on Account.',
  },
  siwx: {
    property: 'siwx',
    type: 'enum',
    values: SiwxModeSchema.options,
    default: 'off',
    description: 'Sign in with the wallet.',
  },
  'featured-wallet-ids': {
    property: 'featuredWalletIds',
    type: 'list',
    description:
      "Catalogue wallet ids, comma separated, shown first on Connect in this order; the catalogue's first 4 when unset.",
  },
  'include-wallet-ids': {
    property: 'includeWalletIds',
    type: 'list',
    description:
      'Catalogue wallet ids, comma separated: Connect and AllWallets show only these; all when unset.',
  },
  'exclude-wallet-ids': {
    property: 'excludeWalletIds',
    type: 'list',
    description: 'Catalogue wallet ids, comma separated, that Connect and AllWallets never show.',
  },
  locale: {
    property: 'locale',
    type: 'string',
    description:
      "Language of the views (en, es, fr, de, pt-BR, it, ja, ko, zh-CN, ru, tr, ar); the browser's language when unset.",
  },
  inline: {
    property: 'inline',
    type: 'boolean',
    default: 'false',
    description:
      'Show the views in the page flow instead of a dialog; closing returns to Account or Connect.',
  },
  announce: {
    property: 'announce',
    type: 'boolean',
    default: 'true',
    description:
      "With the embedded wallet on, announce it to the page's dapps (EIP-6963, Wallet Standard); `off` does not.",
  },
  analytics: {
    property: 'analytics',
    type: 'boolean',
    default: 'false',
    description:
      'Opt in to analytics, errors included (at most 5 a minute); sent only when the companion service also has them on.',
  },
  debug: {
    property: 'enableLogger',
    type: 'boolean',
    default: 'false',
    description: 'Keep a client log in memory (about 1 MB, secrets removed) that `getLogs()` returns.',
  },
} as const satisfies { [Name in WalletModalAttributeName]: AttributeRow<OptionOf<Name>> }

/**
 * `<wallet-button>`: one row per attribute, keyed by its name. Each is also a property of the same
 * name, which r2wc reflects to the attribute.
 *
 * @example
 * WALLET_BUTTON_ATTRIBUTES.size.values // ['sm', 'md', 'lg']
 */
export const WALLET_BUTTON_ATTRIBUTES = {
  label: {
    property: 'label',
    type: 'string',
    description: 'Text while disconnected (default "Connect Wallet", in the language of the views).',
  },
  size: {
    property: 'size',
    type: 'enum',
    values: ['sm', 'md', 'lg'],
    default: 'md',
    description: 'Size of the button.',
  },
  balance: {
    property: 'balance',
    type: 'enum',
    values: ['show', 'hide'],
    default: 'show',
    description: 'Whether to show the balance when connected.',
  },
  namespace: {
    property: 'namespace',
    type: 'enum',
    values: ['eip155', 'solana'],
    description: "Which namespace's account to show; the active one when unset.",
  },
} as const satisfies Record<string, AttributeRow>

/** Every element's table, by tag: what the manifest plugin, the reference and the test walk. */
export const ELEMENT_ATTRIBUTES = {
  'wallet-modal': WALLET_MODAL_ATTRIBUTES,
  'wallet-button': WALLET_BUTTON_ATTRIBUTES,
} as const satisfies Record<string, Record<string, AttributeRow>>
