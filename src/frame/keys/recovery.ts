// The recovery share sealed by a key the service never sees: a passkey's PRF output or a password.
import { scryptAsync } from '@noble/hashes/scrypt.js'
import * as z from 'zod/mini'
import { fromBase64, toBase64 } from '../../protocol/base64.ts'
import {
  passkeySealedShare,
  passwordSealedShare,
  SEALED_SHARE_VERSION,
  sealedRecoveryShare,
} from '../../protocol/embedded/keys.ts'
import { buffer, open, type Sealed, seal } from './aead.ts'
import { InvalidSealedShareError, WrongRecoveryPasskeyError, WrongRecoveryPasswordError } from './errors.ts'

const SEALED_VERSION = SEALED_SHARE_VERSION
const PRF_BYTES = 32
const SALT_BYTES = 16

/** HKDF-SHA-256 salt and info: fixed strings naming the purpose and the format version. */
const HKDF_SALT = new TextEncoder().encode('wallet-elements/recovery-share/v1')
const HKDF_INFO = new TextEncoder().encode('passkey-prf -> aes-256-gcm')

/**
 * scrypt's cost for a new recovery password: N = 2^17, r = 8, p = 1 (memory 128 · N · r = 128 MiB),
 * OWASP's recommendation. The sealed share is kept by the service, so this cost is what a stolen
 * database dump pays per guessed password; the person pays it once per set-up or recovery (about 2 to
 * 3 s in Chromium on the build machine, docs/EMBEDDED-WALLET.md). A sealed share carries its own
 * parameters, so they can be raised later without breaking old records.
 */
export const SCRYPT_PARAMETERS = { N: 2 ** 17, r: 8, p: 1 } as const

/** The sealed recovery share, as the service stores it (JSON): versioned, with its KDF and parameters. */
export const SealedRecoveryShare = sealedRecoveryShare
const PasskeySealedShare = passkeySealedShare
const PasswordSealedShare = passwordSealedShare
export type SealedRecoveryShare = z.infer<typeof SealedRecoveryShare>
export type PasskeySealedShare = z.infer<typeof PasskeySealedShare>
export type PasswordSealedShare = z.infer<typeof PasswordSealedShare>

/**
 * Checks a sealed share read back from the service, or throws {@link InvalidSealedShareError}.
 *
 * @example
 * const sealed = parseSealedShare(await response.json())
 */
export function parseSealedShare(value: unknown): SealedRecoveryShare {
  const parsed = z.safeParse(SealedRecoveryShare, value)
  if (!parsed.success) throw new InvalidSealedShareError({ details: z.prettifyError(parsed.error) })
  return parsed.data
}

const aadOf = (kdf: SealedRecoveryShare['kdf']['name'], userId: string) =>
  `wallet-elements:recovery-share:v${SEALED_VERSION}:${kdf}:${userId}`

const toSealed = (value: { iv: string; ciphertext: string }): Sealed => ({
  iv: fromBase64(value.iv),
  ciphertext: fromBase64(value.ciphertext),
})

/**
 * A new per-user PRF input for the passkey ceremony (`extensions.prf.eval.first`); stored with the
 * sealed share so that a later ceremony asks the same question.
 *
 * @example
 * const prfSalt = newPrfSalt()
 */
export function newPrfSalt(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(PRF_BYTES))
}

/** PRF output -> HKDF-SHA-256 -> a non-extractable AES-256-GCM key. */
async function passkeyKey(prfOutput: Uint8Array): Promise<CryptoKey> {
  if (prfOutput.length !== PRF_BYTES)
    throw new WrongRecoveryPasskeyError({ details: 'The PRF output is not 32 bytes' })
  const material = await crypto.subtle.importKey('raw', buffer(prfOutput), 'HKDF', false, ['deriveKey'])
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: HKDF_SALT, info: HKDF_INFO },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  )
}

/**
 * Seals the recovery share with the PRF output of the person's passkey (evaluated on `prfSalt`).
 *
 * @example
 * const sealed = await sealWithPasskey({ share: shares.recovery, prfOutput, prfSalt, userId })
 */
export async function sealWithPasskey(parameters: {
  share: Uint8Array
  prfOutput: Uint8Array
  prfSalt: Uint8Array
  userId: string
}): Promise<PasskeySealedShare> {
  const { share, prfOutput, prfSalt, userId } = parameters
  const sealed = await seal(await passkeyKey(prfOutput), share, aadOf('hkdf-sha256-prf', userId))
  return {
    version: SEALED_VERSION,
    kdf: { name: 'hkdf-sha256-prf', prfSalt: toBase64(prfSalt) },
    iv: toBase64(sealed.iv),
    ciphertext: toBase64(sealed.ciphertext),
  }
}

/**
 * Opens a passkey-sealed recovery share; {@link WrongRecoveryPasskeyError} when the PRF output is not
 * the one that sealed it (another passkey) or the record was altered.
 *
 * @example
 * const recovery = await openWithPasskey({ sealed, prfOutput, userId })
 */
export async function openWithPasskey(parameters: {
  sealed: PasskeySealedShare
  prfOutput: Uint8Array
  userId: string
}): Promise<Uint8Array> {
  const { sealed, prfOutput, userId } = parameters
  const share = await open(await passkeyKey(prfOutput), toSealed(sealed), aadOf('hkdf-sha256-prf', userId))
  if (!share) throw new WrongRecoveryPasskeyError()
  return share
}

/** Password -> scrypt -> a non-extractable AES-256-GCM key; the password's bytes and the raw key are zeroed. */
async function passwordKey(password: string, kdf: PasswordSealedShare['kdf']): Promise<CryptoKey> {
  const bytes = new TextEncoder().encode(password.normalize('NFKC'))
  const raw = await scryptAsync(bytes, fromBase64(kdf.salt), { N: kdf.N, r: kdf.r, p: kdf.p, dkLen: 32 })
  try {
    return await crypto.subtle.importKey('raw', buffer(raw), 'AES-GCM', false, ['encrypt', 'decrypt'])
  } finally {
    bytes.fill(0)
    raw.fill(0)
  }
}

/**
 * Seals the recovery share with a recovery password (scrypt with {@link SCRYPT_PARAMETERS} and a
 * random 16-byte salt, carried in the record).
 *
 * @example
 * const sealed = await sealWithPassword({ share: shares.recovery, password, userId })
 */
export async function sealWithPassword(parameters: {
  share: Uint8Array
  password: string
  userId: string
  scrypt?: { N: number; r: number; p: number }
}): Promise<PasswordSealedShare> {
  const { share, password, userId, scrypt = SCRYPT_PARAMETERS } = parameters
  const kdf = {
    name: 'scrypt' as const,
    ...scrypt,
    salt: toBase64(crypto.getRandomValues(new Uint8Array(SALT_BYTES))),
  }
  const sealed = await seal(await passwordKey(password, kdf), share, aadOf('scrypt', userId))
  return parseSealedShare({
    version: SEALED_VERSION,
    kdf,
    iv: toBase64(sealed.iv),
    ciphertext: toBase64(sealed.ciphertext),
  }) as PasswordSealedShare
}

/**
 * Opens a password-sealed recovery share; {@link WrongRecoveryPasswordError} when the password is wrong.
 *
 * @example
 * const recovery = await openWithPassword({ sealed, password, userId })
 */
export async function openWithPassword(parameters: {
  sealed: PasswordSealedShare
  password: string
  userId: string
}): Promise<Uint8Array> {
  const { sealed, password, userId } = parameters
  const share = await open(await passwordKey(password, sealed.kdf), toSealed(sealed), aadOf('scrypt', userId))
  if (!share) throw new WrongRecoveryPasswordError()
  return share
}
