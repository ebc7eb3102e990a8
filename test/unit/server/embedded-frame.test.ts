import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Hex, verifyMessage } from 'viem'
import { createFrameApi } from '../../../src/frame/api.ts'
import { createKeyring } from '../../../src/frame/keyring.ts'
import { createFrameSession } from '../../../src/frame/session.ts'
import { createSignIn } from '../../../src/frame/signIn.ts'
import { frameStorage } from '../../../src/frame/storage.ts'
import type { AppEvent, AppEventType, ApprovalPreview } from '../../../src/protocol/embedded/index.ts'
import { appEventPayloads } from '../../../src/protocol/embedded/index.ts'
import { MemoryStorage } from '../memoryStorage.ts'
import { codeIn, type EmbeddedTestApp, frameWallet, SITE, startEmbeddedTestApp } from './embedded-helpers.ts'
import { memoryDeviceShares } from './frame-device-shares.ts'
import { openTestDatabase, type TestDatabase } from './helpers.ts'

let testDb: TestDatabase
let t: EmbeddedTestApp
let base: string

before(async () => {
  testDb = await openTestDatabase('embedded_frame')
  t = await startEmbeddedTestApp(testDb, 'frame-project', {
    rpcUpstreams: { 'eip155:31337': 'http://127.0.0.1:9' },
  })
  base = await t.app.listen({ host: '127.0.0.1', port: 0 })
})
after(async () => {
  await t?.close()
  await testDb?.close()
})

/** The frame's wallet against this file's service (see {@link frameWallet}). */
const wallet = (options: Parameters<typeof frameWallet>[2] = {}) => frameWallet(t, base, options)

let counter = 0
const freshEmail = () => `frame${++counter}.${Date.now()}@example.com`

describe('the frame’s wallet, against the service', () => {
  test('default: e-mail sign-in, user, accounts, a signature approved by the person; the token never leaves the frame', async () => {
    const email = freshEmail()
    const frame = wallet()
    assert.deepEqual(await frame.ask('IS_CONNECTED', {}), {
      type: 'IS_CONNECTED_SUCCESS',
      payload: { isConnected: false },
    })
    const started = await frame.ask('CONNECT_EMAIL', { email })
    assert.deepEqual(started, {
      type: 'CONNECT_EMAIL_SUCCESS',
      payload: { action: 'VERIFY_OTP', resendAfterSeconds: 30 },
    })
    const code = codeIn(t.mailTo(email)[0])
    assert.deepEqual(await frame.ask('CONNECT_OTP', { otp: ` ${code.slice(0, 3)} ${code.slice(3)} ` }), {
      type: 'CONNECT_OTP_SUCCESS',
      payload: {},
    })
    const user = await frame.ask('GET_USER', { chainId: 'eip155:31337' })
    assert.equal(user.type, 'GET_USER_SUCCESS')
    const { address, accounts } = user.payload as {
      address: Hex
      accounts: { namespace: string; address: string }[]
    }
    assert.equal(accounts.length, 2)
    const solana = await frame.ask('GET_USER', { chainId: 'solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9' })
    assert.equal((solana.payload as { address: string }).address, accounts[1]?.address)
    assert.deepEqual(await frame.ask('RPC_REQUEST', { chainId: 'eip155:31337', method: 'eth_accounts' }), {
      type: 'RPC_REQUEST_SUCCESS',
      payload: { result: [address] },
    })

    const shown: ApprovalPreview[] = []
    const approving = wallet({ shown, storage: frame.storage })
    const signed = await approving.ask('RPC_REQUEST', {
      chainId: 'eip155:31337',
      method: 'personal_sign',
      params: ['0x68656c6c6f', address],
    })
    assert.equal(shown[0]?.message?.text, 'hello')
    const signature = (signed.payload as { result: Hex }).result
    assert.ok(await verifyMessage({ address, message: 'hello', signature }))

    const rejecting = wallet({ decision: 'reject', storage: frame.storage })
    assert.deepEqual(
      await rejecting.ask('RPC_REQUEST', {
        chainId: 'eip155:31337',
        method: 'personal_sign',
        params: ['0x6e6f', address],
      }),
      { type: 'RPC_REQUEST_ERROR', payload: { message: 'User rejected the request.', code: 4001 } },
    )

    const token = [
      ...Object.values(
        Object.fromEntries(
          [...Array(frame.storage.length).keys()].map((index) => [
            index,
            frame.storage.getItem(frame.storage.key(index) ?? ''),
          ]),
        ),
      ),
    ].filter((value): value is string => typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value))
    assert.equal(token.length, 1)
    const everything = JSON.stringify([...frame.answers, ...approving.answers, ...rejecting.answers])
    assert.ok(!everything.includes(token[0] as string), 'no answer carries the session token')

    assert.deepEqual(await frame.ask('SIGN_OUT', {}), { type: 'SIGN_OUT_SUCCESS', payload: {} })
    assert.deepEqual(await frame.ask('IS_CONNECTED', {}), {
      type: 'IS_CONNECTED_SUCCESS',
      payload: { isConnected: false },
    })
  })

  test('behavior: every app event of SPEC 7 gets exactly one answer, its own type’s success or error', async () => {
    const frame = wallet()
    const payloads: { [T in AppEventType]: Extract<AppEvent, { type: T }>['payload'] } = {
      SWITCH_NETWORK: { chainId: 'eip155:31337' },
      CONNECT_EMAIL: { email: freshEmail() },
      CONNECT_DEVICE: {},
      CONNECT_OTP: { otp: '000000' },
      CONNECT_SOCIAL: { provider: 'github' },
      CONNECT_FARCASTER: { step: 'finish' },
      GET_USER: {},
      GET_SOCIAL_REDIRECT_URI: { provider: 'google' },
      SIGN_OUT: {},
      IS_CONNECTED: {},
      GET_CHAIN_ID: {},
      GET_SMART_ACCOUNT_ENABLED_NETWORKS: {},
      INIT_SMART_ACCOUNT: {},
      SET_PREFERRED_ACCOUNT: { type: 'smartAccount' },
      RPC_REQUEST: { chainId: 'eip155:31337', method: 'eth_chainId' },
      UPDATE_EMAIL: { email: freshEmail() },
      UPDATE_EMAIL_PRIMARY_OTP: { otp: '000000' },
      UPDATE_EMAIL_SECONDARY_OTP: { otp: '000000' },
      SYNC_THEME: { themeMode: 'dark', accent: '#e8590c' },
      SYNC_DAPP_DATA: {
        projectId: t.projectId,
        sdkType: 'wallet-elements',
        sdkVersion: '0.1.0',
        metadata: { name: 'Shop', description: '', url: SITE, icons: [] },
        locale: 'en',
      },
      RELOAD: {},
      CANCEL_APPROVAL: {},
      EXPORT_WALLET: {},
      DELETE_WALLET: {},
      SECURE_WALLET: { reason: 'account' },
      CONNECT_PASSKEY: {},
      MANAGE_PASSKEYS: {},
    }
    assert.deepEqual(Object.keys(payloads).sort(), Object.keys(appEventPayloads).sort())
    for (const type of Object.keys(payloads) as AppEventType[]) {
      const answer = await frame.ask(type, payloads[type] as never)
      assert.ok(
        answer.type === `${type}_SUCCESS` || answer.type === `${type}_ERROR`,
        `${type}: ${answer.type}`,
      )
    }
    assert.equal(frame.answers.length, Object.keys(payloads).length)
    const byType = Object.fromEntries(frame.answers.map((answer) => [answer.type, answer.payload]))
    // This service has no bundler: no smart account networks.
    assert.deepEqual(byType.GET_SMART_ACCOUNT_ENABLED_NETWORKS_SUCCESS, { smartAccountEnabledNetworks: [] })
    // A provider without credentials on this service: not available here.
    assert.deepEqual(byType.GET_SOCIAL_REDIRECT_URI_ERROR, {
      message: 'Sign-in with google is not available here',
      code: 'SOCIAL_UNAVAILABLE',
    })
    // Out of order, or signed out: Action not allowed.
    for (const type of [
      'CONNECT_SOCIAL',
      'CONNECT_FARCASTER',
      'CONNECT_DEVICE',
      'GET_USER',
      'INIT_SMART_ACCOUNT',
      'SET_PREFERRED_ACCOUNT',
      'UPDATE_EMAIL',
      'UPDATE_EMAIL_PRIMARY_OTP',
      'UPDATE_EMAIL_SECONDARY_OTP',
    ])
      assert.equal((byType[`${type}_ERROR`] as { message?: string })?.message, 'Action not allowed', type)
    // After CONNECT_EMAIL, a wrong code counts down.
    assert.deepEqual(byType.CONNECT_OTP_ERROR, {
      message: 'Invalid code: 4 tries left',
      code: 'INVALID_CODE',
      attemptsLeft: 4,
    })
    assert.deepEqual(byType.GET_CHAIN_ID_SUCCESS, { chainId: 'eip155:31337' })
    // A frame without the passkey views (or without WebAuthn) says so.
    for (const type of ['CONNECT_PASSKEY', 'MANAGE_PASSKEYS'])
      assert.equal((byType[`${type}_ERROR`] as { code?: number })?.code, 4200, type)
  })

  test('attack: a frame the page opened itself, signed in from the same storage, never answers the e-mail; the frame draws it', async () => {
    const email = freshEmail()
    const drawn: (string | null | undefined)[] = []
    const modalFrame = wallet({ identity: (user) => drawn.push(user?.email) })
    await modalFrame.ask('CONNECT_EMAIL', { email })
    await modalFrame.ask('CONNECT_OTP', { otp: codeIn(t.mailTo(email)[0]) })
    // The frame draws who is signed in (its identity line on Account): the e-mail stays there.
    assert.deepEqual(drawn, [email])
    const script = wallet({ storage: modalFrame.storage })
    await script.ask('IS_CONNECTED', {})
    await script.ask('GET_USER', { chainId: 'eip155:31337' })
    await script.ask('GET_USER', { chainId: 'solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9' })
    await script.ask('RPC_REQUEST', { chainId: 'eip155:31337', method: 'eth_accounts' })
    await modalFrame.ask('GET_USER', {})
    const heard = JSON.stringify([...script.answers, ...modalFrame.answers])
    assert.ok(heard.includes('GET_USER_SUCCESS'), 'the user was answered')
    assert.ok(!heard.toLowerCase().includes(email.toLowerCase()), 'the e-mail reached the page')
    assert.ok(!heard.includes('"email"'), 'an e-mail field reached the page')
  })

  test('error: without a smart account network, SET_PREFERRED_ACCOUNT and INIT_SMART_ACCOUNT fall back to the EOA with This application might not support Smart Accounts', async () => {
    const email = freshEmail()
    const frame = wallet()
    await frame.ask('CONNECT_EMAIL', { email })
    await frame.ask('CONNECT_OTP', { otp: codeIn(t.mailTo(email)[0]) })
    for (const [type, payload] of [
      ['SET_PREFERRED_ACCOUNT', { type: 'smartAccount' }],
      ['INIT_SMART_ACCOUNT', {}],
    ] as const) {
      const answer = await frame.ask(type, payload as never)
      assert.equal(answer.type, `${type}_ERROR`)
      assert.equal(
        (answer.payload as { message: string }).message,
        'This application might not support Smart Accounts',
        type,
      )
    }
    const user = await frame.ask('GET_USER', { chainId: 'eip155:31337' })
    assert.equal((user.payload as { preferredAccountType: string }).preferredAccountType, 'eoa')
    assert.equal((user.payload as { smartAccountDeployed: boolean }).smartAccountDeployed, false)
    assert.deepEqual(await frame.ask('SET_PREFERRED_ACCOUNT', { type: 'eoa' }), {
      type: 'SET_PREFERRED_ACCOUNT_SUCCESS',
      payload: {},
    })
  })

  test('error: methods outside the classes answer "Requested RPC call is not allowed" without reaching the service', async () => {
    const frame = wallet()
    for (const method of ['eth_sign', 'eth_signTransaction', 'hardhat_setBalance', 'personal_unlockAccount'])
      assert.deepEqual(await frame.ask('RPC_REQUEST', { chainId: 'eip155:31337', method }), {
        type: 'RPC_REQUEST_ERROR',
        payload: { message: 'Requested RPC call is not allowed', code: 4200, data: { method } },
      })
    const cooldown = freshEmail()
    await frame.ask('CONNECT_EMAIL', { email: cooldown })
    const again = await frame.ask('CONNECT_EMAIL', { email: cooldown })
    assert.equal(again.type, 'CONNECT_EMAIL_ERROR')
    assert.match(
      String((again.payload as { message: string }).message),
      /^Please try again after \d+ seconds$/,
    )
    assert.equal((again.payload as { code: string }).code, 'EMAIL_COOLDOWN')
  })

  test('behavior: the service ends the session (signed out elsewhere): the unsealed recovery share the frame kept is zeroed and forgotten at its next 401', async () => {
    // The frame's own parts, so the test can look into the key manager's memory.
    const storage = frameStorage(new MemoryStorage(), t.projectId)
    const api = createFrameApi({
      projectId: t.projectId,
      site: () => SITE,
      fetch: (url, init) => fetch(`${base}${String(url)}`, init),
      sessionKey: storage.sessionKey,
    })
    let ended = 0
    const session = createFrameSession({
      api,
      storage,
      chainId: 'eip155:31337',
      onSessionEnded: () => ended++,
    })
    const keyring = createKeyring(session, { api, deviceShares: memoryDeviceShares() })
    const signIn = createSignIn(session, { api, storage, site: SITE }, keyring)
    const email = freshEmail()
    await signIn.handlers.CONNECT_EMAIL({ email })
    await signIn.handlers.CONNECT_OTP({ otp: codeIn(t.mailTo(email)[0]) })
    const userId = session.keys?.userId ?? ''
    // User custody: the new set's recovery share waits in memory for the person to seal it.
    const pending = keyring.pendingRecoveryShare(userId)
    assert.ok(pending?.share.some((byte) => byte !== 0))
    assert.ok(pending)
    const kept = pending.share

    // The session ends on the service (here: signed out with its own token, as another tab would).
    await api.request('POST', 'sign-out', undefined, {}, storage.token())
    await assert.rejects(session.refreshUser(), { name: 'ApiError', status: 401 })
    assert.equal(ended, 1)
    assert.equal(keyring.pendingRecoveryShare(userId), undefined)
    assert.ok(
      kept.every((byte) => byte === 0),
      'the share’s bytes are zeroed',
    )
  })
})
