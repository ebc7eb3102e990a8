// ENS resolution, reverse resolution and the EIP-3668 gateway.
/**
 * Names through standard ENS tooling: the service's EIP-3668 gateway behind the offchain
 * resolver deployed on a local chain, read by viem's `getEnsAddress` through the universal resolver.
 */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  ccipRequest,
  createPublicClient,
  decodeAbiParameters,
  encodeAbiParameters,
  encodePacked,
  type Hex,
  http,
  keccak256,
  namehash,
  recoverAddress,
  toFunctionSelector,
  toHex,
  zeroAddress,
} from 'viem'
import { generatePrivateKey, mnemonicToAccount, privateKeyToAddress } from 'viem/accounts'
import { packetToBytes } from 'viem/ens'
import { buildApp } from '../../../server/app.ts'
import { compileContracts } from '../../../server/dev/chain/compile.ts'
import { apiErrorBody } from '../../../src/protocol/api/index.ts'
import { openTestDatabase, testLogger } from './helpers.ts'
import {
  addrCall,
  alice,
  app,
  chain,
  client,
  demoAvatar,
  ens,
  gatewayKey,
  resolveCall,
  site,
  startEnsService,
} from './names-ens-helpers.ts'

startEnsService()

describe('ENS resolution of registered names (viem, local chain)', () => {
  test('getEnsAddress finds a name registered through /names/v1', async () => {
    const address = await client.getEnsAddress({
      name: 'demo-user.wallet.test',
      universalResolverAddress: ens.universalResolver,
      strict: true,
    })
    assert.equal(address, alice.address)
    const byCoinType = await client.getEnsAddress({
      name: 'demo-user.wallet.test',
      coinType: 60n,
      universalResolverAddress: ens.universalResolver,
    })
    // ENSIP-9 answers raw bytes, which viem returns as they are (lower-case hex).
    assert.equal(byCoinType, alice.address.toLowerCase())
  })

  test("getEnsText reads the profile image as the name's avatar record (ENSIP-12)", async () => {
    const parameters = { name: 'demo-user.wallet.test', universalResolverAddress: ens.universalResolver }
    assert.equal(await client.getEnsText({ ...parameters, key: 'avatar', strict: true }), demoAvatar)
    assert.equal(await client.getEnsText({ ...parameters, key: 'com.twitter' }), null)
    assert.equal(
      await client.getEnsText({
        name: 'nobody-here.wallet.test',
        key: 'avatar',
        universalResolverAddress: ens.universalResolver,
      }),
      null,
    )
  })

  test('an unregistered name resolves to null', async () => {
    const address = await client.getEnsAddress({
      name: 'nobody-here.wallet.test',
      universalResolverAddress: ens.universalResolver,
    })
    assert.equal(address, null)
  })

  test('a tampered gateway answer is rejected by the resolver contract', async () => {
    const bob = mnemonicToAccount('test test test test test test test test test test test junk', {
      addressIndex: 1,
    })
    const tampering = createPublicClient({
      transport: http(chain.url),
      ccipRead: {
        async request(parameters) {
          const answer = await ccipRequest(parameters)
          const [, expires, signature] = decodeAbiParameters(
            [{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }],
            answer,
          )
          const forged = encodeAbiParameters([{ type: 'address' }], [bob.address])
          return encodeAbiParameters(
            [{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }],
            [forged, expires, signature],
          )
        },
      },
    })
    const parameters = { name: 'demo-user.wallet.test', universalResolverAddress: ens.universalResolver }
    // Never bob's address: strict callers see the resolver's refusal, others no address at all.
    await assert.rejects(tampering.getEnsAddress({ ...parameters, strict: true }), /ResolverError/)
    assert.equal(await tampering.getEnsAddress(parameters), null)
  })

  test('an answer signed by another key is refused on chain (InvalidSignature)', async () => {
    const { DevOffchainResolver } = await compileContracts()
    assert.ok(DevOffchainResolver)
    const request = resolveCall('demo-user.wallet.test')
    const result = encodeAbiParameters([{ type: 'address' }], [alice.address])
    const expires = BigInt(Math.floor(Date.now() / 1000) + 300)
    const hash = keccak256(
      encodePacked(
        ['bytes2', 'address', 'uint64', 'bytes32', 'bytes32'],
        ['0x1900', ens.resolver, expires, keccak256(request), keccak256(result)],
      ),
    )
    const { sign, serializeSignature } = await import('viem/accounts')
    const signature = serializeSignature(await sign({ hash, privateKey: generatePrivateKey() }))
    await assert.rejects(
      client.readContract({
        address: ens.resolver,
        abi: DevOffchainResolver.abi,
        functionName: 'resolveWithProof',
        args: [
          encodeAbiParameters(
            [{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }],
            [result, expires, signature],
          ),
          request,
        ],
      }),
      /InvalidSignature/,
    )
  })
})

describe('ENS reverse resolution (viem getEnsName, local chain)', () => {
  const bob = mnemonicToAccount('test test test test test test test test test test test junk', {
    addressIndex: 1,
  })

  test('getEnsName finds the registered name of an address, checked forward', async () => {
    const name = await client.getEnsName({
      address: alice.address,
      universalResolverAddress: ens.universalResolver,
      strict: true,
    })
    assert.equal(name, 'demo-user.wallet.test')
  })

  test('an address without a name has none', async () => {
    const name = await client.getEnsName({
      address: bob.address,
      universalResolverAddress: ens.universalResolver,
    })
    assert.equal(name, null)
  })

  test("a reverse record naming another account's name is refused (ReverseAddressMismatch)", async () => {
    const { DevUniversalResolver, DevOffchainResolver } = await compileContracts()
    assert.ok(DevUniversalResolver && DevOffchainResolver)
    // A genuine, signed forward answer for demo-user (alice) ...
    const request = resolveCall('demo-user.wallet.test')
    const answered = await app.inject({ url: `/names/v1/gateway/${ens.resolver}/${request}.json` })
    assert.equal(answered.statusCode, 200, answered.body)
    const response = encodeAbiParameters(
      [{ type: 'bool[]' }, { type: 'bytes[]' }],
      [[false], [JSON.parse(answered.body).data as Hex]],
    )
    const resolveWithProof = toFunctionSelector('resolveWithProof(bytes,bytes)')
    // ... checked against bob, as if bob's reverse record had said demo-user.wallet.test.
    const carry = encodeAbiParameters(
      [{ type: 'string' }, { type: 'bytes' }, { type: 'address' }],
      ['demo-user.wallet.test', bob.address, ens.resolver],
    )
    const extraData = encodeAbiParameters(
      [{ type: 'address' }, { type: 'bytes4' }, { type: 'bytes' }, { type: 'bytes' }],
      [ens.resolver, resolveWithProof, request, carry],
    )
    await assert.rejects(
      client.readContract({
        address: ens.universalResolver,
        abi: DevUniversalResolver.abi,
        functionName: 'forwardCallback',
        args: [response, extraData],
      }),
      /ReverseAddressMismatch/,
    )
    // The same answer checked against alice passes: the refusal above is the address check.
    const [name] = (await client.readContract({
      address: ens.universalResolver,
      abi: DevUniversalResolver.abi,
      functionName: 'forwardCallback',
      args: [
        response,
        encodeAbiParameters(
          [{ type: 'address' }, { type: 'bytes4' }, { type: 'bytes' }, { type: 'bytes' }],
          [
            ens.resolver,
            resolveWithProof,
            request,
            encodeAbiParameters(
              [{ type: 'string' }, { type: 'bytes' }, { type: 'address' }],
              ['demo-user.wallet.test', alice.address, ens.resolver],
            ),
          ],
        ),
      ],
    })) as [string, string, string]
    assert.equal(name, 'demo-user.wallet.test')
  })

  test('the gateway answers name(node) of <address>.addr.reverse, signed', async () => {
    const reverseName = `${alice.address.slice(2).toLowerCase()}.addr.reverse`
    const request = resolveCall(reverseName, `0x691f3431${namehash(reverseName).slice(2)}` as Hex)
    const response = await app.inject({ url: `/names/v1/gateway/${ens.resolver}/${request}.json` })
    assert.equal(response.statusCode, 200, response.body)
    const [result] = decodeAbiParameters([{ type: 'bytes' }], JSON.parse(response.body).data as Hex)
    assert.deepEqual(decodeAbiParameters([{ type: 'string' }], result), ['demo-user.wallet.test'])
  })
})

describe('The EIP-3668 gateway (as an attacker would call it)', () => {
  const sender = '0x1111111111111111111111111111111111111111'
  const get = (data: string, from = sender) =>
    app.inject({ method: 'GET', url: `/names/v1/gateway/${from}/${data}.json` })
  const refused = (response: Awaited<ReturnType<typeof get>>, message: RegExp) => {
    assert.equal(response.statusCode, 400, response.body)
    assert.match(apiErrorBody.parse(JSON.parse(response.body)).error.message, message)
  }

  test('answers a signed, expiring addr by GET and by POST, bound to the sender', async () => {
    const data = resolveCall('demo-user.wallet.test')
    const byGet = await get(data)
    assert.equal(byGet.statusCode, 200, byGet.body)
    assert.equal(byGet.headers['access-control-allow-origin'], '*')
    const byPost = await app.inject({
      method: 'POST',
      url: '/names/v1/gateway',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ sender, data }),
    })
    assert.equal(byPost.statusCode, 200, byPost.body)
    const [result, expires, signature] = decodeAbiParameters(
      [{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }],
      JSON.parse(byGet.body).data as Hex,
    )
    assert.deepEqual(decodeAbiParameters([{ type: 'address' }], result), [alice.address])
    const ttl = Number(expires) - Date.now() / 1000
    assert.ok(ttl > 250 && ttl <= 300, `expires in ${ttl} s`)
    const hash = keccak256(
      encodePacked(
        ['bytes2', 'address', 'uint64', 'bytes32', 'bytes32'],
        ['0x1900', sender, expires, keccak256(data), keccak256(result)],
      ),
    )
    assert.equal(await recoverAddress({ hash, signature }), privateKeyToAddress(gatewayKey))
  })

  test('an unknown name is answered with the zero address (signed), not an error', async () => {
    const response = await get(resolveCall('nobody-here.wallet.test'))
    assert.equal(response.statusCode, 200)
    const [result] = decodeAbiParameters([{ type: 'bytes' }], JSON.parse(response.body).data as Hex)
    assert.deepEqual(decodeAbiParameters([{ type: 'address' }], result), [zeroAddress])
  })

  test('is off without NAME_GATEWAY_KEY', async () => {
    const off = await openTestDatabase('names-ens-off')
    const plain = await buildApp(off.config({ devOrigins: [site], rpcUpstreams: {}, nameGatewayKey: null }), {
      database: off.database,
      logger: testLogger,
    })
    try {
      const response = await plain.inject({
        url: `/names/v1/gateway/${sender}/${resolveCall('demo-user.wallet.test')}.json`,
      })
      assert.equal(response.statusCode, 404)
    } finally {
      await plain.close()
      await off.close()
    }
  })

  test('refuses malformed data, unknown selectors, a wrong node, a bad name and oversized calls', async () => {
    refused(await get('0xzz'), /Invalid path parameter data: must be 0x-prefixed hex bytes/)
    refused(await get(resolveCall('demo-user.wallet.test'), '0x1234'), /Invalid path parameter sender/)
    refused(await get(`0xdeadbeef${'00'.repeat(64)}`), /Only resolve\(bytes,bytes\) is answered/)
    refused(await get(`${resolveCall('demo-user.wallet.test').slice(0, 74)}`), /not a valid resolve/)
    // contenthash(bytes32): a selector off the allow-list.
    const contenthash = `0xbc1c58d1${namehash('demo-user.wallet.test').slice(2)}` as Hex
    refused(
      await get(resolveCall('demo-user.wallet.test', contenthash)),
      /Only addr, text and name records are answered/,
    )
    // name(bytes32) of a forward name: reverse records live under addr.reverse only.
    const nameOfForward = `0x691f3431${namehash('demo-user.wallet.test').slice(2)}` as Hex
    refused(
      await get(resolveCall('demo-user.wallet.test', nameOfForward)),
      /answered for <address>.addr.reverse only/,
    )
    refused(
      await get(resolveCall('demo-user.wallet.test', addrCall('other.wallet.test'))),
      /The record's node is not the name's/,
    )
    const badName = resolveCall('demo-user.wallet.test').replace(
      toHex(packetToBytes('demo-user.wallet.test')).slice(2),
      `ff${'61'.repeat(22)}00`,
    )
    refused(await get(badName), /not a DNS-encoded name/)
    refused(await get(`0x9061b923${'00'.repeat(2000)}`), /longer than 1024 bytes/)
    const post = await app.inject({
      method: 'POST',
      url: '/names/v1/gateway',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ sender, data: `0x${'00'.repeat(20_000)}` }),
    })
    assert.equal(post.statusCode, 413)
  })
})
