/**
 * Sponsored gas (ERC-7677): the service's paymaster (`POST /paymaster/v1`), the project's policy set with
 * `npm run project -- sponsor`, a UserOperation sponsored end to end through the local bundler and the
 * real EntryPoint v0.8 (the account holds no ETH before nor after), and each refusal as a dapp or an
 * abuser would meet it: not configured, another network, another contract, the daily budgets spent.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  numberToHex,
  parseEther,
} from 'viem'
import { createBundlerClient, createPaymasterClient, entryPoint08Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts'
import { buildApp } from '../../../server/app.ts'
import { type LocalBundler, startBundler } from '../../../server/dev/bundler/index.ts'
import { deployErc4337 } from '../../../server/dev/chain/erc4337.ts'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { deployPaymaster, walletPaymasterAbi } from '../../../server/dev/chain/paymaster.ts'
import {
  encodeWalletAccountCalls,
  toWalletAccount,
  WALLET_ACCOUNT_FACTORY,
  walletAccountAbi,
} from '../../../server/embedded/walletAccount.ts'
import { createPaymasterService } from '../../../server/paymaster/sponsor.ts'
import { createProject } from '../../../server/projects/store.ts'
import { freePort, openTestDatabase, rawRequest, runCli, type TestDatabase, testLogger } from './helpers.ts'

const CHAIN_ID = 31337
const DAY_MS = 86_400_000
let chain: LocalChain
let bundler: LocalBundler
let testDb: TestDatabase
let app: FastifyInstance
let serviceUrl = ''
let paymaster: Address
const signerKey = generatePrivateKey()
const bob = devAccount(5).address
/** The service's clock: the real one, moved on by whole days to test the daily budgets. */
let daysLater = 0

before(
  async () => {
    chain = await startChain({ port: await freePort(), chainId: CHAIN_ID })
    await deployErc4337({ url: chain.url })
    paymaster = await deployPaymaster({
      url: chain.url,
      chainId: CHAIN_ID,
      signer: privateKeyToAddress(signerKey),
    })
    bundler = await startBundler({ rpcUrl: chain.url, chainId: CHAIN_ID, port: await freePort() })
    testDb = await openTestDatabase('paymaster')
    app = await buildApp(
      testDb.config({
        rpcUpstreams: { 'eip155:31337': chain.url },
        paymasterSignerKey: signerKey,
        paymasterAddresses: { 'eip155:31337': paymaster, 'eip155:31338': paymaster },
      }),
      { database: testDb.database, logger: testLogger, now: () => Date.now() + daysLater * DAY_MS },
    )
    serviceUrl = await app.listen({ host: '127.0.0.1', port: 0 })
    for (const id of ['unsponsored', 'thrifty'])
      await createProject(testDb.database.db, { id, name: id, origins: [] })
  },
  { timeout: 120_000 },
)

after(async () => {
  await app?.close()
  await testDb?.close()
  await bundler?.stop()
  await chain?.stop()
})

const cli = (...argv: string[]) => runCli(testDb.database, ...argv)

const paymasterUrl = (projectId: string) => `${serviceUrl}/paymaster/v1?projectId=${projectId}`

/** A JSON-RPC request to the paymaster, posted as curl would. */
async function pm(projectId: string, method: string, params: unknown) {
  const response = await rawRequest(paymasterUrl(projectId), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  })
  return {
    status: response.status,
    ...(JSON.parse(response.text) as {
      result?: Record<string, unknown>
      error?: { code: number; message: string; data?: { code: string } }
    }),
  }
}

/** The WalletAccountFactory's `getAddress(bob, 0)`: a harmless call to a sponsored contract. */
const factoryCall = {
  to: WALLET_ACCOUNT_FACTORY,
  data: encodeFunctionData({ abi: walletAccountAbi, functionName: 'getAddress', args: [bob, 0n] }),
}

/** A UserOperation (ERC-7677's params shape, JSON-RPC hex) from `sender` making `calls`. */
function rpcOp(sender: Address, calls: { to: Address; data?: Hex; value?: bigint }[], gas = true) {
  const callData = encodeWalletAccountCalls(calls)
  return {
    sender,
    nonce: '0x0',
    callData,
    ...(gas
      ? {
          callGasLimit: numberToHex(100_000),
          verificationGasLimit: numberToHex(100_000),
          preVerificationGas: numberToHex(50_000),
          maxFeePerGas: numberToHex(1_000_000_000),
          maxPriorityFeePerGas: numberToHex(1_000_000_000),
        }
      : {}),
    signature: '0x',
  }
}
/** What one op of {@link rpcOp} costs the budget: (250,000 + the paymaster's 60,000 gas) × 1 gwei. */
const OP_COST = 310_000n * 1_000_000_000n

const params = (operation: unknown, chainId = CHAIN_ID) => [
  operation,
  entryPoint08Address,
  numberToHex(chainId),
  {},
]
const someone = () => privateKeyToAddress(generatePrivateKey())

describe('npm run project -- sponsor', () => {
  test('behavior: sets, shows and replaces a project policy; refuses bad input', async () => {
    const set = await cli(
      'sponsor',
      '--id',
      'dev-project',
      '--network',
      'eip155:31337',
      '--contract',
      WALLET_ACCOUNT_FACTORY.toLowerCase(),
      '--user-budget',
      parseEther('0.01').toString(),
      '--budget',
      parseEther('1').toString(),
    )
    assert.equal(set.code, 0, set.err)
    assert.match(set.out, /dev-project sponsors gas on eip155:31337/)
    assert.match(set.out, new RegExp(WALLET_ACCOUNT_FACTORY), 'the address is shown checksummed')
    const shown = await cli('sponsor', '--id', 'dev-project')
    assert.equal(shown.out, set.out)
    const bad = await cli(
      'sponsor',
      '--id',
      'dev-project',
      '--network',
      'eip155:31337',
      '--contract',
      '0x12',
      '--user-budget',
      '1',
      '--budget',
      '1',
    )
    assert.equal(bad.code, 1)
    assert.match(bad.err, /contract address/)
    const notWei = await cli(
      'sponsor',
      '--id',
      'dev-project',
      '--network',
      'eip155:31337',
      '--contract',
      bob,
      '--user-budget',
      '0.5',
      '--budget',
      '1',
    )
    assert.equal(notWei.code, 2)
    assert.match(notWei.err, /--user-budget must be a whole number of wei/)
    const solana = await cli(
      'sponsor',
      '--id',
      'dev-project',
      '--network',
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      '--contract',
      bob,
      '--user-budget',
      '1',
      '--budget',
      '1',
    )
    assert.equal(solana.code, 1)
    assert.match(solana.err, /Only eip155 networks/)
    const unknown = await cli(
      'sponsor',
      '--id',
      'nobody',
      '--network',
      'eip155:31337',
      '--contract',
      bob,
      '--user-budget',
      '1',
      '--budget',
      '1',
    )
    assert.equal(unknown.code, 1)
    assert.match(unknown.err, /No project has the id nobody/)
    assert.equal((await cli('sponsor', '--id', 'dev-project')).out, set.out, 'refusals changed nothing')
  })
})

describe('POST /paymaster/v1: a sponsored UserOperation', { timeout: 120_000 }, () => {
  test('default: an account with no ETH sends through the local bundler; the paymaster deposit pays', async () => {
    const client = createPublicClient({
      chain: {
        id: CHAIN_ID,
        name: 'Local Chain',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [chain.url] } },
      },
      transport: http(chain.url, { retryCount: 0 }),
    })
    const account = await toWalletAccount({ client, owner: privateKeyToAccount(generatePrivateKey()) })
    const address = await account.getAddress()
    assert.equal(await client.getBalance({ address }), 0n)
    const deposit = () =>
      client.readContract({ address: paymaster, abi: walletPaymasterAbi, functionName: 'getDeposit' })
    const depositBefore = await deposit()
    const bundlerClient = createBundlerClient({
      client,
      account,
      transport: http(bundler.url, { retryCount: 0 }),
      paymaster: createPaymasterClient({ transport: http(paymasterUrl('dev-project'), { retryCount: 0 }) }),
    })
    const hash = await bundlerClient.sendUserOperation({ calls: [factoryCall] })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, pollingInterval: 100 })
    assert.equal(receipt.success, true)
    assert.equal(receipt.paymaster?.toLowerCase(), paymaster.toLowerCase())
    assert.ok(((await client.getCode({ address })) ?? '0x').length > 2, 'the op deployed the account')
    assert.equal(await client.getBalance({ address }), 0n, "the account's ETH is unchanged")
    assert.equal(await deposit(), depositBefore - receipt.actualGasCost, 'the paymaster paid the gas')
  })

  test('default: the stub is not final and carries the paymaster, its gas limits and unsigned data', async () => {
    const { status, result } = await pm(
      'dev-project',
      'pm_getPaymasterStubData',
      params(rpcOp(someone(), [factoryCall], false)),
    )
    assert.equal(status, 200)
    assert.equal(result?.paymaster, paymaster)
    assert.equal(result?.isFinal, false)
    assert.equal(result?.paymasterVerificationGasLimit, numberToHex(60_000))
    assert.equal(result?.paymasterPostOpGasLimit, '0x0')
    assert.equal(String(result?.paymasterData).length, 2 + 2 * 77, 'the window and a 65-byte stub signature')
  })
})

describe('POST /paymaster/v1: refusals', { timeout: 60_000 }, () => {
  test('error: a project without a policy is told sponsorship is not configured', async () => {
    for (const method of ['pm_getPaymasterStubData', 'pm_getPaymasterData']) {
      const { status, error } = await pm('unsponsored', method, params(rpcOp(someone(), [factoryCall])))
      assert.equal(status, 200)
      assert.deepEqual(error, {
        code: -32010,
        message: 'The project unsponsored sponsors no gas',
        data: { code: 'PAYMASTER_NOT_CONFIGURED' },
      })
    }
  })

  test('error: a service without PAYMASTER_SIGNER_KEY sponsors nothing, whatever the policy', async () => {
    const service = createPaymasterService({
      db: testDb.database.db,
      signerKey: null,
      addresses: { 'eip155:31337': paymaster },
    })
    await assert.rejects(
      service.answer('dev-project', 'pm_getPaymasterData', params(rpcOp(someone(), [factoryCall]))),
      {
        name: 'PaymasterRefusal',
        code: 'PAYMASTER_NOT_CONFIGURED',
        message: 'Sponsored gas is not configured on this service',
      },
    )
    assert.deepEqual(await service.sponsoredNetworks('dev-project'), [])
  })

  test('error: another network is not sponsored, even one the service has a paymaster on', async () => {
    for (const chainId of [1, 31338]) {
      const { error } = await pm(
        'dev-project',
        'pm_getPaymasterData',
        params(rpcOp(someone(), [factoryCall]), chainId),
      )
      assert.equal(error?.code, -32011)
      assert.equal(error?.message, `The project does not sponsor gas on eip155:${chainId}`)
      assert.equal(error?.data?.code, 'PAYMASTER_NETWORK_NOT_SPONSORED')
    }
  })

  test('error: a call to a contract off the list is refused, alone or hidden in a batch', async () => {
    for (const calls of [[{ to: bob, value: parseEther('1') }], [factoryCall, { to: bob }, factoryCall]]) {
      for (const method of ['pm_getPaymasterStubData', 'pm_getPaymasterData']) {
        const { error } = await pm('dev-project', method, params(rpcOp(someone(), calls)))
        assert.equal(error?.code, -32012)
        assert.equal(error?.message, `Calls to ${bob} are not sponsored by this project`)
      }
    }
    const notACall = { ...rpcOp(someone(), [factoryCall]), callData: '0xdeadbeef' }
    const { error } = await pm('dev-project', 'pm_getPaymasterData', params(notACall))
    assert.equal(error?.message, 'Only execute and executeBatch calls of a WalletAccount are sponsored')
    const empty = rpcOp(someone(), [])
    assert.equal(
      (await pm('dev-project', 'pm_getPaymasterData', params(empty))).error?.message,
      'An operation without calls is not sponsored',
    )
  })

  test('error: the daily budgets: per account, then in total; a new UTC day starts afresh', async () => {
    // Each account may spend one op a day, the project two in all.
    const set = await cli(
      'sponsor',
      '--id',
      'thrifty',
      '--network',
      'eip155:31337',
      '--contract',
      WALLET_ACCOUNT_FACTORY,
      '--user-budget',
      OP_COST.toString(),
      '--budget',
      (2n * OP_COST + OP_COST / 2n).toString(),
    )
    assert.equal(set.code, 0, set.err)
    const [alice, bea, cid] = [someone(), someone(), someone()]
    const final = (sender: Address) =>
      pm('thrifty', 'pm_getPaymasterData', params(rpcOp(sender, [factoryCall])))
    assert.ok((await final(alice)).result?.paymasterData, 'alice: first op of the day')
    const again = await final(alice)
    assert.equal(again.error?.code, -32013)
    assert.equal(
      again.error?.message,
      "The project's daily gas budget for this account is spent: try again tomorrow (UTC)",
    )
    const stub = await pm('thrifty', 'pm_getPaymasterStubData', params(rpcOp(alice, [factoryCall], false)))
    assert.equal(stub.error?.data?.code, 'PAYMASTER_BUDGET_SPENT', 'the stub already says so')
    assert.ok((await final(bea)).result?.paymasterData, 'bea: the project has budget left')
    const total = await final(cid)
    assert.equal(total.error?.message, "The project's daily gas budget is spent: try again tomorrow (UTC)")
    daysLater = 1
    try {
      assert.ok((await final(alice)).result?.paymasterData, 'a new day: alice again')
    } finally {
      daysLater = 0
    }
  })

  test('error: an op with higher fees than its budget is refused before anything is signed', async () => {
    const greedy = { ...rpcOp(someone(), [factoryCall]), maxFeePerGas: numberToHex(parseEther('1')) }
    const { error } = await pm('dev-project', 'pm_getPaymasterData', params(greedy))
    assert.equal(error?.data?.code, 'PAYMASTER_BUDGET_SPENT')
  })

  test('error: rate-limited like the RPC proxy (429, JSON-RPC -32005)', async () => {
    const limited = await buildApp(
      testDb.config({
        paymasterSignerKey: signerKey,
        paymasterAddresses: { 'eip155:31337': paymaster },
        rateLimits: { ...testDb.config().rateLimits, rpcPerSecond: 2 },
      }),
      { database: testDb.database, logger: testLogger },
    )
    try {
      const post = () =>
        limited.inject({
          method: 'POST',
          url: '/paymaster/v1?projectId=dev-project',
          payload: {
            jsonrpc: '2.0',
            id: 1,
            method: 'pm_getPaymasterStubData',
            params: params(rpcOp(someone(), [factoryCall], false)),
          },
        })
      assert.equal((await post()).statusCode, 200)
      assert.equal((await post()).statusCode, 200)
      const third = await post()
      assert.equal(third.statusCode, 429)
      assert.equal(third.json().error.code, -32005)
    } finally {
      await limited.close()
    }
  })

  test('error: bad params, another EntryPoint, missing gas and unknown methods are JSON-RPC errors', async () => {
    assert.equal((await pm('dev-project', 'pm_getPaymasterData', [{}])).error?.code, -32602)
    const otherEntryPoint = [
      rpcOp(someone(), [factoryCall]),
      '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
      '0x7a69',
      {},
    ]
    assert.match(
      (await pm('dev-project', 'pm_getPaymasterData', otherEntryPoint)).error?.message ?? '',
      /Unsupported EntryPoint/,
    )
    const noGas = await pm(
      'dev-project',
      'pm_getPaymasterData',
      params(rpcOp(someone(), [factoryCall], false)),
    )
    assert.equal(noGas.error?.message, 'The UserOperation has no callGasLimit: estimate its gas first')
    const unknown = await pm('dev-project', 'eth_sendUserOperation', [])
    assert.equal(unknown.error?.code, -32601)
    const noProject = await rawRequest(`${serviceUrl}/paymaster/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'pm_getPaymasterStubData', params: [] }),
    })
    assert.equal(noProject.status, 400)
    assert.equal(JSON.parse(noProject.text).error.data.code, 'PROJECT_ID_NOT_CONFIGURED')
  })
})
