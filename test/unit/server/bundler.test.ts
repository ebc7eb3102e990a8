/**
 * ERC-4337 on the local chain: EntryPoint v0.8 and its account contracts at their canonical addresses,
 * the local bundler (server/dev/bundler), and the service's bundler proxy (`POST /v1/bundler`), used by
 * viem's bundler client with a WalletAccount and tried as an attacker with plain HTTP would.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  parseEther,
  toHex,
} from 'viem'
import { createBundlerClient, entryPoint08Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { buildApp } from '../../../server/app.ts'
import { type LocalBundler, startBundler } from '../../../server/dev/bundler/index.ts'
import { deployErc4337, erc4337Contracts } from '../../../server/dev/chain/erc4337.ts'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { deployMarket, type LocalMarket } from '../../../server/dev/chain/market.ts'
import { toWalletAccount } from '../../../server/embedded/walletAccount.ts'
import { freePort, openTestDatabase, rawRequest, type TestDatabase, testLogger } from './helpers.ts'

let chain: LocalChain
let bundler: LocalBundler
let market: LocalMarket
let testDb: TestDatabase
let app: FastifyInstance
let serviceUrl = ''

const bob = devAccount(1).address

before(
  async () => {
    chain = await startChain({ port: await freePort(), chainId: 31337 })
    market = await deployMarket({ url: chain.url, chainId: 31337 })
    await deployErc4337({ url: chain.url })
    bundler = await startBundler({ rpcUrl: chain.url, chainId: 31337, port: await freePort() })
    testDb = await openTestDatabase('bundler')
    app = await buildApp(
      testDb.config({
        devOrigins: ['http://localhost:5173'],
        rpcUpstreams: { 'eip155:31337': chain.url },
        // eip155:31338's bundler is down (nothing listens there).
        bundlerUpstreams: {
          'eip155:31337': bundler.url,
          'eip155:31338': `http://127.0.0.1:${await freePort()}`,
        },
        rpcTimeoutMs: 5000,
      }),
      { database: testDb.database, logger: testLogger },
    )
    serviceUrl = await app.listen({ host: '127.0.0.1', port: 0 })
  },
  { timeout: 120_000 },
)

after(async () => {
  await app?.close()
  await testDb?.close()
  await bundler?.stop()
  await chain?.stop()
})

const localChain = () => ({
  id: 31337,
  name: 'Local Chain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [chain.url] } },
})
const proxyUrl = (chainId = 'eip155:31337') =>
  `${serviceUrl}/v1/bundler?chainId=${chainId}&projectId=dev-project`

/** A new person's WalletAccount (not deployed), funded with 1 ETH, and a bundler client through the proxy. */
async function newAccount() {
  const client = createPublicClient({ chain: localChain(), transport: http(chain.url, { retryCount: 0 }) })
  const account = await toWalletAccount({ client, owner: privateKeyToAccount(generatePrivateKey()) })
  const address = await account.getAddress()
  await client.request({
    method: 'hardhat_setBalance',
    params: [address, toHex(parseEther('1'))],
  } as never)
  const bundlerClient = createBundlerClient({
    client,
    account,
    transport: http(proxyUrl(), { retryCount: 0 }),
  })
  return { client, account, address, bundlerClient }
}

/** A JSON-RPC body posted as curl would: no `Origin`, no SDK headers. */
async function post(url: string, body: unknown) {
  const response = await rawRequest(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  return { status: response.status, json: response.text === '' ? undefined : JSON.parse(response.text) }
}

const approve = (spender: Address, amount: bigint): Hex =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] })
/** A call that reverts: moving USDC the account was never allowed to move. */
const revertingCall = (from: Address) => ({
  to: market.tokens.USDC.address,
  data: encodeFunctionData({ abi: erc20Abi, functionName: 'transferFrom', args: [from, bob, 1n] }),
})

describe('ERC-4337 v0.8 on the local chain', { timeout: 120_000 }, () => {
  test('EntryPoint v0.8, SimpleAccountFactory and Simple7702Account sit at their canonical addresses, WalletAccountFactory at its own', async () => {
    const contracts = erc4337Contracts()
    assert.deepEqual(contracts, {
      entryPoint: entryPoint08Address,
      simpleAccountFactory: '0x13E9ed32155810FDbd067D4522C492D6f68E5944',
      simple7702Account: '0xe6Cae83BdE06E4c305530e199D7217f42808555B',
      walletAccountFactory: '0xeA947AD6EFf40173b735640Bd3e4a8DCb5DC0704',
    })
    const client = createPublicClient({ chain: localChain(), transport: http(chain.url) })
    for (const address of Object.values(contracts)) {
      const code = await client.getCode({ address })
      assert.ok(code && code.length > 2, `no code at ${address}`)
    }
    // A second run finds them there and changes nothing.
    assert.deepEqual(await deployErc4337({ url: chain.url }), contracts)
  })

  test('the first UserOperation through the bundler proxy deploys the account and sends the value', async () => {
    const { client, address, bundlerClient } = await newAccount()
    assert.equal(await client.getCode({ address }), undefined)
    const before = await client.getBalance({ address: bob })
    const hash = await bundlerClient.sendUserOperation({ calls: [{ to: bob, value: 1234n }] })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, pollingInterval: 50 })
    assert.equal(receipt.success, true)
    assert.equal(receipt.sender.toLowerCase(), address.toLowerCase())
    assert.ok((await client.getCode({ address }))?.length, 'the account is deployed')
    assert.equal((await client.getBalance({ address: bob })) - before, 1234n)
    const found = await bundlerClient.getUserOperation({ hash })
    assert.equal(found.transactionHash, receipt.receipt.transactionHash)

    // The second one finds it deployed: no factory this time.
    const second = await bundlerClient.prepareUserOperation({ calls: [{ to: bob, value: 1n }] })
    assert.equal(second.factory, undefined)
  })

  test('a batch of an ETH transfer and a token approval lands atomically in one UserOperation', async () => {
    const { client, address, bundlerClient } = await newAccount()
    const USDC = market.tokens.USDC.address
    const before = await client.getBalance({ address: bob })
    const hash = await bundlerClient.sendUserOperation({
      calls: [
        { to: bob, value: 1000n },
        { to: USDC, data: approve(bob, 5n) },
      ],
    })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, pollingInterval: 50 })
    assert.equal(receipt.success, true)
    assert.equal((await client.getBalance({ address: bob })) - before, 1000n)
    const allowance = await client.readContract({
      address: USDC,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [address, bob],
    })
    assert.equal(allowance, 5n)
  })

  test('error: a batch whose second call reverts is refused at estimation, and nothing moves', async () => {
    const { client, address, bundlerClient } = await newAccount()
    const before = await client.getBalance({ address: bob })
    await assert.rejects(
      bundlerClient.sendUserOperation({ calls: [{ to: bob, value: 1000n }, revertingCall(address)] }),
      /The UserOperation's calls revert: call 1 of the batch/,
    )
    assert.equal(await client.getBalance({ address: bob }), before)
    assert.equal(await client.getCode({ address }), undefined)
  })

  test('error: sent anyway with its own gas limits, the failing batch lands undone: the first call is reverted too', async () => {
    const { client, address, bundlerClient } = await newAccount()
    const before = await client.getBalance({ address: bob })
    const hash = await bundlerClient.sendUserOperation({
      calls: [{ to: bob, value: 1000n }, revertingCall(address)],
      callGasLimit: 300_000n,
      verificationGasLimit: 500_000n,
      preVerificationGas: 100_000n,
    })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, pollingInterval: 50 })
    assert.equal(receipt.success, false)
    assert.equal(await client.getBalance({ address: bob }), before, 'the ETH transfer was undone')
    assert.ok((await client.getCode({ address }))?.length, 'the account was still deployed')
  })

  test('error: a UserOperation signed by another key is refused with Invalid UserOperation signature', async () => {
    const { bundlerClient, account } = await newAccount()
    const operation = await bundlerClient.prepareUserOperation({ calls: [{ to: bob, value: 1n }] })
    const stranger = privateKeyToAccount(generatePrivateKey())
    const { getUserOperationTypedData } = await import('viem/account-abstraction')
    const signature = await stranger.signTypedData(
      getUserOperationTypedData({
        chainId: 31337,
        entryPointAddress: entryPoint08Address,
        userOperation: { ...operation, sender: await account.getAddress() },
      }),
    )
    await assert.rejects(
      bundlerClient.sendUserOperation({ ...operation, signature }),
      /Invalid UserOperation signature/,
    )
  })
})

describe('the bundler proxy, as an attacker with plain HTTP', { timeout: 60_000 }, () => {
  test('error: methods off the ERC-4337 list never reach the bundler or the chain', async () => {
    const victim = privateKeyToAccount(generatePrivateKey()).address
    for (const method of [
      'hardhat_setBalance',
      'eth_sendTransaction',
      'eth_sendRawTransaction',
      'eth_call',
      'debug_bundler_clearState',
      'debug_bundler_dumpMempool',
      'pimlico_getUserOperationGasPrice',
    ]) {
      const { status, json } = await post(proxyUrl(), {
        jsonrpc: '2.0',
        id: 7,
        method,
        params: [victim, '0xffffffffffffffffff'],
      })
      assert.equal(status, 200)
      assert.deepEqual(json, {
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32601,
          message: `The method ${method} is not available through this bundler proxy`,
          data: { code: 'METHOD_NOT_ALLOWED' },
        },
      })
    }
    const client = createPublicClient({ chain: localChain(), transport: http(chain.url) })
    assert.equal(await client.getBalance({ address: victim }), 0n)
  })

  test('error: a batch mixing allowed and refused methods forwards only the allowed ones', async () => {
    const { status, json } = await post(proxyUrl(), [
      { jsonrpc: '2.0', id: 1, method: 'eth_supportedEntryPoints', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'hardhat_mine', params: [] },
      { jsonrpc: '2.0', id: 3, method: 'eth_chainId', params: [] },
    ])
    assert.equal(status, 200)
    assert.deepEqual(json[0], { jsonrpc: '2.0', id: 1, result: [entryPoint08Address] })
    assert.equal(json[1].error.message, 'The method hardhat_mine is not available through this bundler proxy')
    assert.deepEqual(json[2], { jsonrpc: '2.0', id: 3, result: '0x7a69' })
  })

  test('error: a network without a bundler, no project, and a bad body are refused before any upstream', async () => {
    const unknown = await post(proxyUrl('eip155:1'), { jsonrpc: '2.0', id: 1, method: 'eth_chainId' })
    assert.equal(unknown.status, 400)
    assert.match(unknown.json.error.message, /Unsupported chainId eip155:1/)
    const noProject = await post(`${serviceUrl}/v1/bundler?chainId=eip155:31337`, {
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_chainId',
    })
    assert.ok(noProject.status >= 400 && noProject.status < 500, `status ${noProject.status}`)
    const notJson = await post(proxyUrl(), '{"jsonrpc":')
    assert.equal(notJson.status, 400)
  })

  test('error: the bundler being down answers 502 with a clear message and keeps no request', async () => {
    const { status, json } = await post(proxyUrl('eip155:31338'), {
      jsonrpc: '2.0',
      id: 4,
      method: 'eth_supportedEntryPoints',
      params: [],
    })
    assert.equal(status, 502)
    assert.equal(json.id, 4)
    assert.match(json.error.message, /^The bundler for eip155:31338 is unreachable/)
    assert.equal(json.error.data.code, 'UPSTREAM_ERROR')
  })
})

describe('the local bundler on its own', { timeout: 60_000 }, () => {
  test('error: unknown methods, malformed UserOperations and other EntryPoints are JSON-RPC errors', async () => {
    const unknown = await post(bundler.url, { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [] })
    assert.equal(unknown.json.error.code, -32601)
    const malformed = await post(bundler.url, {
      jsonrpc: '2.0',
      id: 2,
      method: 'eth_sendUserOperation',
      params: [{ sender: '0x12' }, entryPoint08Address],
    })
    assert.deepEqual(malformed.json.error, { code: -32602, message: 'Invalid UserOperation' })
    const otherEntryPoint = await post(bundler.url, {
      jsonrpc: '2.0',
      id: 3,
      method: 'eth_estimateUserOperationGas',
      params: [{}, '0x0000000071727De22E5E9d8BAf0edAc6f37da032'],
    })
    assert.equal(otherEntryPoint.json.error.code, -32602)
    assert.match(otherEntryPoint.json.error.message, /^Unsupported EntryPoint/)
    const get = await rawRequest(bundler.url, { method: 'GET' })
    assert.equal(get.status, 405)
  })

  test('a receipt is read from the chain: an unknown hash has none', async () => {
    const { json } = await post(bundler.url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_getUserOperationReceipt',
      params: [`0x${'ab'.repeat(32)}`],
    })
    assert.deepEqual(json, { jsonrpc: '2.0', id: 1, result: null })
  })
})
