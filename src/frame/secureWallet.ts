// SECURE_WALLET: the frame shows what the wallet's recovery needs, then says where it stands.
import type { PasskeySummary, WalletKeyState, WalletRecovery } from '../protocol/embedded/index.ts'
import { actionNotAllowed } from './failure.ts'
import type { RecoveryKey } from './keys/recoveryKey.ts'
import type { LazyKeyring } from './lazyKeyring.ts'
import type { RecoveryUi } from './recoveryView.ts'
import type { FrameSession } from './session.ts'
import type { FrameHandlers, WebAuthnCeremonies } from './walletTypes.ts'

/** The passkeys a recovery may use: the browser's ceremonies and the person's passkeys (list, link). */
export interface RecoveryPasskeys {
  webauthn: WebAuthnCeremonies
  list: () => Promise<PasskeySummary[]>
  link: (extensions: Record<string, unknown>) => Promise<{ credential: unknown }>
}

/** The PRF ceremonies, loaded on a click (they share the sealing code's chunk with the key manager). */
const prfCeremonies = () => import('./passkeyRecovery.ts')

/**
 * How the page may know the wallet's recovery: who can recover it and the methods set (never the
 * sealed share, nor whether this browser holds a share).
 *
 * @example
 * recoveryOf(session.keys) // { custody: 'user', methods: ['password'] }
 */
export function recoveryOf(keys: WalletKeyState | undefined): WalletRecovery | undefined {
  if (keys?.state !== 'ready') return undefined
  return { custody: keys.custody, methods: keys.recovery }
}

/**
 * The handler of SECURE_WALLET: on a browser without the wallet's share, "Recover your wallet" (by
 * password or passkey, the sealed share read once for every try); in user custody without a recovery
 * method, its set-up (a password, or a passkey where the browser has WebAuthn): after a sign-in only
 * for keys made in this session (the share still in memory) and not put off with Later in this load,
 * from Account always. A wallet whose recovery share the operator still holds in user custody (its
 * project left operator custody) is asked at sign-in and on a restored visit too, in words that say so:
 * its set-up makes a new share set, which deletes the operator's copy. Whatever the person chose (Later
 * too), the answer is the wallet's recovery now.
 *
 * @example
 * const { handlers } = createSecureWallet(session, keyring, recoveryUi, passkeys)
 * await handlers.SECURE_WALLET({ reason: 'sign-in' })
 */
export function createSecureWallet(
  session: FrameSession,
  keyring: LazyKeyring,
  ui: RecoveryUi | undefined,
  passkeys?: RecoveryPasskeys,
) {
  /** Seals or opens with a passkey's PRF output, zeroed once used (kept or not). */
  const withPasskeyKey = async (key: Promise<RecoveryKey>, use: (key: RecoveryKey) => Promise<void>) => {
    const opened = await key
    try {
      await use(opened)
    } finally {
      if (opened.method === 'passkey') opened.prfOutput.fill(0)
    }
  }

  /** The person answered Later in this frame's load: another sign-in here does not ask again. */
  let putOff = false
  const handlers: FrameHandlers<'SECURE_WALLET'> = {
    async SECURE_WALLET({ reason }) {
      if (!session.token()) throw actionNotAllowed()
      const { keys, onDevice, pending } = await keyring.recoveryState()
      const sealedBy = keys.recovery.filter((method) => method !== 'operator')
      // The project left operator custody and this person has not set up their own recovery yet.
      const operatorHolds = keys.custody === 'user' && keys.recovery.includes('operator')
      if (ui && !onDevice && sealedBy.length > 0) {
        // Read once: a wrong password is tried again here, not by asking the service (rate-limited).
        const record = await keyring.sealedRecovery()
        if (record.method === 'password')
          await ui.showRecover({
            password: (password) => keyring.recover(record, { method: 'password', password }),
          })
        else if (record.method === 'passkey')
          await ui.showRecover({
            passkey: passkeys
              ? async () => {
                  const { passkeyRecoveryKey } = await prfCeremonies()
                  await withPasskeyKey(passkeyRecoveryKey(passkeys.webauthn, record), (key) =>
                    keyring.recover(record, key),
                  )
                }
              : undefined,
          })
      } else if (ui && onDevice && keys.custody === 'user' && sealedBy.length === 0) {
        const asked = reason === 'account' || ((pending || operatorHolds) && !putOff)
        if (asked && (reason !== 'visit' || operatorHolds))
          putOff = !(await ui.showSetup({
            password: (password) => keyring.setUpRecovery({ method: 'password', password }),
            passkey: passkeys
              ? async () => {
                  const { passkeySetupKey } = await prfCeremonies()
                  const own = await passkeys.list()
                  await withPasskeyKey(passkeySetupKey({ ...passkeys, own }), (key) =>
                    keyring.setUpRecovery(key),
                  )
                }
              : undefined,
            ...(operatorHolds ? { custodySwitch: true } : {}),
          }))
      }
      const recovery = recoveryOf(session.keys ?? keys)
      if (!recovery) throw actionNotAllowed()
      return { recovery }
    },
  }
  return {
    handlers,
    /** The app left the view (the modal closed). */
    cancel: () => ui?.cancel(),
  }
}
