// What seals and opens the recovery share: a recovery password or a passkey's PRF output, one shape for both.
import type { RecoveryShareResponse, UserRecovery } from '../../protocol/embedded/index.ts'
import { WrongRecoveryPasskeyError, WrongRecoveryPasswordError } from './errors.ts'
import { openWithPasskey, openWithPassword, sealWithPasskey, sealWithPassword } from './recovery.ts'

/**
 * The person's key to the recovery share: a password (scrypt), or a passkey's PRF output on
 * `prfSalt` with the credential that gave it (the one a new browser asks again). The caller zeroes
 * `prfOutput` once done.
 */
export type RecoveryKey =
  | { method: 'password'; password: string }
  | { method: 'passkey'; credentialId: string; prfSalt: Uint8Array; prfOutput: Uint8Array }

/** A sealed share as `keys/recovery-share` answers it in user custody. */
export type SealedRecord = Exclude<RecoveryShareResponse, { method: 'operator' }>

/**
 * Seals `share` with `key`, as `keys/recovery` stores it.
 *
 * @example
 * const recovery = await sealRecovery({ method: 'password', password }, share, userId)
 */
export async function sealRecovery(
  key: RecoveryKey,
  share: Uint8Array,
  userId: string,
): Promise<UserRecovery> {
  if (key.method === 'password')
    return { method: 'password', sealed: await sealWithPassword({ share, password: key.password, userId }) }
  const { credentialId, prfOutput, prfSalt } = key
  return {
    method: 'passkey',
    credentialId,
    sealed: await sealWithPasskey({ share, prfOutput, prfSalt, userId }),
  }
}

/**
 * Opens a sealed record with `key`: `WrongRecoveryPasswordError` or `WrongRecoveryPasskeyError` when
 * it is not the key that sealed it (a key of the other kind is wrong too).
 *
 * @example
 * const share = await openRecovery(record, { method: 'password', password }, userId)
 */
export function openRecovery(record: SealedRecord, key: RecoveryKey, userId: string): Promise<Uint8Array> {
  if (record.method === 'password' && key.method === 'password')
    return openWithPassword({ sealed: record.sealed, password: key.password, userId })
  if (record.method === 'passkey' && key.method === 'passkey')
    return openWithPasskey({ sealed: record.sealed, prfOutput: key.prfOutput, userId })
  const details = `A ${key.method} does not open a share sealed by a ${record.method}`
  throw record.method === 'passkey'
    ? new WrongRecoveryPasskeyError({ details })
    : new WrongRecoveryPasswordError({ details })
}
