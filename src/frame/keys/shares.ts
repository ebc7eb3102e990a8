// Shares, 2 of 3: split the versioned secret, combine any two (checking the addresses), reshare.
import { combine, split } from 'shamir-secret-sharing'
import { addressesOfKeys, type PrivateKeys, type WalletAddresses, withKeys } from './derive.ts'
import { InvalidSecretError, InvalidShareError, ShareMismatchError } from './errors.ts'
import { parseSecret, type WalletSecret } from './secret.ts'

/** Format byte of our shares: format, 8-byte set id, then the Shamir share (its x coordinate last). */
const SHARE_FORMAT = 1
const SET_ID_BYTES = 8
const HEADER_BYTES = 1 + SET_ID_BYTES

/**
 * The three shares of one set. Any two open the secret: `device` stays in the frame origin's
 * IndexedDB, `auth` with the service (released to the frame over an authenticated session),
 * `recovery` sealed by a passkey or a password before it leaves the frame.
 */
export interface ShareSet {
  device: Uint8Array
  auth: Uint8Array
  recovery: Uint8Array
}

/**
 * Splits a secret into a new set of three shares, any two of which open it.
 *
 * @example
 * const { device, auth, recovery } = await splitSecret(createSecret())
 */
export async function splitSecret(secret: WalletSecret): Promise<ShareSet> {
  parseSecret(secret)
  const setId = crypto.getRandomValues(new Uint8Array(SET_ID_BYTES))
  const parts = await split(secret, 3, 2)
  const [device, auth, recovery] = parts.map((part) => {
    const share = new Uint8Array(HEADER_BYTES + part.length)
    share[0] = SHARE_FORMAT
    share.set(setId, 1)
    share.set(part, HEADER_BYTES)
    part.fill(0)
    return share
  })
  if (!device || !auth || !recovery) throw new InvalidShareError({ details: 'The split made fewer shares' })
  return { device, auth, recovery }
}

/** Combines two shares after checking their format and set; the caller zeroes the result. */
async function combineTwo(shares: readonly Uint8Array[]): Promise<WalletSecret> {
  const [first, second] = shares
  if (shares.length !== 2 || !first || !second)
    throw new InvalidShareError({ details: `Two shares are needed, got ${shares.length}` })
  for (const share of shares) {
    if (share[0] !== SHARE_FORMAT || share.length <= HEADER_BYTES + 1)
      throw new InvalidShareError({ details: `Format ${share[0]}, ${share.length} bytes` })
  }
  if (first.length !== second.length)
    throw new ShareMismatchError({ details: 'The shares have different lengths' })
  if (first.subarray(1, HEADER_BYTES).some((byte, index) => byte !== second[1 + index]))
    throw new ShareMismatchError({
      details: 'The shares come from different sets (one was retired by a reshare)',
    })
  if (first[first.length - 1] === second[second.length - 1])
    throw new InvalidShareError({ details: 'The same share twice' })
  try {
    return await combine([first.subarray(HEADER_BYTES), second.subarray(HEADER_BYTES)])
  } catch (cause) {
    throw new InvalidShareError({ cause })
  }
}

const sameAddresses = (a: WalletAddresses, b: WalletAddresses) =>
  a.eip155 === b.eip155 && a.solana === b.solana

/**
 * Combines two shares, derives the keys, and checks that they open `expected` (the accounts the
 * person has); then hands the keys to `use` and zeroes the secret and the keys. A wrong, stale or
 * altered share throws {@link ShareMismatchError}: never a different wallet.
 *
 * @example
 * const signature = await withSharedKeys([device, auth], accounts, (keys) => sign(keys.secp256k1))
 */
export async function withSharedKeys<T>(
  shares: readonly Uint8Array[],
  expected: WalletAddresses,
  use: (keys: PrivateKeys, secret: WalletSecret) => T | Promise<T>,
): Promise<T> {
  const secret = await combineTwo(shares)
  try {
    return await withKeys(secret, (keys) => {
      if (!sameAddresses(addressesOfKeys(keys), expected))
        throw new ShareMismatchError({ details: 'The shares open other accounts than expected' })
      return use(keys, secret)
    })
  } catch (error) {
    // A corrupted combination can also fail to parse as a secret: the same refusal.
    if ((error as Error).name === InvalidSecretError.name)
      throw new ShareMismatchError({ cause: error, details: 'The shares do not make a secret' })
    throw error
  } finally {
    secret.fill(0)
  }
}

/**
 * The secret two shares open, after checking the addresses (see {@link withSharedKeys}). The caller
 * zeroes it when done.
 *
 * @example
 * const secret = await combineShares([recovery, auth], accounts)
 */
export function combineShares(
  shares: readonly Uint8Array[],
  expected: WalletAddresses,
): Promise<WalletSecret> {
  return withSharedKeys(shares, expected, (_keys, secret) => secret.slice())
}

/**
 * A fresh set of three shares from two of the current set (recovery on a new device): the new set
 * has a new set id, so the old shares no longer combine with the new ones; the caller stores the
 * new ones and deletes the old.
 *
 * @example
 * const fresh = await reshare([recovery, auth], accounts)
 */
export async function reshare(shares: readonly Uint8Array[], expected: WalletAddresses): Promise<ShareSet> {
  const secret = await combineShares(shares, expected)
  try {
    return await splitSecret(secret)
  } finally {
    secret.fill(0)
  }
}
