// The key manager loaded on first use: its curves, derivation and Shamir code stay out of the frame's first load.
import type { Keyring } from './keyring.ts'
import type { FrameSession } from './session.ts'
import type { FrameWalletDependencies } from './walletTypes.ts'

/** A {@link Keyring} whose synchronous reads answer once its module is loaded. */
export type LazyKeyring = Omit<Keyring, 'pendingRecoveryShare'> & {
  pendingRecoveryShare(userId: string): Promise<ReturnType<Keyring['pendingRecoveryShare']>>
}

/**
 * The {@link Keyring} of `session`, its module fetched the first time a sign-in, a signature or an
 * export needs it (about 50 KB gzip: viem's hashing, the curves, BIP-32/39, Shamir), so a frame that
 * only answers "not connected" loads none of it.
 *
 * @example
 * const keyring = lazyKeyring(session, deps)
 * await keyring.signedIn(answer)
 */
export function lazyKeyring(
  session: FrameSession,
  deps: Pick<FrameWalletDependencies, 'api' | 'deviceShares' | 'log'>,
): LazyKeyring {
  let loaded: Promise<Keyring> | undefined
  const keyring = () => {
    loaded ??= import('./keyring.ts')
      .then(({ createKeyring }) => createKeyring(session, deps))
      .catch((error: unknown) => {
        loaded = undefined
        throw error
      })
    return loaded
  }
  return {
    signedIn: async (answer) => (await keyring()).signedIn(answer),
    sign: async (method, signing) => (await keyring()).sign(method, signing),
    bitcoinReady: async () => (await keyring()).bitcoinReady(),
    addresses: async () => (await keyring()).addresses(),
    bitcoinAddress: async (chainId) => (await keyring()).bitcoinAddress(chainId),
    exportKeys: async (answer) => (await keyring()).exportKeys(answer),
    pendingRecoveryShare: async (userId) => (await keyring()).pendingRecoveryShare(userId),
    recoveryState: async () => (await keyring()).recoveryState(),
    setUpRecovery: async (key) => (await keyring()).setUpRecovery(key),
    sealedRecovery: async () => (await keyring()).sealedRecovery(),
    recover: async (record, key) => (await keyring()).recover(record, key),
    // Nothing loaded, nothing in memory to forget.
    forget: () => {
      void loaded?.then((loadedKeyring) => loadedKeyring.forget()).catch(() => {})
    },
    deleteDeviceShare: async (userId) => (await keyring()).deleteDeviceShare(userId),
  }
}
