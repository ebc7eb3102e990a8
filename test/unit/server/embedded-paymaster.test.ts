/**
 * Sponsored gas in the embedded wallet: `wallet_sendCalls` with the `paymasterService` capability (ERC-7677).
 * The project's own paymaster endpoint is honoured (the approval says the site pays, the account's ETH is
 * unchanged); any other paymaster URL is refused (5700) or, marked optional, ignored; a call outside the
 * project's policy is refused with the paymaster's words; `wallet_getCapabilities` announces it where the
 * project sponsors. Against a local chain, EntryPoint v0.8, the WalletPaymaster and the local bundler.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Address, createPublicClient, encodeFunctionData, http } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { type LocalBundler, startBundler } from '../../../server/dev/bundler/index.ts'
import { deployErc4337 } from '../../../server/dev/chain/erc4337.ts'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { deployPaymaster, walletPaymasterAbi } from '../../../server/dev/chain/paymaster.ts'
import { WALLET_ACCOUNT_FACTORY, walletAccountAbi } from '../../../server/embedded/walletAccount.ts'
import { setPaymasterPolicy } from '../../../server/paymaster/policies.ts'
import { accountTypeResponse, embeddedErrorBody } from '../../../src/protocol/embedded/index.ts'
import { type EmbeddedTestApp, startEmbeddedTestApp } from './embedded-helpers.ts'
import { createAndApprove, type SessionWithKeys, signInWithKeys } from './embedded-keys-helpers.ts'
import { freePort, openTestDatabase, SMART_ACCOUNT_PERMISSIONS, type TestDatabase } from './helpers.ts'

const EVM = 'eip155:31337'
const PROJECT = 'sponsored-project'
const PUBLIC_URL = 'https://api.example.com/paymaster/v1'
const OWN_URL = `${PUBLIC_URL}?projectId=${PROJECT}`
const bob = devAccount(1).address

let chain: LocalChain
let bundler: LocalBundler
let testDb: TestDatabase
let t: EmbeddedTestApp
let paymaster: Address

before(
  async () => {
    ;[testDb, chain] = await Promise.all([
      openTestDatabase('embedded_paymaster'),
      startChain({ port: await freePort(), chainId: 31337 }),
    ])
    await deployErc4337({ url: chain.url })
    const signerKey = generatePrivateKey()
    paymaster = await deployPaymaster({
      url: chain.url,
      chainId: 31337,
      signer: privateKeyToAddress(signerKey),
    })
    bundler = await startBundler({ rpcUrl: chain.url, chainId: 31337, port: await freePort() })
    t = await startEmbeddedTestApp(testDb, PROJECT, {
      rpcUpstreams: { [EVM]: chain.url },
      bundlerUpstreams: { [EVM]: bundler.url },
      paymaster: {
        paymasterSignerKey: signerKey,
        paymasterAddresses: { [EVM]: paymaster },
        paymasterPublicUrl: PUBLIC_URL,
      },
    })
    await setPaymasterPolicy(testDb.database.db, PROJECT, {
      networks: [EVM],
      contracts: [WALLET_ACCOUNT_FACTORY],
      perUserDailyWei: 10n ** 17n,
      totalDailyWei: 10n ** 18n,
    })
  },
  { timeout: 120_000 },
)
after(async () => {
  await t?.close()
  await bundler?.stop()
  await Promise.all([testDb?.close(), chain?.stop()])
})

const client = () => createPublicClient({ transport: http(chain.url, { retryCount: 0 }) })

/** A signed-in person on a smart account that holds no ETH (never funded). */
async function smartUser(name: string): Promise<{ session: SessionWithKeys; address: Address }> {
  const session = await signInWithKeys(t, `${name}.${Date.now()}@example.com`)
  const answer = await t.call(
    '/embedded/v1/account-type',
    { chainId: EVM, type: 'smartAccount' },
    { token: session.token },
  )
  assert.equal(answer.status, 200, JSON.stringify(answer.body))
  return { session, address: accountTypeResponse.parse(answer.body).account.address as Address }
}

/** The WalletAccountFactory's `getAddress(bob, 0)`: a harmless call to the sponsored contract. */
const factoryCall = {
  to: WALLET_ACCOUNT_FACTORY,
  data: encodeFunctionData({ abi: walletAccountAbi, functionName: 'getAddress', args: [bob, 0n] }),
}
const batch = (from: Address, paymasterService: unknown, calls: unknown[] = [factoryCall]) => [
  { version: '2.0.0', chainId: '0x7a69', from, calls, capabilities: { paymasterService } },
]

const store = (session: SessionWithKeys, params: unknown) =>
  t.call(
    '/embedded/v1/requests',
    { chainId: EVM, method: 'wallet_sendCalls', params },
    { token: session.token },
  )

describe('wallet_sendCalls with paymasterService', { timeout: 120_000 }, () => {
  test('default: the project endpoint pays: the approval says so, the account ETH stays 0', async () => {
    const { session, address } = await smartUser('sponsored')
    const deposit = () =>
      client().readContract({ address: paymaster, abi: walletPaymasterAbi, functionName: 'getDeposit' })
    const depositBefore = await deposit()
    const { preview, answer } = await createAndApprove(t, session, {
      chainId: EVM,
      method: 'wallet_sendCalls',
      params: batch(address, { url: OWN_URL, context: { campaign: 'launch' } }),
    })
    assert.equal(preview.sponsored, true)
    assert.equal(preview.fee, undefined, 'no fee of the person to show')
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const { id } = answer.body.result as { id: string }
    let status = { status: 100 }
    for (let poll = 0; status.status === 100 && poll < 50; poll++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      status = (
        await t.call(
          '/embedded/v1/rpc',
          { chainId: EVM, method: 'wallet_getCallsStatus', params: [id] },
          { token: session.token },
        )
      ).body.result as typeof status
    }
    assert.equal(status.status, 200)
    assert.ok(((await client().getCode({ address })) ?? '0x').length > 2, 'deployed by the sponsored op')
    assert.equal(await client().getBalance({ address }), 0n, "the account's ETH is unchanged")
    assert.ok((await deposit()) < depositBefore, 'the paymaster paid')
  })

  test('error: another paymaster URL is refused with 5700; marked optional it is ignored', async () => {
    const { session, address } = await smartUser('other-paymaster')
    for (const url of [
      'https://paymaster.example.org/rpc',
      `https://evil.example.com/paymaster/v1?projectId=${PROJECT}`,
      `${PUBLIC_URL}?projectId=other-project`,
    ]) {
      const refused = await store(session, batch(address, { url }))
      assert.equal(refused.status, 400, url)
      const error = embeddedErrorBody.parse(refused.body).error
      assert.equal(error.rpcCode, 5700)
      assert.match(error.message, /Unsupported non-optional capability: paymasterService/)
    }
    const ignored = await store(
      session,
      batch(address, { url: 'https://paymaster.example.org/rpc', optional: true }),
    )
    assert.equal(ignored.status, 200, JSON.stringify(ignored.body))
    assert.equal((ignored.body as { preview: { sponsored?: boolean } }).preview.sponsored, undefined)
  })

  test('error: a call outside the project policy is refused with the paymaster words', async () => {
    const { session, address } = await smartUser('off-policy')
    const { preview, answer } = await createAndApprove(t, session, {
      chainId: EVM,
      method: 'wallet_sendCalls',
      params: batch(address, { url: OWN_URL }, [factoryCall, { to: bob, value: '0x1' }]),
    })
    assert.equal(preview.sponsored, undefined, 'nothing sponsored to show')
    assert.notEqual(answer.status, 200)
    assert.match(JSON.stringify(answer.body), new RegExp(`Calls to ${bob} are not sponsored by this project`))
    assert.equal(await client().getBalance({ address }), 0n)
  })

  test('wallet_getCapabilities: paymasterService where the smart account sends and the project sponsors', async () => {
    const { session, address } = await smartUser('capabilities')
    const smart = await t.call(
      '/embedded/v1/rpc',
      { chainId: EVM, method: 'wallet_getCapabilities', params: [address] },
      { token: session.token },
    )
    assert.deepEqual(smart.body.result, {
      '0x7a69': {
        atomic: { status: 'supported' },
        paymasterService: { supported: true },
        permissions: SMART_ACCOUNT_PERMISSIONS,
      },
    })
    await t.call('/embedded/v1/account-type', { chainId: EVM, type: 'eoa' }, { token: session.token })
    const eoa = await t.call(
      '/embedded/v1/rpc',
      { chainId: EVM, method: 'wallet_getCapabilities', params: [] },
      { token: session.token },
    )
    assert.deepEqual(eoa.body.result, { '0x7a69': { atomic: { status: 'unsupported' } } })
  })
})
