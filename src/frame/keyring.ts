// The frame's key manager: sets the person's keys up, keeps this browser's share, signs plans.
import { ed25519 } from '@noble/curves/ed25519.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { type Address, bytesToHex, getAddress, type Hex, hashMessage } from 'viem'
import { type BitcoinPublicKeys, bitcoinAccountOf } from '../protocol/embedded/bitcoin.ts'
import type {
  AuthShareResponse,
  EmbeddedUser,
  RecoveryShareResponse,
  SigningPlanResponse,
  UserRecovery,
  WalletKeyState,
} from '../protocol/embedded/index.ts'
import {
  authShareResponse,
  bitcoinKeysProofMessage,
  bitcoinKeysResponse,
  keyMigrateResponse,
  recoveryShareResponse,
  walletKeyState,
} from '../protocol/embedded/index.ts'
import type { ApprovalMethod } from '../protocol/embedded/methods.ts'
import { hasBitcoinRequests, signHash, signPlan } from '../protocol/embedded/signer.ts'
import { encodeBase58 } from '../protocol/siwx/base58.ts'
import type { ExportedKeys } from './exportView.ts'
import { FrameFailure } from './failure.ts'
import { keyMessages, keyStepOf, keysNotHere, migratedSecret } from './keyStep.ts'
import { type WalletAddresses, withKeys } from './keys/derive.ts'
import { fromWireShare, type NewKeySet, newKeySet, setIdOf, zeroShares } from './keys/keySet.ts'
import { openRecovery, type RecoveryKey, type SealedRecord, sealRecovery } from './keys/recoveryKey.ts'
import { createSecret, phraseOf } from './keys/secret.ts'
import { withSharedKeys } from './keys/shares.ts'
import type { FrameSession } from './session.ts'
import type { FrameWalletDependencies } from './walletTypes.ts'

type ReadyState = Extract<WalletKeyState, { state: 'ready' }>

export { keyMessages, keyStepOf, keysNotHere, migratedSecret } from './keyStep.ts'

/** The accounts a state names, as the key module compares them (EIP-55, whatever case the service keeps). */
const expectedOf = (state: ReadyState): WalletAddresses => ({
  eip155: getAddress(state.addresses.eip155),
  solana: state.addresses.solana,
})

/** Whether a set opens the accounts the person already has (the EVM one when it is the EOA). */
const opensAccounts = (set: NewKeySet, user: EmbeddedUser | undefined) =>
  !user ||
  (set.addresses.solana === user.accounts.solana.address &&
    (user.accounts.eip155.type !== 'eoa' ||
      set.addresses.eip155.toLowerCase() === user.accounts.eip155.address.toLowerCase()))

/**
 * The frame's key manager: the secret exists whole only inside these calls, zeroed when they settle.
 * The device share stays on this browser (a sign-out keeps it); a user-custody set's recovery share
 * is kept in memory for this session only, for the recovery set-up to seal (zeroed and forgotten on
 * sign-out, and when the service answers 401: the session ended there).
 *
 * @example
 * const keyring = createKeyring(session, deps)
 * const keys = await keyring.signedIn(answer) // before the sign-in answers the app
 * const signatures = await keyring.sign('personal_sign', created.signing) // after Approve
 */
export function createKeyring(
  session: FrameSession,
  deps: Pick<FrameWalletDependencies, 'api' | 'deviceShares' | 'log'>,
) {
  const { api } = deps
  /** User custody: the new set's recovery share, until the person seals it or the session ends. */
  let recoveryShare: { userId: string; setId: string; share: Uint8Array } | undefined
  /** The current set's Bitcoin public keys, which the service is known to hold (derived once per set). */
  let bitcoinKeys: { setId: string; publicKeys: BitcoinPublicKeys } | undefined

  const store = () => {
    if (!deps.deviceShares)
      throw new FrameFailure({ message: keyMessages.storageBlocked, code: 'STORAGE_BLOCKED' })
    return deps.deviceShares
  }

  const forgetRecoveryShare = () => {
    recoveryShare?.share.fill(0)
    recoveryShare = undefined
  }
  // A session the service ended (expired, signed out elsewhere) takes the unsealed share with it.
  session.onEnded(forgetRecoveryShare)

  /**
   * Stores a new set: the device share here, then the auth share (and proof) with the service. In user
   * custody the new recovery share goes sealed (`recovery`, a recovery's reshare), or waits in memory
   * for the person to seal it.
   */
  async function storeSet(
    token: string,
    state: { userId: string; custody: WalletKeyState['custody'] },
    set: NewKeySet,
    previous?: ReadyState,
    recovery?: UserRecovery,
  ): Promise<ReadyState> {
    await store().save(state.userId, set.shares.device)
    const request = recovery ? { ...set.request, recovery } : set.request
    if (previous)
      await api.request(
        'POST',
        'keys/reshare',
        undefined,
        { previousSetId: previous.setId, ...request },
        token,
      )
    else await api.request('POST', 'keys/setup', undefined, request, token)
    forgetRecoveryShare()
    if (state.custody === 'user' && !recovery)
      recoveryShare = { userId: state.userId, setId: set.setId, share: set.shares.recovery.slice() }
    return {
      state: 'ready',
      userId: state.userId,
      custody: state.custody,
      setId: set.setId,
      addresses: set.addresses,
      recovery: recovery ? [recovery.method] : state.custody === 'operator' ? ['operator'] : [],
    }
  }

  /** `none`: a new secret; `legacy`: the keys custody held, which must open the person's accounts. */
  async function setUp(
    token: string,
    state: Exclude<WalletKeyState, ReadyState>,
    user: EmbeddedUser | undefined,
  ): Promise<ReadyState> {
    const secret =
      state.state === 'legacy'
        ? migratedSecret((await api.request('POST', 'keys/migrate', keyMigrateResponse, {}, token)).secret)
        : createSecret()
    try {
      const set = await withKeys(secret, (keys) =>
        newKeySet({ secret, keys, projectId: api.projectId, custody: state.custody }),
      )
      try {
        if (state.state === 'legacy' && !opensAccounts(set, user)) {
          deps.log?.('refused migrated keys', { reason: 'other addresses' })
          throw new FrameFailure({ message: keyMessages.mismatch, code: 'KEYS_MISMATCH' })
        }
        return await storeSet(token, state, set)
      } finally {
        zeroShares(set.shares)
      }
    } finally {
      secret.fill(0)
    }
  }

  /** The service's share of the current set, for this one use. */
  const authShare = (token: string): Promise<AuthShareResponse> =>
    api.request('POST', 'keys/auth-share', authShareResponse, {}, token)

  /** This browser's stored share of the person's wallet, if any and readable; the caller zeroes it. */
  const storedShare = async (state: ReadyState) =>
    deps.deviceShares ? await deps.deviceShares.load(state.userId).catch(() => undefined) : undefined

  /**
   * A fresh set for this browser from a recovery share (zeroed here) and the auth share, checked
   * against the accounts, replacing the current set; `seal` seals its new recovery share as the old one
   * was (user custody). Answers a copy of the new device share; the caller zeroes it.
   */
  async function rebuild(
    token: string,
    state: ReadyState,
    recovered: Uint8Array,
    seal?: (share: Uint8Array) => Promise<UserRecovery>,
  ): Promise<Uint8Array> {
    const shares = [recovered]
    try {
      shares.push(fromWireShare((await authShare(token)).authShare))
      const set = await withSharedKeys(shares, expectedOf(state), (keys, secret) =>
        newKeySet({ secret, keys, projectId: api.projectId, custody: state.custody }),
      )
      try {
        const recovery = seal ? await seal(set.shares.recovery) : undefined
        session.setKeys(await storeSet(token, state, set, state, recovery))
        return set.shares.device.slice()
      } finally {
        zeroShares(set.shares)
      }
    } finally {
      for (const share of shares) share.fill(0)
    }
  }

  /** This browser's share of the current set (recovered in operator custody); the caller zeroes it. */
  async function deviceShareOf(token: string, state: ReadyState): Promise<Uint8Array> {
    const device = await storedShare(state)
    const step = keyStepOf(state, device && setIdOf(device))
    if (step.step === 'ready' && device) return device
    device?.fill(0)
    if (step.step === 'lost') throw keysNotHere(step.message)
    // Operator custody: the recovery share and the auth share make a fresh set; the old one retires.
    const recovery = await api.request('POST', 'keys/recovery-share', recoveryShareResponse, {}, token)
    if (recovery.method !== 'operator') throw keysNotHere(keyMessages.recover)
    return rebuild(token, state, fromWireShare(recovery.recoveryShare))
  }

  /** The key state of the session: as last known, else asked; a set made first where there is none. */
  async function readyState(token: string): Promise<ReadyState> {
    const state = session.keys ?? (await api.request('GET', 'keys', walletKeyState, undefined, token))
    if (state.state === 'ready') return state
    const ready = await setUp(token, state, session.user)
    session.setKeys(ready)
    return ready
  }

  /** Runs `use` with the keys the device share and the auth share open (checked against the addresses). */
  async function withOwnKeys<T>(token: string, use: Parameters<typeof withSharedKeys<T>>[2]): Promise<T> {
    // This browser's share first: without it (user custody) nothing is asked of the service.
    let state = await readyState(token)
    let device = await deviceShareOf(token, state)
    let auth: AuthShareResponse
    try {
      auth = await authShare(token)
    } catch (error) {
      device.fill(0)
      throw error
    }
    if (auth.setId !== state.setId) {
      // The set changed since (recovered or reset elsewhere): ask where the keys stand now.
      device.fill(0)
      session.setKeys(undefined)
      state = await readyState(token)
      device = await deviceShareOf(token, state)
      auth = await authShare(token).catch((error: unknown) => {
        device.fill(0)
        throw error
      })
    }
    const shares = [device, fromWireShare(auth.authShare)]
    try {
      return await withSharedKeys(shares, expectedOf(state), use)
    } finally {
      for (const share of shares) share.fill(0)
    }
  }

  /**
   * Before the first Bitcoin request: the person's Bitcoin public keys (BIP-84), derived here from the
   * same secret once per key set, and the service holding the same ones (sent, vouched for by the
   * set's EVM key, when it holds none; refused when it holds others: the addresses the page shows and
   * the keys the service checks against are the frame's own). Only public keys leave the frame; the
   * private keys are zeroed as for any signature. Resolves the public keys.
   */
  function bitcoinReady(): Promise<BitcoinPublicKeys> {
    return session.withSession(async (token) => {
      const state = await readyState(token)
      if (bitcoinKeys?.setId === state.setId) return bitcoinKeys.publicKeys
      const setId = session.keys?.state === 'ready' ? session.keys.setId : state.setId
      const own = await withOwnKeys(token, (keys) => {
        const publicKeys = {
          bitcoin: bytesToHex(secp256k1.getPublicKey(keys.bitcoin, true)).slice(2),
          bitcoinTest: bytesToHex(secp256k1.getPublicKey(keys.bitcoinTest, true)).slice(2),
        }
        const message = bitcoinKeysProofMessage({ projectId: api.projectId, setId, publicKeys })
        return { setId, publicKeys, proof: signHash(hashMessage(message), keys.secp256k1) }
      })
      const known = await api.request('GET', 'keys/bitcoin', bitcoinKeysResponse, undefined, token)
      if (!known.publicKeys) await api.request('POST', 'keys/bitcoin', bitcoinKeysResponse, own, token)
      else if (
        known.publicKeys.bitcoin !== own.publicKeys.bitcoin ||
        known.publicKeys.bitcoinTest !== own.publicKeys.bitcoinTest
      )
        throw new FrameFailure({ message: keyMessages.mismatch, code: 'KEYS_MISMATCH' })
      bitcoinKeys = { setId, publicKeys: own.publicKeys }
      return own.publicKeys
    })
  }

  return {
    /**
     * A new session's keys, before the sign-in answers the app: a new set (`none`), the move out of
     * custody (`legacy`), or this browser's share checked (`ready`: recovered in operator custody; in
     * user custody a browser without it is signed in, and signing says what is lost).
     */
    async signedIn(answer: {
      token: string
      keys: WalletKeyState
      user?: EmbeddedUser | undefined
    }): Promise<WalletKeyState> {
      if (answer.keys.state !== 'ready') return setUp(answer.token, answer.keys, answer.user)
      session.setKeys(answer.keys)
      try {
        ;(await deviceShareOf(answer.token, answer.keys)).fill(0)
      } catch (error) {
        if (!(error instanceof FrameFailure && error.payload.code === 'KEYS_NOT_ON_DEVICE')) throw error
      }
      return session.keys ?? answer.keys
    },

    /**
     * Signs an approved request's plan (after the person's click): the auth share, this browser's
     * share, combine, check the addresses, sign, zero.
     */
    sign(method: ApprovalMethod, signing: SigningPlanResponse): Promise<Hex[]> {
      return session.withSession(async (token) => {
        // The Bitcoin signer (PSBTs, BIP-137/322) is its own chunk: only Bitcoin approvals load it.
        const bitcoin = hasBitcoinRequests(signing.plan)
          ? await import('../protocol/embedded/bitcoinSigner.ts')
          : undefined
        return withOwnKeys(token, (keys) =>
          signPlan({
            method,
            plan: signing.plan,
            keys,
            ownAccounts: signing.ownAccounts as Address[],
            ...(bitcoin ? { bitcoin } : {}),
          }),
        )
      })
    },

    bitcoinReady,

    /**
     * The addresses of the person's own keys (set up first when they are not yet), as the frame checks
     * a plan against the page's request before the person is asked.
     */
    addresses(): Promise<WalletAddresses> {
      return session.withSession(async (token) => expectedOf(await readyState(token)))
    },

    /**
     * The person's Bitcoin address on a bip122 network (native segwit, BIP-84), from the frame's own keys;
     * undefined on a network the wallet does not know.
     */
    async bitcoinAddress(chainId: string): Promise<string | undefined> {
      return bitcoinAccountOf(await bitcoinReady(), chainId)?.address
    },

    /** The keys for the export view, from the export's auth share and this browser's share. */
    exportKeys(answer: AuthShareResponse): Promise<ExportedKeys> {
      return session.withSession(async (token) => {
        const state = await readyState(token)
        const shares = [await deviceShareOf(token, state), fromWireShare(answer.authShare)]
        try {
          return await withSharedKeys(shares, expectedOf(state), (keys, secret) => {
            const solana = new Uint8Array(64)
            solana.set(keys.ed25519)
            solana.set(ed25519.getPublicKey(keys.ed25519), 32)
            try {
              return {
                evmPrivateKey: bytesToHex(keys.secp256k1),
                solanaSecretKey: encodeBase58(solana),
                recoveryPhrase: phraseOf(secret) ?? null,
              }
            } finally {
              solana.fill(0)
            }
          })
        } finally {
          for (const share of shares) share.fill(0)
        }
      })
    },

    /** The recovery share of the set made in this session (user custody), for sealing; else undefined. */
    pendingRecoveryShare(userId: string): { setId: string; share: Uint8Array } | undefined {
      return recoveryShare?.userId === userId ? recoveryShare : undefined
    },

    /**
     * Where recovery stands: the key state, whether this browser holds its share,
     * and whether a new set's recovery share waits in memory to be sealed.
     */
    recoveryState(): Promise<{ keys: ReadyState; onDevice: boolean; pending: boolean }> {
      return session.withSession(async (token) => {
        const keys = await readyState(token)
        const device = await storedShare(keys)
        const onDevice = device !== undefined && keyStepOf(keys, setIdOf(device)).step === 'ready'
        device?.fill(0)
        const pending = recoveryShare?.userId === keys.userId && recoveryShare.setId === keys.setId
        return { keys, onDevice, pending }
      })
    },

    /**
     * Seals the recovery share with the person's key (a recovery password, or a passkey's PRF output),
     * stores it (`keys/recovery`) and forgets it. Without one in memory (skipped at sign-in, then
     * reloaded; or a set whose recovery share the operator holds, made before its project left
     * operator custody) a fresh set from this browser's share and the auth share goes to the service
     * with its recovery share sealed, in one reshare: the old set, and the operator's copy, retire.
     */
    setUpRecovery(key: RecoveryKey): Promise<void> {
      return session.withSession(async (token) => {
        const state = await readyState(token)
        if (recoveryShare?.userId !== state.userId || recoveryShare.setId !== state.setId) {
          // The secret is zeroed before the seal's KDF runs (seconds for a password).
          const set = await withOwnKeys(token, (keys, secret) =>
            newKeySet({ secret, keys, projectId: api.projectId, custody: state.custody }),
          )
          try {
            const sealed = await sealRecovery(key, set.shares.recovery, state.userId)
            session.setKeys(await storeSet(token, state, set, state, sealed))
          } finally {
            zeroShares(set.shares)
          }
          return
        }
        const share = recoveryShare?.share
        if (!share) throw keysNotHere(keyMessages.recover)
        const body = { setId: state.setId, recovery: await sealRecovery(key, share, state.userId) }
        session.setKeys(await api.request('POST', 'keys/recovery', walletKeyState, body, token))
        forgetRecoveryShare()
      })
    },

    /** The sealed recovery share of the current set (user custody), read once for a recovery's tries. */
    sealedRecovery(): Promise<RecoveryShareResponse> {
      return session.withSession((token) =>
        api.request('POST', 'keys/recovery-share', recoveryShareResponse, {}, token),
      )
    },

    /**
     * Recovery on a browser without the wallet's share: the person's key opens the sealed recovery share
     * (`WrongRecoveryPasswordError` / `WrongRecoveryPasskeyError` when it does not: nothing changed),
     * which with the auth share makes a fresh set for this browser, its recovery share sealed again with
     * the same key.
     */
    recover(record: SealedRecord, key: RecoveryKey): Promise<void> {
      return session.withSession(async (token) => {
        const state = await readyState(token)
        const opened = await openRecovery(record, key, state.userId)
        const reseal = (share: Uint8Array) => sealRecovery(key, share, state.userId)
        ;(await rebuild(token, state, opened, reseal)).fill(0)
      })
    },

    /** Sign-out: forgets what is in memory; the device share stays (it is this browser's). */
    forget: forgetRecoveryShare,

    /** The wallet was deleted from the service: this browser's share goes too. */
    async deleteDeviceShare(userId: string | undefined): Promise<void> {
      forgetRecoveryShare()
      if (userId) await deps.deviceShares?.delete(userId)
    },
  }
}

export type Keyring = ReturnType<typeof createKeyring>
