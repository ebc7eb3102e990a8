/**
 * The person's keys on the service: the frame makes them, splits them 2 of 3 and sends the
 * service its share; the service checks, keeps and releases shares to the frame of an authenticated
 * session, and never holds two of a set in user custody. A legacy user's custody keys go to the frame
 * once (`migrate`), and are deleted when the frame stores their set.
 */
import { and, eq } from 'drizzle-orm'
import { getAddress } from 'viem'
import type {
  AuthShareResponse,
  EmbeddedUser,
  KeyMigrateResponse,
  KeyReshareRequest,
  KeySetupRequest,
  RecoveryShareResponse,
  SetRecoveryRequest,
  UserRecovery,
  WalletKeyState,
} from '../../src/protocol/embedded/index.ts'
import {
  passkeySealedShare,
  passwordSealedShare,
  recoveryShareResponse,
} from '../../src/protocol/embedded/keys.ts'
import type { Db } from '../db/database.ts'
import { walletPasskeys } from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import type { Custody } from './custody.ts'
import { EmbeddedError } from './errors.ts'
import { checkKeySetProof, shareOfSet } from './keyProof.ts'
import type { WalletSession } from './sessions.ts'
import { createShareSets, type NewShareSet } from './shareSets.ts'
import type { UserRow } from './users.ts'

/** Version byte of a secret made of two raw keys (src/frame/keys/secret.ts `RAW_KEYS_SECRET`). */
const RAW_KEYS_SECRET = 2

export const keysMessages = {
  setUpAlready: 'This wallet has its keys already',
  notLegacy: 'Only keys kept by the operator are migrated: this wallet has none',
  notReady: 'This wallet has no keys yet',
  staleSet: 'This share set is not the current one (it was replaced)',
  addressesChanged: 'A new share set must open the same accounts',
  notLegacyAddresses: 'The keys must open the accounts the operator kept',
  recoveryShareInUserCustody:
    'In user custody the recovery share never leaves the wallet unsealed: send it sealed (recovery)',
  recoveryShareNeeded: 'In operator custody the service keeps the recovery share: send recoveryShare',
  sealedInOperatorCustody: 'In operator custody the recovery share is kept by the service, not sealed',
  noRecovery: 'This wallet has no recovery method: it cannot be recovered on a new device',
  recoveryInOperatorCustody: 'In operator custody the service keeps the recovery share',
  foreignPasskey: "This passkey is not one of this wallet's passkeys: link it to the wallet first",
  operatorHoldsRecovery:
    "The operator holds this share set's recovery share: send your recovery with a new share set (keys/reshare)",
} as const

const conflict = (message: string) => new EmbeddedError(409, 'NOT_AVAILABLE', message)
const badRequest = (message: string, field: string) =>
  new EmbeddedError(400, 'BAD_REQUEST', message, { field })

/**
 * URL-safe base64 of a version-2 secret: [2, secp256k1 key, ed25519 seed], as the frame's
 * `secretFromKeys` lays it out.
 *
 * @example
 * rawKeysSecret(evmKey, solanaSeed) // 'Av…' (88 characters)
 */
export function rawKeysSecret(secp256k1: Uint8Array, ed25519: Uint8Array): string {
  const secret = Buffer.alloc(1 + 32 + 32)
  try {
    secret[0] = RAW_KEYS_SECRET
    secret.set(secp256k1, 1)
    secret.set(ed25519, 33)
    return secret.toString('base64url')
  } finally {
    secret.fill(0)
  }
}

export interface UserKeysDependencies {
  db: Db
  custody: Custody
  /** What the frame is told of a user once their keys exist. */
  embeddedUserOf(user: UserRow): Promise<EmbeddedUser>
  userById(id: string): Promise<UserRow>
  logger?: ServiceLogger
}

/**
 * The key routes' service.
 *
 * @example
 * const keys = createUserKeys({ db, custody, embeddedUserOf, userById })
 * const state = await keys.state(session.userId, session.projectId)
 */
export function createUserKeys(deps: UserKeysDependencies) {
  const { custody, logger } = deps
  const sets = createShareSets(deps.db, custody)

  /**
   * A passkey recovery must name one of the person's own passkeys (the one a new browser asks again):
   * another person's credential, or one the service never saw, is refused.
   */
  async function checkRecoveryPasskey(userId: string, recovery: UserRecovery | undefined): Promise<void> {
    if (recovery?.method !== 'passkey') return
    const [own] = await deps.db
      .select({ id: walletPasskeys.credentialId })
      .from(walletPasskeys)
      .where(and(eq(walletPasskeys.credentialId, recovery.credentialId), eq(walletPasskeys.userId, userId)))
    if (!own) throw badRequest(keysMessages.foreignPasskey, 'recovery.credentialId')
  }

  /** A set the frame sent, checked: its proof, its auth share's set, its recovery for the custody mode. */
  async function checkedSet(
    session: WalletSession,
    body: KeySetupRequest | KeyReshareRequest,
  ): Promise<NewShareSet> {
    const mode = await sets.custodyOf(session.projectId)
    const authShare = shareOfSet(body.authShare, body.setId)
    let recoveryShare: Buffer | undefined
    if (mode === 'user' && body.recoveryShare !== undefined)
      throw badRequest(keysMessages.recoveryShareInUserCustody, 'recoveryShare')
    if (mode === 'operator') {
      if (body.recoveryShare === undefined)
        throw badRequest(keysMessages.recoveryShareNeeded, 'recoveryShare')
      if (body.recovery !== undefined) throw badRequest(keysMessages.sealedInOperatorCustody, 'recovery')
      recoveryShare = shareOfSet(body.recoveryShare, body.setId)
    }
    await checkRecoveryPasskey(session.userId, body.recovery)
    const evmPublicKey = await checkKeySetProof({
      projectId: session.projectId,
      setId: body.setId,
      addresses: body.addresses,
      proof: body.proof,
    })
    return {
      setId: body.setId,
      evmAddress: getAddress(body.addresses.eip155),
      evmPublicKey,
      solanaAddress: body.addresses.solana,
      authShare,
      recoveryShare,
      recovery: body.recovery,
    }
  }

  /** The answer of setup and reshare: the new state and the user, who now has accounts. */
  async function answer(session: WalletSession) {
    const keys = await sets.state(session.userId, session.projectId)
    const user = await deps.embeddedUserOf(await deps.userById(session.userId))
    return { keys, user }
  }

  const readySet = async (userId: string) => {
    const set = await sets.current(userId)
    if (!set) throw conflict(keysMessages.notReady)
    return set
  }

  return {
    custodyOf: sets.custodyOf,

    /** Where the user's keys stand. */
    state: (userId: string, projectId: string): Promise<WalletKeyState> => sets.state(userId, projectId),

    /** `POST keys/setup`: the first set of a user in state `none` or `legacy`. */
    async setup(session: WalletSession, body: KeySetupRequest) {
      const before = await sets.state(session.userId, session.projectId)
      if (before.state === 'ready') throw conflict(keysMessages.setUpAlready)
      const set = await checkedSet(session, body)
      if (before.state === 'legacy') {
        const legacy = await custody.accounts(session.userId)
        if (legacy.secp256k1.address !== set.evmAddress || legacy.ed25519.address !== set.solanaAddress)
          throw new EmbeddedError(403, 'FORBIDDEN', keysMessages.notLegacyAddresses, { field: 'addresses' })
      }
      if (!(await sets.create(session.userId, set))) throw conflict(keysMessages.setUpAlready)
      logger?.info(
        { projectId: session.projectId, legacy: before.state === 'legacy' },
        'Embedded-wallet keys set up',
      )
      return answer(session)
    },

    /** `POST keys/reshare`: a fresh set replacing the current one, for the same accounts. */
    async reshare(session: WalletSession, body: KeyReshareRequest) {
      const current = await readySet(session.userId)
      if (current.setId !== body.previousSetId) throw conflict(keysMessages.staleSet)
      const set = await checkedSet(session, body)
      if (set.evmAddress !== current.evmAddress || set.solanaAddress !== current.solanaAddress)
        throw new EmbeddedError(403, 'FORBIDDEN', keysMessages.addressesChanged, { field: 'addresses' })
      if (!(await sets.replace(session.userId, body.previousSetId, set)))
        throw conflict(keysMessages.staleSet)
      // A set whose recovery the operator held (made in operator custody), replaced in user custody:
      // the operator's copy went with the old set (logged so an operator sees people leave its custody).
      const leftOperator = current.recoveryMethod === 'operator' && set.recoveryShare === undefined
      logger?.info(
        { projectId: session.projectId, ...(leftOperator ? { operatorRecoveryDeleted: true } : {}) },
        'Embedded-wallet keys reshared',
      )
      return answer(session)
    },

    /** `POST keys/auth-share`: the service's share of the current set, to this session's frame. */
    async authShare(session: WalletSession): Promise<AuthShareResponse> {
      const set = await readySet(session.userId)
      const share = await sets.openShare(set, 'auth')
      try {
        return { setId: set.setId, authShare: share.toString('base64url') }
      } finally {
        share.fill(0)
      }
    },

    /** `POST keys/recovery-share`: the recovery share, sealed (user custody) or whole (operator). */
    async recoveryShare(session: WalletSession): Promise<RecoveryShareResponse> {
      const set = await readySet(session.userId)
      const noRecovery = () => new EmbeddedError(404, 'NOT_AVAILABLE', keysMessages.noRecovery)
      if (set.recoveryMethod === 'operator') {
        const share = await sets.openShare(set, 'recovery')
        try {
          return { method: 'operator', setId: set.setId, recoveryShare: share.toString('base64url') }
        } finally {
          share.fill(0)
        }
      }
      if (set.recoveryMethod === 'passkey' && set.passkeyCredentialId) {
        const sealed = passkeySealedShare.parse(set.recoverySealed)
        return recoveryShareResponse.parse({
          method: 'passkey',
          setId: set.setId,
          credentialId: set.passkeyCredentialId,
          sealed,
        })
      }
      if (set.recoveryMethod === 'password') {
        const sealed = passwordSealedShare.parse(set.recoverySealed)
        return { method: 'password', setId: set.setId, sealed }
      }
      throw noRecovery()
    },

    /** `POST keys/recovery`: sets or replaces the sealed recovery of the current set (user custody). */
    async setRecovery(session: WalletSession, body: SetRecoveryRequest): Promise<WalletKeyState> {
      if ((await sets.custodyOf(session.projectId)) === 'operator')
        throw conflict(keysMessages.recoveryInOperatorCustody)
      const set = await readySet(session.userId)
      // Sealing the operator's share anew would leave the operator two shares of a set that still
      // opens the key (its copy and the auth share): only a new set (a reshare) retires them.
      if (set.recoveryMethod === 'operator') throw conflict(keysMessages.operatorHoldsRecovery)
      await checkRecoveryPasskey(session.userId, body.recovery)
      if (set.setId !== body.setId || !(await sets.setRecovery(session.userId, body.setId, body.recovery)))
        throw conflict(keysMessages.staleSet)
      logger?.info(
        { projectId: session.projectId, method: body.recovery.method },
        'Embedded-wallet recovery set',
      )
      return sets.state(session.userId, session.projectId)
    },

    /**
     * `POST keys/migrate`: a legacy user's two custody keys as one version-2 secret, to the frame that
     * splits them (answered again until its setup succeeds, which deletes them).
     */
    async migrate(session: WalletSession): Promise<KeyMigrateResponse> {
      if (!(await custody.hasLegacyKeys(deps.db, session.userId))) throw conflict(keysMessages.notLegacy)
      const secret = await custody.withKey(session.userId, 'secp256k1', (evmKey) =>
        custody.withKey(session.userId, 'ed25519', (solanaSeed) => rawKeysSecret(evmKey, solanaSeed)),
      )
      logger?.info({ projectId: session.projectId }, 'Embedded-wallet custody keys handed to the frame')
      return { secret }
    },
  }
}

export type UserKeys = ReturnType<typeof createUserKeys>
