import * as z from 'zod/mini'
import { caip2NetworkId } from './common.ts'

/**
 * The name registry of the companion service (`/names/v1/*`, SPEC sections 5 and 7): wallet-side names
 * under the service's suffix (`alice.wallet.test`), registered by a message the account signs, with
 * forward lookup (name -> addresses list), reverse lookup and the profile (name, avatar) by address.
 */

/** Error codes of the names API besides the common ones. */
export const namesErrorCodes = [
  'NAMES_DISABLED',
  'NAME_TAKEN',
  'NAME_NOT_FOUND',
  'NAME_MESSAGE_INVALID',
] as const

export type NamesErrorCode = (typeof namesErrorCodes)[number]

/** The SPEC section 5 rule, word for word: the message of a name that breaks it. */
export const NAME_RULE_MESSAGE = 'Wallet-side name: letters, digits and hyphens, at least 4 characters'

/** Fewest characters of a name's label (SPEC 5). */
export const NAME_MIN_LENGTH = 4
/** Most characters of a name's label (a DNS label, so ENS tools can carry it). */
export const NAME_MAX_LENGTH = 63

const labelPattern = /^[A-Za-z0-9-]+$/

/**
 * Whether a label follows the SPEC section 5 rule (letters, digits, hyphens, 4 to 63 characters).
 *
 * @example
 * isNameLabel('alice') // true; isNameLabel('abc') // false
 */
export const isNameLabel = (label: string): boolean =>
  label.length >= NAME_MIN_LENGTH && label.length <= NAME_MAX_LENGTH && labelPattern.test(label)

/** A name's label as typed (the part before the suffix), lower-cased by the service. */
export const nameLabel = z.string().check(z.refine(isNameLabel, NAME_RULE_MESSAGE))

/** An account address: EVM (`0x` and 40 hex digits) or Solana (base58, 32 to 44 characters). */
export const accountAddress = z
  .string()
  .check(z.regex(/^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/, 'Expected an EVM or Solana address'))

/** A full name, `label.suffix`, up to 255 characters. */
export const fullName = z
  .string()
  .check(
    z.regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, 'Expected a name such as alice.wallet.test'),
    z.maxLength(255),
  )

/** Query of `GET /names/v1/check`: is this label free? */
export const nameCheckQuery = z.object({ name: nameLabel })

/**
 * Answer of `GET /names/v1/check?name=`: the full name, whether it is free, and up to 3 free names
 * like it when it is not.
 */
export const nameCheckResponse = z.object({
  name: z.string(),
  available: z.boolean(),
  suggestions: z.array(z.string()),
})

export type NameCheckResponse = z.infer<typeof nameCheckResponse>

/** Most bytes of a registration message. */
export const maxNameMessageBytes = 1024

/**
 * Body of `POST /names/v1/register`: the label, the account and network that sign, the message built by
 * {@link nameRegistrationMessage} and its signature.
 */
export const nameRegisterBody = z.object({
  name: nameLabel,
  address: accountAddress,
  chainId: caip2NetworkId,
  message: z.string().check(z.maxLength(maxNameMessageBytes)),
  signature: z.string().check(z.maxLength(20_000)),
})

export type NameRegisterBody = z.infer<typeof nameRegisterBody>

/** One address a name resolves to (SPEC 7: name resolution returns an addresses list). */
export const nameAddress = z.object({ address: z.string(), chainId: z.string() })

/** A registered name: the full name, the addresses it resolves to, and the avatar (null: none). */
export const nameRecord = z.object({
  name: z.string(),
  addresses: z.array(nameAddress),
  avatar: z.nullable(z.string()),
  registeredAt: z.string(),
})

export type NameRecord = z.infer<typeof nameRecord>

/** Query of `GET /names/v1/resolve`. */
export const nameResolveQuery = z.object({ name: fullName })

/** Query of `GET /names/v1/reverse` and `GET /names/v1/profile`. */
export const nameAddressQuery = z.object({ address: accountAddress })

/** Answer of `GET /names/v1/reverse?address=`: the names of the address, primary first. */
export const nameReverseResponse = z.object({ names: z.array(z.string()) })

/** Answer of `GET /names/v1/profile?address=` (SPEC 3: profile name and image); nulls when it has none. */
export const profileResponse = z.object({
  address: z.string(),
  name: z.nullable(z.string()),
  avatar: z.nullable(z.string()),
})

export type ProfileResponse = z.infer<typeof profileResponse>

export interface NameMessageParameters {
  /** The site's host, as in a sign-in message. */
  domain: string
  /** The full name, `label.suffix`. */
  name: string
  address: string
  chainId: string
  /** ISO 8601. */
  issuedAt: string
}

/**
 * The message an account signs to register a name; the service rebuilds it from the fields it reads
 * back and accepts only an exact match, issued within 10 minutes.
 *
 * @example
 * nameRegistrationMessage({ domain: 'example.com', name: 'alice.wallet.test', address, chainId: 'eip155:1', issuedAt })
 */
export function nameRegistrationMessage(parameters: NameMessageParameters): string {
  return nameMessage(registration, parameters)
}

/** What an account may sign about its name; the first line of the message says which. */
type NameMessageKind = { action: 'register' | 'release'; preposition: 'for' | 'of'; pattern: RegExp }

const field = (name: keyof NameMessageParameters, max: number) => `(?<${name}>[^\\s]{1,${max}})`

function nameMessageKind(action: NameMessageKind['action'], preposition: NameMessageKind['preposition']) {
  const pattern = new RegExp(
    `^${field('domain', 253)} asks you to ${action} the name ${field('name', 255)} ${preposition} your account:\\n` +
      `${field('address', 64)}\\n\\nNetwork: ${field('chainId', 80)}\\nIssued At: ${field('issuedAt', 40)}$`,
  )
  return { action, preposition, pattern }
}

const registration = nameMessageKind('register', 'for')
const release = nameMessageKind('release', 'of')

function nameMessage(kind: NameMessageKind, parameters: NameMessageParameters): string {
  return [
    `${parameters.domain} asks you to ${kind.action} the name ${parameters.name} ${kind.preposition} your account:`,
    parameters.address,
    '',
    `Network: ${parameters.chainId}`,
    `Issued At: ${parameters.issuedAt}`,
  ].join('\n')
}

/** Reads a message of that kind back into its fields, accepted only when it rebuilds to the same text. */
function parseNameMessage(kind: NameMessageKind, message: string): NameMessageParameters | null {
  const groups = kind.pattern.exec(message)?.groups
  if (!groups) return null
  const parsed = {
    domain: groups.domain ?? '',
    name: groups.name ?? '',
    address: groups.address ?? '',
    chainId: groups.chainId ?? '',
    issuedAt: groups.issuedAt ?? '',
  }
  return nameMessage(kind, parsed) === message ? parsed : null
}

/**
 * Reads a registration message back into its fields; null when it is not one.
 *
 * @example
 * const fields = parseNameRegistrationMessage(body.message)
 */
export function parseNameRegistrationMessage(message: string): NameMessageParameters | null {
  return parseNameMessage(registration, message)
}

/**
 * Body of `POST /names/v1/release`: the account gives up its name by the
 * {@link nameReleaseMessage} it signs (the same rules as a registration: this site, this account and
 * network, issued within 10 minutes, newer than the account's last signed message).
 */
export const nameReleaseBody = z.object({
  address: accountAddress,
  chainId: caip2NetworkId,
  message: z.string().check(z.maxLength(maxNameMessageBytes)),
  signature: z.string().check(z.maxLength(20_000)),
})

export type NameReleaseBody = z.infer<typeof nameReleaseBody>

/** Answer of `POST /names/v1/release`: the name given up; the account's profile has no name now. */
export const nameReleaseResponse = z.object({ released: z.string() })

export type NameReleaseResponse = z.infer<typeof nameReleaseResponse>

/**
 * The message an account signs to release its name; the service rebuilds it from the fields it reads
 * back and accepts only an exact match, as for a registration.
 *
 * @example
 * nameReleaseMessage({ domain: 'example.com', name: 'alice.wallet.test', address, chainId: 'eip155:1', issuedAt })
 */
export function nameReleaseMessage(parameters: NameMessageParameters): string {
  return nameMessage(release, parameters)
}

/**
 * Reads a release message back into its fields; null when it is not one.
 *
 * @example
 * const fields = parseNameReleaseMessage(body.message)
 */
export function parseNameReleaseMessage(message: string): NameMessageParameters | null {
  return parseNameMessage(release, message)
}

/** How long a registration message is good for after its `Issued At`. */
export const NAME_MESSAGE_TTL_MS = 10 * 60_000
