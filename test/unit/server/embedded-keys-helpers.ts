// The person's keys in service tests, made and used as the frame does: secret, shares, proof, signing.
import assert from 'node:assert/strict'
import { ed25519 } from '@noble/curves/ed25519.js'
import { type Hex, hashMessage } from 'viem'
import type { Db } from '../../../server/db/database.ts'
import { walletUsers } from '../../../server/db/schema.ts'
import type { Custody } from '../../../server/embedded/custody.ts'
import { addressesOf, type WalletAddresses, withKeys } from '../../../src/frame/keys/derive.ts'
import { createSecret, type WalletSecret } from '../../../src/frame/keys/secret.ts'
import { type ShareSet, splitSecret } from '../../../src/frame/keys/shares.ts'
import {
  type ApprovalMethod,
  type ApprovalResponse,
  approvalResponse,
  type EmbeddedUser,
  keySetProofMessage,
  type SessionResponse,
  walletKeyState,
} from '../../../src/protocol/embedded/index.ts'
import { signHash, signPlan } from '../../../src/protocol/embedded/signer.ts'
import { type EmbeddedTestApp, signInByEmail, type TestSessionKey } from './embedded-helpers.ts'

/** The person's keys as the frame holds them in a test: the secret, its shares and the raw keys. */
export interface FrameKeys {
  secret: WalletSecret
  shares: ShareSet
  setId: string
  addresses: WalletAddresses
  keys: { secp256k1: Uint8Array; ed25519: Uint8Array }
}

/** URL-safe base64, as shares travel. */
export const wire = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')

/** A wire share's bytes (a plain Uint8Array: the Shamir library refuses a Buffer). */
export const shareBytes = (text: string) => Uint8Array.from(Buffer.from(text, 'base64url'))

/** The set id a share carries (bytes 1..8), as hex. */
export const setIdOf = (share: Uint8Array) => Buffer.from(share.subarray(1, 9)).toString('hex')

/**
 * A secret split into a set, its addresses and keys (a new phrase secret unless one is given).
 *
 * @example
 * const frame = await frameKeysOf(createSecret())
 */
export async function frameKeysOf(secret: WalletSecret = createSecret()): Promise<FrameKeys> {
  const shares = await splitSecret(secret)
  const addresses = await addressesOf(secret)
  // Copies that outlive `withKeys`: a test signs many times with them.
  const keys = await withKeys(secret, (opened) => ({
    secp256k1: opened.secp256k1.slice(),
    ed25519: opened.ed25519.slice(),
  }))
  return { secret, shares, setId: setIdOf(shares.auth), addresses, keys }
}

/**
 * The proof of a set, as the frame signs it: EIP-191 by the EVM key, ed25519 over the UTF-8 text.
 *
 * @example
 * const proof = keySetProof(frame, projectId)
 */
export function keySetProof(frame: FrameKeys, projectId: string, setId = frame.setId) {
  const message = keySetProofMessage({ projectId, setId, addresses: frame.addresses })
  return {
    eip155: signHash(hashMessage(message), frame.keys.secp256k1),
    solana: `0x${Buffer.from(ed25519.sign(new TextEncoder().encode(message), frame.keys.ed25519)).toString('hex')}`,
  }
}

/** The body of `POST keys/setup` for a set (the recovery share only in operator custody). */
export function setupBody(frame: FrameKeys, projectId: string, custody: 'user' | 'operator' = 'user') {
  return {
    setId: frame.setId,
    authShare: wire(frame.shares.auth),
    addresses: frame.addresses,
    proof: keySetProof(frame, projectId),
    ...(custody === 'operator' ? { recoveryShare: wire(frame.shares.recovery) } : {}),
  }
}

/** A signed-in session whose keys are set up: the user (with accounts) and the frame's keys. */
export type SessionWithKeys = SessionResponse & { user: EmbeddedUser; frame: FrameKeys }

/**
 * Sets a signed-in person's keys up the way the frame does: a new secret (or `secret`, e.g. a legacy
 * user's migrated keys), split, the auth share and a real proof sent to `POST keys/setup`.
 *
 * @example
 * const session = await setupKeysLikeTheFrame(t, await signInByEmail(t, 'ada@example.com'))
 */
export async function setupKeysLikeTheFrame(
  app: EmbeddedTestApp,
  session: SessionResponse,
  options: { secret?: WalletSecret; custody?: 'user' | 'operator'; key?: TestSessionKey } = {},
): Promise<SessionWithKeys> {
  const frame = await frameKeysOf(options.secret)
  const custody = options.custody ?? session.keys.custody
  const answer = await app.call('/embedded/v1/keys/setup', setupBody(frame, app.projectId, custody), {
    token: session.token,
    ...(options.key ? { key: options.key } : {}),
  })
  assert.equal(answer.status, 200, JSON.stringify(answer.body))
  const keys = walletKeyState.parse(answer.body.keys)
  assert.equal(keys.state, 'ready')
  return { ...session, keys, user: answer.body.user as EmbeddedUser, frame }
}

/** A session answer with its user (the keys are set up). */
export type SessionWithUser = SessionResponse & { user: EmbeddedUser }

/**
 * A sign-in's answer as the frame goes on from it: a new person's keys set up first (state `none`);
 * a person with keys has their user in the answer already.
 *
 * @example
 * const session = await ensureKeys(t, sessionResponse.parse(finished.body))
 */
export async function ensureKeys(
  app: EmbeddedTestApp,
  session: SessionResponse,
  key?: TestSessionKey,
): Promise<SessionWithUser> {
  if (session.keys.state === 'none') return setupKeysLikeTheFrame(app, session, key ? { key } : {})
  assert.ok(session.user, 'a person with keys has their user in the answer')
  return session as SessionWithUser
}

/**
 * Signs in by e-mail and sets the keys up like the frame.
 *
 * @example
 * const session = await signInWithKeys(t, 'ada@example.com')
 */
export async function signInWithKeys(app: EmbeddedTestApp, email: string, deviceId?: string) {
  const session = await signInByEmail(app, email, ...(deviceId === undefined ? [] : [deviceId]))
  return session.user ? (session as SessionWithKeys) : setupKeysLikeTheFrame(app, session)
}

/**
 * Approves a stored request as the frame does once the person clicks: signs its plan with the keys
 * (the one signer, its rules checked) and posts the signatures.
 *
 * @example
 * const created = approvalResponse.parse((await t.call('/embedded/v1/requests', body, { token })).body)
 * const answer = await signAndApprove(t, session, created)
 */
export async function signAndApprove(
  app: EmbeddedTestApp,
  session: { token: string; frame: FrameKeys },
  created: ApprovalResponse,
) {
  const signatures = signPlan({
    method: created.preview.method as ApprovalMethod,
    plan: created.signing.plan,
    keys: session.frame.keys,
    ownAccounts: created.signing.ownAccounts as Hex[],
  })
  return app.call(`/embedded/v1/requests/${created.id}/approve`, { signatures }, { token: session.token })
}

/**
 * Stores a request and approves it as the person would in the frame.
 *
 * @example
 * const { answer } = await createAndApprove(t, session, { chainId, method: 'personal_sign', params })
 */
export async function createAndApprove(
  app: EmbeddedTestApp,
  session: { token: string; frame: FrameKeys },
  request: { chainId: string; method: string; params: unknown },
) {
  const stored = await app.call('/embedded/v1/requests', request, { token: session.token })
  assert.equal(stored.status, 200, JSON.stringify(stored.body))
  const created = approvalResponse.parse(stored.body)
  return { ...created, answer: await signAndApprove(app, session, created) }
}

/**
 * A user with keys made the old way (custody's `createKeys`, as before the frame made the keys), for tests
 * of the migration: the database as today's code wrote it.
 *
 * @example
 * const accounts = await insertLegacyKeys(db, custody, userId)
 */
export async function insertLegacyUser(
  db: Db,
  custody: Custody,
  user: { id: string; projectId: string; email: string },
) {
  return db.transaction(async (tx) => {
    await tx.insert(walletUsers).values(user)
    return custody.createKeys(tx as unknown as Db, user.id)
  })
}
