// Where the person's keys stand for this browser: the step the keyring takes, and its messages.
import type { WalletKeyState } from '../protocol/embedded/index.ts'
import { FrameFailure } from './failure.ts'
import { fromWireShare } from './keys/keySet.ts'
import { parseSecret, secretFromKeys, type WalletSecret } from './keys/secret.ts'

/** What the person is told when this browser has no share of the current set and none can be fetched. */
export const keyMessages = {
  lost: "This browser does not have your wallet's key, and no recovery method was set up: the wallet cannot be used here.",
  recover: "This browser does not have your wallet's key. Recover it with your passkey or recovery password.",
  storageBlocked: "This browser blocks the wallet's storage: your wallet's key cannot be kept here.",
  mismatch: 'The keys the service sent do not open your accounts: nothing was changed.',
} as const

/**
 * What the frame does with the person's key state and the set id of the device share this browser
 * holds (undefined: none, or unreadable):
 * - `setup` / `migrate`: a new set (from a new secret, or from the keys custody held);
 * - `ready`: the device share belongs to the current set;
 * - `recover`: the operator holds the recovery share (operator custody, or a set made before the
 *   project left it): that share and the auth share make a fresh set here (in user custody without
 *   the operator's copy: the person is then asked to set up their own recovery);
 * - `lost`: user custody without this browser's share: the message says what is lost.
 *
 * @example
 * keyStepOf({ state: 'ready', setId, … }, setIdOf(device)) // { step: 'ready' }
 */
export function keyStepOf(
  state: WalletKeyState,
  deviceSetId: string | undefined,
): { step: 'setup' | 'migrate' | 'ready' | 'recover' } | { step: 'lost'; message: string } {
  if (state.state === 'none') return { step: 'setup' }
  if (state.state === 'legacy') return { step: 'migrate' }
  if (deviceSetId === state.setId) return { step: 'ready' }
  if (state.custody === 'operator' || state.recovery.includes('operator')) return { step: 'recover' }
  const recoverable = state.recovery.length > 0
  return { step: 'lost', message: recoverable ? keyMessages.recover : keyMessages.lost }
}

/** The failure of a browser without the current set's share (user custody). */
export const keysNotHere = (message: string) => new FrameFailure({ message, code: 'KEYS_NOT_ON_DEVICE' })

/**
 * A version-2 secret from `keys/migrate`: the two raw keys (64 bytes), or with its version byte.
 *
 * @example
 * const secret = migratedSecret(answer.secret) // Uint8Array(65) [2, …]
 */
export function migratedSecret(text: string): WalletSecret {
  const bytes = fromWireShare(text)
  try {
    if (bytes.length === 64)
      return secretFromKeys({ secp256k1: bytes.subarray(0, 32), ed25519: bytes.subarray(32) })
    parseSecret(bytes)
    return bytes.slice()
  } finally {
    bytes.fill(0)
  }
}
