/**
 * The elements as a framework's templates see them: attributes, the `config` property and the
 * `wallet-*` events, typed. The framework typings (`wallet-elements/react`, `/vue`, `/svelte`) are
 * built from these; the attributes' types are read off the tables in `elements/attribute-table.ts`,
 * so a new row there is typed here too. Types only: nothing here runs.
 * @module
 */
import type { WalletEventMap } from '../src/core/events/types.ts'
import type { ModalOptionsInput } from '../src/protocol/config.ts'
import type { AttributeRow, WALLET_BUTTON_ATTRIBUTES, WALLET_MODAL_ATTRIBUTES } from './attribute-table.ts'

/** The text a flag attribute takes: present (empty), `true`/`on` or `false`/`off`. */
type FlagAttributeValue = 'true' | 'false' | 'on' | 'off' | ''

/** The text one attribute takes, from its row: one of its values, a flag, or any text. */
type AttributeValue<Row extends AttributeRow> = Row extends { type: 'enum'; values: readonly (infer V)[] }
  ? V
  : Row extends { type: 'boolean' }
    ? FlagAttributeValue
    : string

/** An element's attributes, all optional, from its table. */
type AttributesOf<Table extends Record<string, AttributeRow>> = {
  -readonly [Name in keyof Table]?: AttributeValue<Table[Name]>
}

/** The attributes of `<wallet-modal>` (each is described in `elements/attribute-table.ts`). */
export type WalletModalAttributes = AttributesOf<typeof WALLET_MODAL_ATTRIBUTES>

/** The properties of `<wallet-modal>` a template may set. */
export interface WalletModalProperties {
  /** Options beyond the attributes; setting it replaces what it was set to before. */
  config?: ModalOptionsInput
}

/** The attributes (also properties) of `<wallet-button>` (each is described in `elements/attribute-table.ts`). */
export type WalletButtonAttributes = AttributesOf<typeof WALLET_BUTTON_ATTRIBUTES>

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
