// The name registry: registering, attacks on it, and releasing a name.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { mnemonicToAccount } from 'viem/accounts'
import { buildApp } from '../../../server/app.ts'
import { updateProject } from '../../../server/projects/store.ts'
import {
  NAME_RULE_MESSAGE,
  nameCheckResponse,
  nameRecord,
  nameRegistrationMessage,
  nameReleaseResponse,
  profileResponse,
} from '../../../src/protocol/api/index.ts'
import { encodeBase58 } from '../../../src/protocol/siwx/index.ts'
import { openTestDatabase, sdk, testLogger } from './helpers.ts'
import {
  alice,
  app,
  bob,
  carol,
  errorOf,
  evm,
  get,
  mnemonic,
  now,
  register,
  release,
  type Signer,
  setNow,
  site,
  startNamesService,
  testDb,
} from './names-helpers.ts'

startNamesService()

describe('name registry', () => {
  test('default: an account registers a free name; forward, reverse and profile find it', async () => {
    const free = nameCheckResponse.parse((await get('/names/v1/check?name=Alice')).json())
    assert.deepEqual(free, { name: 'alice.wallet.test', available: true, suggestions: [] })

    const response = await register(evm(alice), 'Alice')
    assert.equal(response.statusCode, 200, response.body)
    const record = nameRecord.parse(response.json())
    assert.equal(record.name, 'alice.wallet.test')
    assert.deepEqual(record.addresses, [{ address: alice.address.toLowerCase(), chainId: 'eip155:31337' }])

    const resolved = await get('/names/v1/resolve?name=ALICE.wallet.test')
    assert.equal(resolved.statusCode, 200)
    assert.deepEqual(nameRecord.parse(resolved.json()).addresses, record.addresses)
    assert.deepEqual((await get(`/names/v1/reverse?address=${alice.address}`)).json(), {
      names: ['alice.wallet.test'],
    })
    assert.deepEqual(
      profileResponse.parse((await get(`/names/v1/profile?address=${alice.address}`)).json()),
      {
        address: alice.address,
        name: 'alice.wallet.test',
        avatar: null,
      },
    )
  })

  test('error: a taken name is refused with 409 and check offers free names like it', async () => {
    const taken = await register(evm(bob), 'alice')
    assert.equal(taken.statusCode, 409)
    assert.deepEqual(errorOf(taken.body), {
      code: 'NAME_TAKEN',
      message: 'alice.wallet.test is taken',
      field: 'name',
    })
    const check = nameCheckResponse.parse((await get('/names/v1/check?name=alice')).json())
    assert.equal(check.available, false)
    assert.equal(check.suggestions.length, 3)
    for (const suggestion of check.suggestions) {
      assert.match(suggestion, /^[a-z0-9-]{4,}\.wallet\.test$/)
      const again = nameCheckResponse.parse(
        (await get(`/names/v1/check?name=${suggestion.split('.')[0]}`)).json(),
      )
      assert.equal(again.available, true, suggestion)
    }
  })

  test('error: abc and names with other characters break the SPEC rule, on check and register', async () => {
    for (const bad of ['abc', 'al_ice', 'al.ice', 'ali ce', 'a'.repeat(64), 'ålice']) {
      const check = await get(`/names/v1/check?name=${encodeURIComponent(bad)}`)
      assert.equal(check.statusCode, 400, bad)
      assert.equal(errorOf(check.body).message, `Invalid query parameter name: ${NAME_RULE_MESSAGE}`)
    }
    const response = await register(evm(bob), 'abc')
    assert.equal(response.statusCode, 400)
    assert.equal(errorOf(response.body).message, `Invalid body field name: ${NAME_RULE_MESSAGE}`)
  })

  test('default: registering again moves the account to its new name and frees the old one', async () => {
    setNow(now + 1000)
    assert.equal((await register(evm(carol), 'carol-one')).statusCode, 200)
    setNow(now + 1000)
    assert.equal((await register(evm(carol), 'carol-two')).statusCode, 200)
    assert.equal(
      nameCheckResponse.parse((await get('/names/v1/check?name=carol-one')).json()).available,
      true,
    )
    assert.equal((await get('/names/v1/resolve?name=carol-one.wallet.test')).statusCode, 404)
    assert.deepEqual((await get(`/names/v1/reverse?address=${carol.address}`)).json(), {
      names: ['carol-two.wallet.test'],
    })
  })

  test('default: a Solana account registers with its ed25519 signature', async () => {
    const secret = new Uint8Array(32).fill(7)
    const solana: Signer = {
      address: encodeBase58(ed25519.getPublicKey(secret)),
      sign: async (message) => encodeBase58(ed25519.sign(new TextEncoder().encode(message), secret)),
    }
    const response = await register(solana, 'sol-user', {
      chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    })
    assert.equal(response.statusCode, 200, response.body)
    assert.equal(nameRecord.parse(response.json()).addresses[0]?.address, solana.address)
  })
})

describe('name registry, as an attacker', () => {
  test("error: another key's signature does not register a name for the account", async () => {
    const forged: Signer = { address: bob.address, sign: (message) => alice.signMessage({ message }) }
    const response = await register(forged, 'bob-name')
    assert.equal(response.statusCode, 401)
    assert.equal(errorOf(response.body).code, 'INVALID_SIGNATURE')
    assert.equal(nameCheckResponse.parse((await get('/names/v1/check?name=bob-name')).json()).available, true)
  })

  test('error: a message for another name, address, network, domain or time is refused', async () => {
    const signer = evm(bob)
    const cases = [
      {
        overrides: { name: 'other-name' },
        message: 'The message registers other-name.wallet.test, not bob-name.wallet.test',
      },
      {
        overrides: { domain: 'evil.example' },
        message: "The message domain evil.example is not on the project's allowed origins",
      },
      {
        overrides: { issuedAt: now - 11 * 60_000 },
        message: 'The message was issued more than 10 minutes ago, or in the future',
      },
      {
        overrides: { issuedAt: now + 5 * 60_000 },
        message: 'The message was issued more than 10 minutes ago, or in the future',
      },
      {
        overrides: { message: 'Sign in to example.com' },
        message: 'The message is not a name registration message',
      },
    ]
    for (const { overrides, message } of cases) {
      const response = await register(signer, 'bob-name', overrides)
      assert.ok([400, 403].includes(response.statusCode), response.body)
      assert.deepEqual(errorOf(response.body), { code: 'NAME_MESSAGE_INVALID', message, field: 'message' })
    }
    // A message alice signed for her own address, sent as bob's.
    const aliceMessage = nameRegistrationMessage({
      domain: 'localhost:5173',
      name: 'bob-name.wallet.test',
      address: alice.address,
      chainId: 'eip155:31337',
      issuedAt: new Date(now).toISOString(),
    })
    const swapped = await register(signer, 'bob-name', { message: aliceMessage })
    assert.equal(errorOf(swapped.body).message, 'The message is for another account or network')
  })

  test('error: a replayed older registration cannot move the account back', async () => {
    setNow(now + 1000)
    const first = nameRegistrationMessage({
      domain: 'localhost:5173',
      name: 'replay-one.wallet.test',
      address: bob.address,
      chainId: 'eip155:31337',
      issuedAt: new Date(now).toISOString(),
    })
    const signature = await bob.signMessage({ message: first })
    const send = (message: string, sig: string, name: string) =>
      app.inject({
        method: 'POST',
        url: `/names/v1/register?${sdk()}`,
        headers: { origin: site, 'content-type': 'application/json' },
        payload: JSON.stringify({
          name,
          address: bob.address,
          chainId: 'eip155:31337',
          message,
          signature: sig,
        }),
      })
    assert.equal((await send(first, signature, 'replay-one')).statusCode, 200)
    setNow(now + 1000)
    assert.equal((await register(evm(bob), 'replay-two')).statusCode, 200)
    const replay = await send(first, signature, 'replay-one')
    assert.equal(replay.statusCode, 400)
    assert.equal(errorOf(replay.body).message, 'A newer registration of this account exists')
    assert.deepEqual((await get(`/names/v1/reverse?address=${bob.address}`)).json(), {
      names: ['replay-two.wallet.test'],
    })
  })

  test('error: an unknown origin, a missing project and oversized fields are refused before any lookup', async () => {
    const foreign = await app.inject({
      url: `/names/v1/check?name=alice&${sdk()}`,
      headers: { origin: 'https://evil.example' },
    })
    assert.equal(foreign.statusCode, 403)
    const noProject = await app.inject({ url: '/names/v1/check?name=alice', headers: { origin: site } })
    assert.equal(noProject.statusCode, 400)
    const huge = await app.inject({
      method: 'POST',
      url: `/names/v1/register?${sdk()}`,
      headers: { origin: site, 'content-type': 'application/json' },
      payload: JSON.stringify({
        name: 'alice',
        address: alice.address,
        chainId: 'eip155:1',
        message: 'x'.repeat(5000),
        signature: '0x00',
      }),
    })
    assert.equal(huge.statusCode, 400)
    assert.equal(errorOf(huge.body).field, 'message')
    const badAddress = await get('/names/v1/profile?address=0x123')
    assert.equal(badAddress.statusCode, 400)
    const badName = await get(`/names/v1/resolve?name=${encodeURIComponent("alice'; DROP TABLE names;--")}`)
    assert.equal(badName.statusCode, 400)
  })

  test('error: a project whose names feature is off answers 403 NAMES_DISABLED', async () => {
    await updateProject(testDb.database.db, 'dev-project', { features: { names: false } })
    try {
      const response = await get('/names/v1/check?name=alice')
      assert.equal(response.statusCode, 403)
      assert.deepEqual(errorOf(response.body), {
        code: 'NAMES_DISABLED',
        message: 'Names are turned off for this project',
      })
    } finally {
      await updateProject(testDb.database.db, 'dev-project', { features: { names: true } })
    }
  })

  test('error: registrations are rate limited per client', async () => {
    const limitedDb = await openTestDatabase('names_limits')
    const limited = await buildApp(
      limitedDb.config({
        devOrigins: [site],
        rpcUpstreams: {},
        rateLimits: { ...limitedDb.config().rateLimits, signInPerMinute: 2 },
      }),
      { database: limitedDb.database, logger: testLogger },
    )
    try {
      const statuses: number[] = []
      for (let index = 0; index < 3; index += 1) {
        const response = await limited.inject({
          method: 'POST',
          url: `/names/v1/register?${sdk()}`,
          headers: { origin: site, 'content-type': 'application/json' },
          payload: JSON.stringify({
            name: 'alice',
            address: alice.address,
            chainId: 'eip155:1',
            message: 'x',
            signature: '0x00',
          }),
        })
        statuses.push(response.statusCode)
      }
      assert.deepEqual(statuses, [400, 400, 429])
    } finally {
      await limited.close()
      await limitedDb.close()
    }
  })
})

describe('releasing a name', () => {
  const dave = mnemonicToAccount(mnemonic, { addressIndex: 4 })
  const erin = mnemonicToAccount(mnemonic, { addressIndex: 5 })

  test('default: the account releases its name with a signed message; the name is free and its profile empty', async () => {
    setNow(now + 1000)
    assert.equal((await register(evm(dave), 'dave-name')).statusCode, 200)
    setNow(now + 1000)
    const response = await release(evm(dave), 'dave-name.wallet.test')
    assert.equal(response.statusCode, 200, response.body)
    assert.deepEqual(nameReleaseResponse.parse(response.json()), { released: 'dave-name.wallet.test' })
    assert.equal((await get('/names/v1/resolve?name=dave-name.wallet.test')).statusCode, 404)
    assert.equal(
      nameCheckResponse.parse((await get('/names/v1/check?name=dave-name')).json()).available,
      true,
    )
    assert.deepEqual((await get(`/names/v1/reverse?address=${dave.address}`)).json(), { names: [] })
    assert.deepEqual(profileResponse.parse((await get(`/names/v1/profile?address=${dave.address}`)).json()), {
      address: dave.address,
      name: null,
      avatar: null,
    })
    // A released account registers again like any other.
    setNow(now + 1000)
    assert.equal((await register(evm(dave), 'dave-again')).statusCode, 200)
  })

  test('error: as an attacker, another key cannot release the name, and a release for another name or a replay is refused', async () => {
    setNow(now + 1000)
    const registeredAt = now
    assert.equal((await register(evm(erin), 'erin-name')).statusCode, 200)
    setNow(now + 1000)
    // Someone else's signature over the account's release.
    const forged = await release(
      { address: erin.address, sign: (message) => bob.signMessage({ message }) },
      'erin-name.wallet.test',
    )
    assert.equal(forged.statusCode, 401)
    assert.equal(errorOf(forged.body).code, 'INVALID_SIGNATURE')
    // A signed release of another name.
    const other = await release(evm(erin), 'alice.wallet.test')
    assert.equal(other.statusCode, 400)
    assert.equal(
      errorOf(other.body).message,
      'The message releases alice.wallet.test, not erin-name.wallet.test',
    )
    // A registration message is not a release.
    const wrongKind = await release(evm(erin), 'erin-name.wallet.test', {
      message: nameRegistrationMessage({
        domain: 'localhost:5173',
        name: 'erin-name.wallet.test',
        address: erin.address,
        chainId: 'eip155:31337',
        issuedAt: new Date(now).toISOString(),
      }),
    })
    assert.equal(errorOf(wrongKind.body).message, 'The message is not a name release message')
    // A release signed before the account's latest registration is a replay.
    const stale = await release(evm(erin), 'erin-name.wallet.test', { issuedAt: registeredAt - 1000 })
    assert.equal(stale.statusCode, 400)
    assert.equal(errorOf(stale.body).message, 'A newer message of this account exists')
    assert.equal((await get('/names/v1/resolve?name=erin-name.wallet.test')).statusCode, 200)

    // Released: replaying the account's registration (still within 10 minutes) cannot take it back.
    const registration = nameRegistrationMessage({
      domain: 'localhost:5173',
      name: 'erin-name.wallet.test',
      address: erin.address,
      chainId: 'eip155:31337',
      issuedAt: new Date(registeredAt).toISOString(),
    })
    setNow(now + 1000)
    assert.equal((await release(evm(erin), 'erin-name.wallet.test')).statusCode, 200)
    const replay = await register(evm(erin), 'erin-name', { message: registration })
    assert.equal(replay.statusCode, 400)
    assert.equal(errorOf(replay.body).message, 'A newer registration of this account exists')
    assert.equal((await get('/names/v1/resolve?name=erin-name.wallet.test')).statusCode, 404)
    // Nor can a second release, nor an image update, reach a released account.
    setNow(now + 1000)
    const again = await release(evm(erin), 'erin-name.wallet.test')
    assert.equal(again.statusCode, 404)
    assert.equal(errorOf(again.body).code, 'NAME_NOT_FOUND')
  })
})
