import * as z from 'zod/mini'
import { caip2NetworkId } from './common.ts'
import { accountAddress, maxNameMessageBytes } from './names.ts'

/**
 * Profile images of wallet-side names: the account that holds a name sets its image by a message it signs,
 * like a registration (`POST /names/v1/avatar`). The image is an `https://` URL (no other scheme: no
 * `data:`, `javascript:`, `http:`, nor ENSIP-12 NFT references, which the modal could not show without
 * reading the token), at most {@link AVATAR_MAX_LENGTH} characters, without credentials; null clears it.
 * It is served by `GET /names/v1/profile` and as the ENS `avatar` text record.
 */

/** Most characters of an image URL. */
export const AVATAR_MAX_LENGTH = 512

/** The message of an image URL the service refuses. */
export const AVATAR_RULE_MESSAGE = `Profile image: an https:// URL of at most ${AVATAR_MAX_LENGTH} characters`

/**
 * Whether `value` is an image URL the service keeps: `https:`, parseable, no user or password, no
 * spaces, control characters or markup quotes, at most {@link AVATAR_MAX_LENGTH} characters.
 *
 * @example
 * isAvatarUrl('https://example.com/me.png') // true; isAvatarUrl('javascript:alert(1)') // false
 */
export function isAvatarUrl(value: string): boolean {
  // Printable ASCII only (no spaces, controls or lookalikes), and none of the characters that end markup.
  if (value.length > AVATAR_MAX_LENGTH || !/^https:\/\/[\x21-\x7e]+$/.test(value) || /["'<>\\`]/.test(value))
    return false
  try {
    const url = new URL(value)
    return url.protocol === 'https:' && url.username === '' && url.password === '' && url.hostname !== ''
  } catch {
    return false
  }
}

/** An image URL as {@link isAvatarUrl} accepts it. */
export const avatarUrl = z.string().check(z.refine(isAvatarUrl, AVATAR_RULE_MESSAGE))

export interface AvatarMessageParameters {
  /** The site's host, as in a sign-in message. */
  domain: string
  /** The account's full name, `label.suffix`. */
  name: string
  /** The image URL; null clears it. */
  avatar: string | null
  address: string
  chainId: string
  /** ISO 8601. */
  issuedAt: string
}

/**
 * The message an account signs to set (or clear) its profile image; the service rebuilds it from the
 * fields it reads back, accepts only an exact match issued within 10 minutes and newer than the
 * account's last signed message (a replay is refused).
 *
 * @example
 * avatarUpdateMessage({ domain: 'example.com', name: 'alice.wallet.test', avatar: 'https://example.com/a.png', address, chainId: 'eip155:1', issuedAt })
 */
export function avatarUpdateMessage(parameters: AvatarMessageParameters): string {
  return [
    `${parameters.domain} asks you to set the profile image of ${parameters.name} to:`,
    parameters.avatar ?? 'none',
    '',
    `Account: ${parameters.address}`,
    `Network: ${parameters.chainId}`,
    `Issued At: ${parameters.issuedAt}`,
  ].join('\n')
}

const messagePattern =
  /^(?<domain>[^\s]{1,253}) asks you to set the profile image of (?<name>[^\s]{1,255}) to:\n(?<avatar>[^\s]{1,512})\n\nAccount: (?<address>[^\s]{1,64})\nNetwork: (?<chainId>[^\s]{1,80})\nIssued At: (?<issuedAt>[^\s]{1,40})$/

/**
 * Reads an image message back into its fields; null when it is not one.
 *
 * @example
 * const fields = parseAvatarUpdateMessage(body.message)
 */
export function parseAvatarUpdateMessage(message: string): AvatarMessageParameters | null {
  const groups = messagePattern.exec(message)?.groups
  if (!groups) return null
  const parsed = {
    domain: groups.domain ?? '',
    name: groups.name ?? '',
    avatar: groups.avatar === 'none' ? null : (groups.avatar ?? ''),
    address: groups.address ?? '',
    chainId: groups.chainId ?? '',
    issuedAt: groups.issuedAt ?? '',
  }
  return avatarUpdateMessage(parsed) === message ? parsed : null
}

/**
 * Body of `POST /names/v1/avatar`: the account and network that sign, the image (null: none), the
 * message built by {@link avatarUpdateMessage} and its signature.
 */
export const avatarUpdateBody = z.object({
  address: accountAddress,
  chainId: caip2NetworkId,
  avatar: z.nullable(avatarUrl),
  message: z.string().check(z.maxLength(maxNameMessageBytes)),
  signature: z.string().check(z.maxLength(20_000)),
})

export type AvatarUpdateBody = z.infer<typeof avatarUpdateBody>
