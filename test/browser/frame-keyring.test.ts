// The frame's key manager (src/frame/keyring.ts, keys/keySet.ts) in Chromium: real WebCrypto and IndexedDB.
import { ed25519 } from '@noble/curves/ed25519.js'
import { getAddress, verifyMessage } from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import * as z from 'zod/mini'
import type { FrameApi } from '../../src/frame/api.ts'
import { FrameFailure } from '../../src/frame/failure.ts'
import { createKeyring, keyMessages, keyStepOf, migratedSecret } from '../../src/frame/keyring.ts'
import { addressesOf, withKeys } from '../../src/frame/keys/derive.ts'
import { deviceShareStore } from '../../src/frame/keys/deviceShare.ts'
import { fromWireShare, newKeySet, setIdOf, toWireShare } from '../../src/frame/keys/keySet.ts'
import { createSecret, parseSecret, phraseOf, RAW_KEYS_SECRET } from '../../src/frame/keys/secret.ts'
import { createFrameSession } from '../../src/frame/session.ts'
import { frameStorage } from '../../src/frame/storage.ts'
import { toBase64Url } from '../../src/protocol/base64.ts'
import {
  keyReshareRequest,
  keySetProofMessage,
  keySetupRequest,
  type WalletKeyState,
} from '../../src/protocol/embedded/keys.ts'
import { decodeBase58 } from '../../src/protocol/siwx/base58.ts'
import { assert, equal } from './helpers.ts'

const projectId = 'keyring-test'
const store = deviceShareStore(indexedDB)

/** The error `run` rejects with (fails when it resolves). */
async function rejection(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a rejection')
}

/**
 * A key manager with its session, whose service must not be asked anything: each test here runs a
 * path that needs no request (the flows with the service run end to end, test/e2e).
 */
function keyringWith(state: WalletKeyState) {
  const api: FrameApi = {
    projectId,
    request: (method, path) => Promise.reject(new Error(`unexpected request ${method} ${path}`)),
  }
  const storage = frameStorage(undefined, projectId)
  storage.setToken('t'.repeat(43))
  const session = createFrameSession({ api, storage, chainId: 'eip155:1' })
  session.setKeys(state)
  return { session, keyring: createKeyring(session, { api, deviceShares: store }) }
}

/** A wallet whose set is ready: the secret, its set, this browser's share stored for `userId`. */
async function readyWallet(userId: string, custody: 'user' | 'operator' = 'user') {
  const secret = createSecret()
  const set = await withKeys(secret, (keys) => newKeySet({ secret, keys, projectId, custody }))
  await store.save(userId, set.shares.device)
  const state: WalletKeyState = {
    state: 'ready',
    userId,
    custody,
    setId: set.setId,
    addresses: set.addresses,
    recovery: custody === 'operator' ? ['operator'] : [],
  }
  return { secret, set, state }
}

describe('the key set the frame sends (keys/setup)', () => {
  it('default: one set id in every share (bytes 1..8 as hex), the auth share as URL-safe base64, the schema holds', async () => {
    const secret = createSecret()
    const set = await withKeys(secret, (keys) => newKeySet({ secret, keys, projectId, custody: 'user' }))
    equal(set.setId.length, 16, 'the set id is 8 bytes of hex')
    for (const share of [set.shares.device, set.shares.auth, set.shares.recovery])
      equal(setIdOf(share), set.setId, 'every share names the set')
    equal(
      set.setId,
      Array.from(set.shares.auth.subarray(1, 9), (byte) => byte.toString(16).padStart(2, '0')).join(''),
      'bytes 1..8',
    )
    equal(set.request.authShare, toBase64Url(set.shares.auth), 'URL-safe base64 without padding')
    equal(fromWireShare(set.request.authShare).join(), set.shares.auth.join(), 'the auth share comes back')
    assert(z.safeParse(keySetupRequest, set.request).success, 'keySetupRequest parses')
    assert(
      z.safeParse(keyReshareRequest, { previousSetId: '00'.repeat(8), ...set.request }).success,
      'keyReshareRequest parses',
    )
    equal(JSON.stringify(set.addresses), JSON.stringify(await addressesOf(secret)), 'the addresses')
  })

  it('behavior: the proof: EIP-191 by the EVM key and ed25519 over the UTF-8 message by the Solana key', async () => {
    const secret = createSecret()
    const set = await withKeys(secret, (keys) => newKeySet({ secret, keys, projectId, custody: 'user' }))
    const message = keySetProofMessage({ projectId, setId: set.setId, addresses: set.addresses })
    assert(
      await verifyMessage({
        address: set.addresses.eip155 as `0x${string}`,
        message,
        signature: set.request.proof.eip155 as `0x${string}`,
      }),
      'the EVM signature verifies',
    )
    const solanaKey = decodeBase58(set.addresses.solana)
    assert(solanaKey, 'a Solana public key')
    const signature = Uint8Array.from(set.request.proof.solana.slice(2).match(/../g) ?? [], (byte) =>
      Number.parseInt(byte, 16),
    )
    assert(ed25519.verify(signature, new TextEncoder().encode(message), solanaKey), 'ed25519 verifies')
    const other = keySetProofMessage({ projectId: 'another', setId: set.setId, addresses: set.addresses })
    assert(
      !(await verifyMessage({
        address: set.addresses.eip155 as `0x${string}`,
        message: other,
        signature: set.request.proof.eip155 as `0x${string}`,
      })),
      'the proof is good for this project only',
    )
  })

  it('behavior: the recovery share travels in operator custody only', async () => {
    const secret = createSecret()
    const user = await withKeys(secret, (keys) => newKeySet({ secret, keys, projectId, custody: 'user' }))
    const operator = await withKeys(secret, (keys) =>
      newKeySet({ secret, keys, projectId, custody: 'operator' }),
    )
    equal('recoveryShare' in user.request, false, 'user custody: no recovery share')
    equal(
      operator.request.recoveryShare,
      toWireShare(operator.shares.recovery),
      'operator custody: the recovery share',
    )
    assert(!JSON.stringify(user.request).includes(toWireShare(user.shares.device)), 'never the device share')
  })

  it('behavior: a migrated secret: the two raw keys (64 bytes) or with the version byte; bad input refused', async () => {
    const evm = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318'
    const account = privateKeyToAccount(evm)
    const raw = new Uint8Array(64)
    raw.set(Uint8Array.from(evm.slice(2).match(/../g) ?? [], (byte) => Number.parseInt(byte, 16)))
    raw.set(crypto.getRandomValues(new Uint8Array(32)), 32)
    const secret = migratedSecret(toBase64Url(raw))
    equal(parseSecret(secret).version, RAW_KEYS_SECRET, 'a version-2 secret')
    equal((await addressesOf(secret)).eip155, account.address, 'the same EVM account')
    equal(migratedSecret(toBase64Url(secret)).join(), secret.join(), 'with its version byte')
    equal(
      (await rejection(async () => migratedSecret(toBase64Url(new Uint8Array(64))))).name,
      'InvalidSecretError',
      'a zero key',
    )
  })
})

describe('what the frame does with the key state', () => {
  const base = { userId: 'u', setId: '0123456789abcdef', addresses: { eip155: '0x', solana: '1' } }
  it('default: none sets up, legacy migrates, ready with this set’s share is ready', () => {
    equal(keyStepOf({ state: 'none', userId: 'u', custody: 'user' }, undefined).step, 'setup')
    equal(keyStepOf({ state: 'legacy', userId: 'u', custody: 'operator' }, undefined).step, 'migrate')
    const ready: WalletKeyState = { ...base, state: 'ready', custody: 'user', recovery: [] }
    equal(keyStepOf(ready, base.setId).step, 'ready')
  })

  it('behavior: no share of this set: the operator’s recovery share recovers (operator custody, or a set made before the project left it); user custody says exactly what is lost', () => {
    const operator: WalletKeyState = { ...base, state: 'ready', custody: 'operator', recovery: ['operator'] }
    equal(keyStepOf(operator, undefined).step, 'recover', 'no share')
    equal(keyStepOf(operator, 'ffffffffffffffff').step, 'recover', 'a retired set’s share')
    const switched: WalletKeyState = { ...base, state: 'ready', custody: 'user', recovery: ['operator'] }
    equal(keyStepOf(switched, undefined).step, 'recover', 'the operator still holds the recovery share')
    const lost = keyStepOf({ ...base, state: 'ready', custody: 'user', recovery: [] }, undefined)
    equal(
      'message' in lost && lost.message,
      "This browser does not have your wallet's key, and no recovery method was set up: the wallet cannot be used here.",
    )
    for (const method of ['passkey', 'password'] as const) {
      const step = keyStepOf(
        { ...base, state: 'ready', custody: 'user', recovery: [method] },
        'ffffffffffffffff',
      )
      equal(
        'message' in step && step.message,
        "This browser does not have your wallet's key. Recover it with your passkey or recovery password.",
        method,
      )
    }
  })
})

describe('the key manager on this browser', () => {
  it('error: signing without this browser’s share (user custody) fails plainly, asking the service nothing', async () => {
    const { state } = await readyWallet('keyring-lost')
    await store.delete('keyring-lost')
    const { keyring } = keyringWith(state)
    const error = await rejection(() => keyring.sign('personal_sign', { plan: [], ownAccounts: [] }))
    assert(error instanceof FrameFailure, 'a frame failure')
    equal(error.message, keyMessages.lost)
    equal(error.payload.code, 'KEYS_NOT_ON_DEVICE')
  })

  it('error: a share of a retired set is no share: the same failure, and export says so too', async () => {
    const { state, set } = await readyWallet('keyring-retired')
    const { keyring } = keyringWith({ ...state, setId: 'ffffffffffffffff', recovery: ['passkey'] })
    const error = await rejection(() =>
      keyring.exportKeys({ setId: 'ffffffffffffffff', authShare: set.request.authShare }),
    )
    equal(error.message, keyMessages.recover)
  })

  it('behavior: export combines this browser’s share and the auth share: the phrase and keys open the same accounts', async () => {
    const { secret, set, state } = await readyWallet('keyring-export')
    const { keyring } = keyringWith(state)
    const keys = await keyring.exportKeys({ setId: set.setId, authShare: set.request.authShare })
    equal(keys.recoveryPhrase, phraseOf(secret) ?? null, 'the phrase')
    assert(keys.recoveryPhrase, 'a phrase secret has a phrase')
    equal(
      mnemonicToAccount(keys.recoveryPhrase).address,
      getAddress(set.addresses.eip155),
      'MetaMask’s account',
    )
    equal(
      privateKeyToAccount(keys.evmPrivateKey as `0x${string}`).address,
      getAddress(set.addresses.eip155),
      'the EVM key',
    )
    const solana = decodeBase58(keys.solanaSecretKey)
    assert(solana?.length === 64, 'Phantom’s 64-byte secret key')
    equal(
      solana.subarray(32).join(),
      ed25519.getPublicKey(solana.subarray(0, 32)).join(),
      'seed then public key',
    )
    equal(solana.subarray(32).join(), decodeBase58(set.addresses.solana)?.join(), 'the Solana account')
  })

  it('error: an auth share of another wallet does not export (never a different wallet)', async () => {
    const { state } = await readyWallet('keyring-other')
    const other = await readyWallet('keyring-other-2')
    const { keyring } = keyringWith(state)
    const error = await rejection(() =>
      keyring.exportKeys({ setId: other.set.setId, authShare: other.set.request.authShare }),
    )
    equal(error.name, 'ShareMismatchError')
  })

  it('behavior: a set whose recovery share the operator holds (its project left operator custody): the person’s recovery goes with a new set in one reshare, never sealed onto the old set', async () => {
    const { set, state: operatorState } = await readyWallet('keyring-switched', 'operator')
    const state: WalletKeyState = { ...operatorState, custody: 'user' }
    const sent: { path: string; body: Record<string, unknown> }[] = []
    const api: FrameApi = {
      projectId,
      request: async (method, path, _schema, body) => {
        sent.push({ path, body: body as Record<string, unknown> })
        if (path === 'keys/auth-share') return { setId: set.setId, authShare: set.request.authShare } as never
        if (path === 'keys/reshare') return {} as never
        throw new Error(`unexpected request ${method} ${path}`)
      },
    }
    const storage = frameStorage(undefined, projectId)
    storage.setToken('t'.repeat(43))
    const session = createFrameSession({ api, storage, chainId: 'eip155:1' })
    session.setKeys(state)
    const keyring = createKeyring(session, { api, deviceShares: store })
    const prfOutput = crypto.getRandomValues(new Uint8Array(32))
    await keyring.setUpRecovery({
      method: 'passkey',
      credentialId: 'c'.repeat(22),
      prfSalt: crypto.getRandomValues(new Uint8Array(32)),
      prfOutput,
    })
    equal(
      sent.map((request) => request.path).join(),
      'keys/auth-share,keys/reshare',
      'one reshare, no keys/recovery',
    )
    const reshare = z.parse(keyReshareRequest, sent[1]?.body)
    equal(reshare.previousSetId, set.setId, 'it replaces the set the operator holds the recovery of')
    assert(reshare.setId !== set.setId, 'a new set')
    equal(reshare.recovery?.method, 'passkey', 'sealed by the person')
    equal('recoveryShare' in reshare, false, 'nothing for the operator')
    const keys = session.keys
    equal(keys?.state === 'ready' && keys.recovery.join(), 'passkey')
    equal(keys?.state === 'ready' && keys.setId, reshare.setId)
    const device = await store.load('keyring-switched')
    assert(device, 'this browser keeps a share')
    equal(setIdOf(device), reshare.setId, 'this browser keeps its share of the new set')
    device.fill(0)
  })

  it('behavior: sign-out keeps this browser’s share; Delete wallet deletes it', async () => {
    const { state } = await readyWallet('keyring-leave')
    const { keyring } = keyringWith(state)
    keyring.forget()
    assert(await store.load('keyring-leave'), 'kept after sign-out')
    await keyring.deleteDeviceShare('keyring-leave')
    equal(await store.load('keyring-leave'), undefined, 'deleted with the wallet')
  })
})
