// Farcaster approvals, the relay stand-in, and the frame's CONNECT_FARCASTER.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { createAppClient, createWalletClient, viemConnector } from '@farcaster/auth-client'
import { approveChannel, channelRequest } from '../../../server/dev/farcaster/app.ts'
import { sessionResponse } from '../../../src/protocol/embedded/index.ts'
import {
  approvalMessage,
  authAddress,
  chain,
  clock,
  custody,
  DOMAIN,
  FID,
  RELAY_KEY,
  refusal,
  relay,
  startFarcasterWallet,
  stranger,
  t,
  verify,
} from './embedded-farcaster-helpers.ts'
import { frameWallet, newDeviceId, SITE } from './embedded-helpers.ts'
import { ensureKeys } from './embedded-keys-helpers.ts'

startFarcasterWallet()

describe('Farcaster approvals', () => {
  test('the custody key of the fid signs in, and the fid is its own user with one wallet', async () => {
    const message = approvalMessage({})
    const signature = await custody.signMessage({ message })
    const signIn = await verify({ message, signature, nonce: 'ourNonce12345678' })
    assert.equal(signIn.fid, '4242')
    assert.equal(signIn.signer.toLowerCase(), custody.address.toLowerCase())

    const identity = { subject: signIn.fid, email: null, emailVerified: false, username: 'alice' }
    const user = await t.wallet.social.userOf(t.projectId, 'farcaster', identity)
    assert.equal(await t.wallet.social.userOf(t.projectId, 'farcaster', identity), user)
    const other = await t.wallet.social.userOf(t.projectId, 'farcaster', { ...identity, subject: '4243' })
    assert.notEqual(other, user)
    const open = async (id: string) =>
      (
        await ensureKeys(
          t,
          sessionResponse.parse(
            await t.wallet.login.sessions.openSession(
              await t.wallet.login.users.userById(id),
              t.projectId,
              newDeviceId(),
              SITE,
              t.browserKey.publicKey,
            ),
          ),
        )
      ).user.accounts.eip155.address
    const wallet = await open(user)
    assert.match(wallet, /^0x[0-9a-fA-F]{40}$/)
    assert.equal(await open(user), wallet, 'the fid keeps its one wallet')
    assert.notEqual(await open(other), wallet)
  })

  test('an auth address registered for the fid signs in too', async () => {
    const message = approvalMessage({ address: authAddress.address })
    const signature = await authAddress.signMessage({ message })
    assert.equal((await verify({ message, signature, nonce: 'ourNonce12345678' })).fid, '4242')
  })

  test('an approval with another nonce is refused', async () => {
    const message = approvalMessage({ nonce: 'theirNonce1234567' })
    const signature = await custody.signMessage({ message })
    assert.equal(
      await refusal(verify({ message, signature, nonce: 'ourNonce12345678' })),
      'This Farcaster approval is for another sign-in request: start again',
    )
  })

  test('an approval for another domain is refused', async () => {
    const message = approvalMessage({ domain: 'evil.example' })
    const signature = await custody.signMessage({ message })
    assert.equal(
      await refusal(verify({ message, signature, nonce: 'ourNonce12345678' })),
      'This Farcaster approval was made for another site',
    )
  })

  test('an approval for another chain than OP mainnet is refused', async () => {
    const message = approvalMessage({ chainId: 1 })
    const signature = await custody.signMessage({ message })
    assert.equal(
      await refusal(verify({ message, signature, nonce: 'ourNonce12345678' })),
      'This Farcaster approval names the wrong chain',
    )
  })

  test('a key that does not hold the fid cannot sign in as it', async () => {
    const message = approvalMessage({ address: stranger.address })
    const signature = await stranger.signMessage({ message })
    assert.equal(
      await refusal(verify({ message, signature, nonce: 'ourNonce12345678' })),
      'This Farcaster approval was not signed by the account it names',
    )
  })

  test('a signature by another key than the message names is refused', async () => {
    const message = approvalMessage({})
    const signature = await stranger.signMessage({ message })
    assert.equal(
      await refusal(verify({ message, signature, nonce: 'ourNonce12345678' })),
      'This Farcaster approval could not be verified',
    )
  })
})

describe('the relay stand-in', () => {
  const app = () => createAppClient({ relay: relay.url, ethereum: viemConnector({ rpcUrl: chain.url }) })
  const farcasterApp = () =>
    createWalletClient({ relay: relay.url, ethereum: viemConnector({ rpcUrl: chain.url }) })
  const siweUri = `http://${DOMAIN}/embedded/farcaster`

  test('a channel goes from pending to completed with the approval, which verifies', async () => {
    const created = await app().createChannel({ siweUri, domain: DOMAIN, nonce: 'ourNonce12345678' })
    assert.equal(created.isError, false)
    const { channelToken, url, nonce } = created.data as { channelToken: string; url: string; nonce: string }
    assert.equal(nonce, 'ourNonce12345678')
    assert.equal(new URL(url).searchParams.get('channelToken'), channelToken)
    const pending = await app().status({ channelToken })
    assert.equal(pending.response?.status, 202)
    assert.equal(pending.data?.state, 'pending')

    const built = farcasterApp().buildSignInMessage({
      address: custody.address,
      fid: Number(FID),
      uri: siweUri,
      domain: DOMAIN,
      nonce,
    })
    assert.equal(built.isError, false)
    const message = built.message as string
    const signature = await custody.signMessage({ message })
    const delivered = await farcasterApp().authenticate({
      channelToken,
      authKey: RELAY_KEY,
      message,
      signature,
      fid: Number(FID),
      username: 'alice',
      pfpUrl: 'https://example.com/alice.png',
    })
    assert.equal(delivered.isError, false)

    const done = await app().status({ channelToken })
    assert.equal(done.response?.status, 200)
    assert.equal(done.data?.state, 'completed')
    assert.equal(done.data?.username, 'alice')
    assert.equal(done.data?.pfpUrl, 'https://example.com/alice.png')
    assert.equal(done.data?.fid, 4242)
    const signIn = await verify({
      message: done.data?.message as string,
      signature: done.data?.signature as `0x${string}`,
      nonce: 'ourNonce12345678',
    })
    assert.equal(signIn.fid, '4242')
  })

  test('an approval without the relay key, or for a channel that expired, is refused', async () => {
    const created = await app().createChannel({ siweUri, domain: DOMAIN })
    const channelToken = created.data?.channelToken as string
    const body = { message: 'x', signature: '0x00', fid: 1 }
    const post = (key: string) =>
      fetch(`${relay.url}/v1/channel/authenticate`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${channelToken}`,
          'x-farcaster-auth-relay-key': key,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      })
    assert.equal((await post('guessed-key')).status, 401)
    clock.now += 5 * 60_000 + 1
    const status = (token: string) =>
      fetch(`${relay.url}/v1/channel/status`, { headers: { authorization: `Bearer ${token}` } })
    assert.equal((await status(channelToken)).status, 401)
    assert.equal((await post(RELAY_KEY)).status, 401)
    const unknown = await fetch(`${relay.url}/v1/channel/status`, {
      headers: { authorization: 'Bearer nope' },
    })
    assert.equal(unknown.status, 401)
  })
})

describe('the frame’s CONNECT_FARCASTER', () => {
  test('start gives the channel URL; finish says pending, then connects the fid with username and picture', async () => {
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 })
    const frame = frameWallet(t, base)
    const started = await frame.ask('CONNECT_FARCASTER', { step: 'start' })
    assert.equal(started.type, 'CONNECT_FARCASTER_SUCCESS')
    const { url } = started.payload as { url: string; expiresAt: string }
    const request = channelRequest.parse(Object.fromEntries(new URL(url).searchParams))

    const pending = await frame.ask('CONNECT_FARCASTER', { step: 'finish' })
    assert.deepEqual(pending, {
      type: 'CONNECT_FARCASTER_ERROR',
      payload: { message: 'Waiting for approval in the Farcaster app', code: 'FARCASTER_PENDING' },
    })
    await approveChannel(request, {
      relayUrl: relay.url,
      relayKey: RELAY_KEY,
      rpcUrl: chain.url,
      account: { custody, fid: Number(FID), username: 'alice', pfpUrl: 'https://example.com/a.png' },
    })
    assert.deepEqual(await frame.ask('CONNECT_FARCASTER', { step: 'finish' }), {
      type: 'CONNECT_FARCASTER_SUCCESS',
      payload: {},
    })
    const user = await frame.ask('GET_USER', {})
    assert.equal(user.type, 'GET_USER_SUCCESS')
    const payload = user.payload as { userName?: string; userImage?: string; accounts: unknown[] }
    assert.equal(payload.userName, 'alice')
    assert.equal(payload.userImage, 'https://example.com/a.png')
    assert.equal(payload.accounts.length, 2, 'EVM and Solana')
    const after = await frame.ask('CONNECT_FARCASTER', { step: 'finish' })
    assert.equal((after.payload as { message?: string }).message, 'Action not allowed')
  })
})
