/**
 * The elements as a framework's templates see them: attributes, the `config` property and the
 * `wallet-*` events, typed. The framework typings (`wallet-elements/react`, `/vue`, `/svelte`) are
 * built from these. Types only: nothing here runs.
 * @module
 */
import type { WalletEventMap } from '../src/core/events/types.ts'
import type { ModalOptionsInput, SiwxMode } from '../src/protocol/config.ts'

/** The attributes of `<wallet-modal>` (see its documentation for each). */
export interface WalletModalAttributes {
  'project-id'?: string
  'api-url'?: string
  'relay-url'?: string
  /** Project id at WalletConnect Cloud for the public relay (default: `project-id`). */
  'walletconnect-project-id'?: string
  'frame-url'?: string
  /** `sha384-…`: the frame build's published hash (its integrity.json `frame`); a mismatch is not loaded. */
  'frame-integrity'?: string
  /** CAIP-2 ids, comma separated. */
  networks?: string
  'default-network'?: string
  theme?: 'light' | 'dark' | 'system'
  accent?: string
  /** Comma separated: email, socials, farcaster, swaps, onramp, send, activity, names. */
  features?: string
  /** Comma separated: google, github, apple, facebook, x, discord. */
  socials?: string
  /** The EVM account a new embedded-wallet user starts on. */
  'default-account-type'?: 'eoa' | 'smartAccount'
  siwx?: SiwxMode
  locale?: string
  analytics?: 'true' | 'false' | 'on' | 'off' | ''
  /** Keep a client log in memory for `getLogs()` (a support page reads it). */
  debug?: 'true' | 'false' | 'on' | 'off' | ''
  /** Show the views in the page flow instead of a dialog. */
  inline?: 'true' | 'false' | 'on' | 'off' | ''
  /** `off` keeps the embedded wallet off the page's EIP-6963 and Wallet Standard lists. */
  announce?: 'true' | 'false' | 'on' | 'off' | ''
  'featured-wallet-ids'?: string
  'include-wallet-ids'?: string
  'exclude-wallet-ids'?: string
}

/** The properties of `<wallet-modal>` a template may set. */
export interface WalletModalProperties {
  /** Options beyond the attributes; setting it replaces what it was set to before. */
  config?: ModalOptionsInput
}

/** The attributes (also properties) of `<wallet-button>`. */
export interface WalletButtonAttributes {
  label?: string
  size?: 'sm' | 'md' | 'lg'
  balance?: 'show' | 'hide'
  namespace?: 'eip155' | 'solana'
}

/** A `wallet-*` event: a `CustomEvent` with the event's detail. */
export type WalletEvent<K extends keyof WalletEventMap> = CustomEvent<WalletEventMap[K]>

type Pascal<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Capitalize<Head>}${Pascal<Tail>}`
  : Capitalize<S>

/** Handlers named the way React 19 and Svelte 5 listen to a custom element's events: `onwallet-connect`. */
export type WalletEventAttributes = {
  [K in keyof WalletEventMap as `onwallet-${K}`]?: (event: WalletEvent<K>) => void
}

/** Handlers named the way Vue listens to an event (`@wallet-connect` is `onWalletConnect`). */
export type WalletEventProps = {
  [K in keyof WalletEventMap as `onWallet${Pascal<K>}`]?: (event: WalletEvent<K>) => void
}
