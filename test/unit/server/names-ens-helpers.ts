// Shared set-up of the ENS tests: a local chain with the resolver contracts and the gateway service.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import type { FastifyInstance } from 'fastify'
import {
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  namehash,
  type PublicClient,
  toHex,
} from 'viem'
import { generatePrivateKey, mnemonicToAccount, privateKeyToAddress } from 'viem/accounts'
import { packetToBytes } from 'viem/ens'
import { buildApp } from '../../../server/app.ts'
import { deployEns, type LocalEns } from '../../../server/dev/chain/ens.ts'
import { type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { avatarUpdateMessage, nameRegistrationMessage } from '../../../src/protocol/api/index.ts'
import { freePort, openTestDatabase, sdk, type TestDatabase, testLogger } from './helpers.ts'

export const alice = mnemonicToAccount('test test test test test test test test test test test junk', {
  addressIndex: 0,
})
export const site = 'http://localhost:5173'
export const gatewayKey = generatePrivateKey()
export const demoAvatar = 'https://images.example.com/demo-user.png'

export let testDb: TestDatabase
export let app: FastifyInstance
export let chain: LocalChain
export let ens: LocalEns
export let client: PublicClient
export let serviceUrl: string

/** The ENSIP-10 call the resolver sends the gateway for `addr(namehash(name))`. */
export const resolveCall = (name: string, record: Hex = addrCall(name)) =>
  encodeFunctionData({
    abi: [
      {
        name: 'resolve',
        type: 'function',
        stateMutability: 'view',
        inputs: [{ type: 'bytes' }, { type: 'bytes' }],
        outputs: [{ type: 'bytes' }],
      },
    ],
    args: [toHex(packetToBytes(name)), record],
  })
export const addrCall = (name: string) => `0x3b3b57de${namehash(name).slice(2)}` as Hex

/** Registers the suite's set-up and tear-down; call once at the top of each test file. */
export function startEnsService() {
  before(async () => {
    testDb = await openTestDatabase('names-ens')
    app = await buildApp(
      testDb.config({
        devOrigins: [site],
        rpcUpstreams: {},
        nameSuffix: 'wallet.test',
        nameGatewayKey: gatewayKey,
      }),
      { database: testDb.database, logger: testLogger },
    )
    serviceUrl = await app.listen({ host: '127.0.0.1', port: 0 })
    chain = await startChain({ port: await freePort(), chainId: 31337 })
    ens = await deployEns({
      url: chain.url,
      suffix: 'wallet.test',
      gatewayUrl: `${serviceUrl}/names/v1/gateway/{sender}/{data}.json`,
      signer: privateKeyToAddress(gatewayKey),
    })
    client = createPublicClient({ transport: http(chain.url) })
    const message = nameRegistrationMessage({
      domain: 'localhost:5173',
      name: 'demo-user.wallet.test',
      address: alice.address,
      chainId: 'eip155:31337',
      issuedAt: new Date().toISOString(),
    })
    const registered = await app.inject({
      method: 'POST',
      url: `/names/v1/register?${sdk()}`,
      headers: { origin: site, 'content-type': 'application/json' },
      payload: JSON.stringify({
        name: 'demo-user',
        address: alice.address,
        chainId: 'eip155:31337',
        message,
        signature: await alice.signMessage({ message }),
      }),
    })
    assert.equal(registered.statusCode, 200, registered.body)
    const avatarMessage = avatarUpdateMessage({
      domain: 'localhost:5173',
      name: 'demo-user.wallet.test',
      avatar: demoAvatar,
      address: alice.address,
      chainId: 'eip155:31337',
      issuedAt: new Date(Date.now() + 1_000).toISOString(),
    })
    const avatarSet = await app.inject({
      method: 'POST',
      url: `/names/v1/avatar?${sdk()}`,
      headers: { origin: site, 'content-type': 'application/json' },
      payload: JSON.stringify({
        address: alice.address,
        chainId: 'eip155:31337',
        avatar: demoAvatar,
        message: avatarMessage,
        signature: await alice.signMessage({ message: avatarMessage }),
      }),
    })
    assert.equal(avatarSet.statusCode, 200, avatarSet.body)
  })
  after(async () => {
    await app?.close()
    await chain?.stop()
    await testDb?.close()
  })
}
