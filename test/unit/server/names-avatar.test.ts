/**
 * Profile images: the account holding a name sets its image by a signed message
 * (`POST /names/v1/avatar`), served by the profile; and what an attacker with curl would try: no or a
 * forged signature, another account's profile, a replayed message, `javascript:`/`data:`/`http:` or
 * oversized URLs, a message for another image, a foreign domain.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { mnemonicToAccount } from 'viem/accounts'
import { buildApp } from '../../../server/app.ts'
import {
  AVATAR_MAX_LENGTH,
  AVATAR_RULE_MESSAGE,
  apiErrorBody,
  avatarUpdateMessage,
  isAvatarUrl,
  nameRecord,
  nameRegistrationMessage,
  parseAvatarUpdateMessage,
  profileResponse,
} from '../../../src/protocol/api/index.ts'
import { openTestDatabase, sdk, type TestDatabase, testLogger } from './helpers.ts'

const mnemonic = 'test test test test test test test test test test test junk'
const alice = mnemonicToAccount(mnemonic, { addressIndex: 0 })
const bob = mnemonicToAccount(mnemonic, { addressIndex: 1 })
const site = 'http://localhost:5173'
const image = 'https://images.example.com/alice.png'

let testDb: TestDatabase
let app: FastifyInstance
let now = Date.parse('2026-11-24T12:00:00.000Z')
/** Alice's registration, as sent. */
let registration: Record<string, string>

const errorOf = (body: string) => apiErrorBody.parse(JSON.parse(body)).error
const post = (path: string, body: unknown) =>
  app.inject({
    method: 'POST',
    url: `${path}?${sdk()}`,
    headers: { origin: site, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  })

/** A signed image update of `account` (as `name`), with fields to tamper with. */
async function update(
  account: typeof alice,
  avatar: string | null,
  overrides: {
    address?: string
    signer?: typeof alice
    name?: string
    domain?: string
    bodyAvatar?: string | null
    message?: string
  } = {},
) {
  const message =
    overrides.message ??
    avatarUpdateMessage({
      domain: overrides.domain ?? 'localhost:5173',
      name: overrides.name ?? 'alice-pics.wallet.test',
      avatar,
      address: overrides.address ?? account.address,
      chainId: 'eip155:31337',
      issuedAt: new Date(now).toISOString(),
    })
  const signature = await (overrides.signer ?? account).signMessage({ message })
  return {
    message,
    signature,
    send: () =>
      post('/names/v1/avatar', {
        address: overrides.address ?? account.address,
        chainId: 'eip155:31337',
        avatar: overrides.bodyAvatar === undefined ? avatar : overrides.bodyAvatar,
        message,
        signature,
      }),
  }
}

const profileOf = async (address: string) => {
  const response = await app.inject({
    url: `/names/v1/profile?${sdk()}&address=${address}`,
    headers: { origin: site },
  })
  assert.equal(response.statusCode, 200, response.body)
  return profileResponse.parse(JSON.parse(response.body))
}

before(async () => {
  testDb = await openTestDatabase('names-avatar')
  app = await buildApp(testDb.config({ devOrigins: [site], rpcUpstreams: {}, nameSuffix: 'wallet.test' }), {
    database: testDb.database,
    logger: testLogger,
    now: () => now,
  })
  const message = nameRegistrationMessage({
    domain: 'localhost:5173',
    name: 'alice-pics.wallet.test',
    address: alice.address,
    chainId: 'eip155:31337',
    issuedAt: new Date(now).toISOString(),
  })
  registration = {
    name: 'alice-pics',
    address: alice.address,
    chainId: 'eip155:31337',
    message,
    signature: await alice.signMessage({ message }),
  }
  const registered = await post('/names/v1/register', registration)
  assert.equal(registered.statusCode, 200, registered.body)
})

after(async () => {
  await app?.close()
  await testDb?.close()
})

describe('POST /names/v1/avatar', () => {
  test('the account sets its image by a signed message; the profile serves it; null clears it', async () => {
    assert.equal((await profileOf(alice.address)).avatar, null)
    now += 1_000
    const set = await (await update(alice, image)).send()
    assert.equal(set.statusCode, 200, set.body)
    assert.equal(nameRecord.parse(JSON.parse(set.body)).avatar, image)
    assert.deepEqual(await profileOf(alice.address), {
      address: alice.address,
      name: 'alice-pics.wallet.test',
      avatar: image,
    })
    now += 1_000
    const cleared = await (await update(alice, null)).send()
    assert.equal(cleared.statusCode, 200, cleared.body)
    assert.equal((await profileOf(alice.address)).avatar, null)
    now += 1_000
    assert.equal((await (await update(alice, image)).send()).statusCode, 200)
  })

  test('a replayed message is refused, and so is an older registration once an image was set', async () => {
    now += 1_000
    const first = await update(alice, 'https://images.example.com/first.png')
    assert.equal((await first.send()).statusCode, 200)
    const replay = await first.send()
    assert.equal(replay.statusCode, 400)
    assert.equal(errorOf(replay.body).message, 'A newer message of this account exists')
    const oldRegistration = await post('/names/v1/register', registration)
    assert.equal(oldRegistration.statusCode, 400)
    assert.equal(errorOf(oldRegistration.body).message, 'A newer registration of this account exists')
    assert.equal((await profileOf(alice.address)).avatar, 'https://images.example.com/first.png')
  })

  test('no signature, a forged one, or one by another account is refused', async () => {
    now += 1_000
    const unsigned = await update(alice, 'https://evil.example/x.png')
    const noSignature = await post('/names/v1/avatar', {
      address: alice.address,
      chainId: 'eip155:31337',
      avatar: 'https://evil.example/x.png',
      message: unsigned.message,
      signature: '0x',
    })
    assert.ok([400, 401].includes(noSignature.statusCode), noSignature.body)
    // Bob signs a message naming alice's account.
    const forged = await (await update(alice, 'https://evil.example/x.png', { signer: bob })).send()
    assert.ok([400, 401].includes(forged.statusCode), forged.body)
    // Bob signs for himself but sends it as alice's.
    const other = await (await update(bob, 'https://evil.example/x.png', { address: bob.address })).send()
    assert.equal(other.statusCode, 404, other.body)
    assert.equal(errorOf(other.body).message, 'The account has no name: register one first')
    const asAlice = await post('/names/v1/avatar', {
      address: alice.address,
      chainId: 'eip155:31337',
      avatar: 'https://evil.example/x.png',
      message: (await update(bob, 'https://evil.example/x.png')).message,
      signature: (await update(bob, 'https://evil.example/x.png')).signature,
    })
    assert.equal(asAlice.statusCode, 400, asAlice.body)
    assert.equal(errorOf(asAlice.body).message, 'The message is for another account or network')
    assert.equal((await profileOf(alice.address)).avatar, 'https://images.example.com/first.png')
  })

  test('a message for another image, another name or a foreign domain is refused', async () => {
    now += 1_000
    const swapped = await (await update(alice, image, { bodyAvatar: 'https://evil.example/x.png' })).send()
    assert.equal(swapped.statusCode, 400)
    assert.equal(errorOf(swapped.body).message, 'The message sets another image')
    const otherName = await (await update(alice, image, { name: 'someone.wallet.test' })).send()
    assert.equal(otherName.statusCode, 400)
    assert.match(errorOf(otherName.body).message, /for someone.wallet.test, not alice-pics.wallet.test/)
    const foreign = await (await update(alice, image, { domain: 'evil.example' })).send()
    assert.equal(foreign.statusCode, 403)
    const garbage = await (await update(alice, image, { message: 'set my picture please' })).send()
    assert.equal(garbage.statusCode, 400)
    assert.equal(errorOf(garbage.body).message, 'The message is not a profile image message')
  })

  test('javascript:, data:, http:, credentials, markup and oversized URLs are refused', async () => {
    now += 1_000
    for (const avatar of [
      'javascript:alert(1)',
      'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
      'http://images.example.com/a.png',
      'https://user:pass@images.example.com/a.png',
      'https://images.example.com/a.png"><script>',
      'https://images.example.com/a b.png',
      'eip155:1/erc721:0xb47e3cd837dDF8e4c57F05d70Ab865de6e193BBB/1',
      `https://images.example.com/${'a'.repeat(AVATAR_MAX_LENGTH)}`,
    ]) {
      assert.equal(isAvatarUrl(avatar), false, avatar)
      const refused = await (await update(alice, avatar)).send()
      assert.equal(refused.statusCode, 400, avatar)
      assert.match(
        errorOf(refused.body).message,
        new RegExp(AVATAR_RULE_MESSAGE.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')),
      )
    }
    assert.equal((await profileOf(alice.address)).avatar, 'https://images.example.com/first.png')
  })

  test('the message reads back into its fields, and only an exact one', () => {
    const fields = {
      domain: 'localhost:5173',
      name: 'alice-pics.wallet.test',
      avatar: null,
      address: alice.address,
      chainId: 'eip155:31337',
      issuedAt: '2026-11-24T12:00:00.000Z',
    }
    assert.deepEqual(parseAvatarUpdateMessage(avatarUpdateMessage(fields)), fields)
    assert.equal(parseAvatarUpdateMessage(`${avatarUpdateMessage(fields)}\n`), null)
  })
})
