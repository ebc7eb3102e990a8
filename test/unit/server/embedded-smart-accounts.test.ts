/**
 * The embedded wallet's smart accounts (ERC-4337), through the frame's API on a real local chain with
 * EntryPoint v0.8, the local bundler and the service: switching the account type, the first send
 * deploying the account, atomic `wallet_sendCalls` and its status, capabilities, switching back, and a
 * bundler that is down.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { eq } from 'drizzle-orm'
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  isErc6492Signature,
  maxUint256,
  parseEther,
  toHex,
} from 'viem'
import { entryPoint08Address } from 'viem/account-abstraction'
import { createSignatureChecker } from '../../../server/auth/signatures.ts'
import { walletRequests } from '../../../server/db/schema.ts'
import { type LocalBundler, startBundler } from '../../../server/dev/bundler/index.ts'
import { deployErc4337 } from '../../../server/dev/chain/erc4337.ts'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { deployMarket, type LocalMarket } from '../../../server/dev/chain/market.ts'
import { walletAccountAbi } from '../../../server/embedded/walletAccount.ts'
import {
  accountTypeResponse,
  approvalResponse,
  embeddedErrorBody,
  embeddedNetworksResponse,
  type SessionResponse,
} from '../../../src/protocol/embedded/index.ts'
import {
  clock,
  codeIn,
  type EmbeddedTestApp,
  frameWallet,
  signInByEmail,
  startEmbeddedTestApp,
} from './embedded-helpers.ts'
import { freePort, openTestDatabase, type TestDatabase } from './helpers.ts'

const EVM = 'eip155:31337'
/** A second chain whose bundler is down (nothing listens on its port). */
const EVM2 = 'eip155:31338'

let testDb: TestDatabase
let t: EmbeddedTestApp
let noBundler: EmbeddedTestApp
let chain: LocalChain
let chain2: LocalChain
let bundler: LocalBundler
let market: LocalMarket
let base = ''

const bob = devAccount(1).address
const errorOf = (body: unknown) => embeddedErrorBody.parse(body).error
const client = () => createPublicClient({ transport: http(chain.url, { retryCount: 0 }) })

const signIn = signInByEmail

/** A JSON-RPC call straight to the local bundler (the test's view of the chain, not the wallet's). */
async function bundlerCall(method: string, params: unknown[]) {
  const response = await fetch(bundler.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await response.json()) as { result: unknown }).result
}

before(
  async () => {
    ;[testDb, chain, chain2] = await Promise.all([
      openTestDatabase('embedded_smart_accounts'),
      startChain({ port: await freePort(), chainId: 31337 }),
      startChain({ port: await freePort(), chainId: 31338 }),
    ])
    market = await deployMarket({ url: chain.url, chainId: 31337 })
    await Promise.all([deployErc4337({ url: chain.url }), deployErc4337({ url: chain2.url })])
    bundler = await startBundler({ rpcUrl: chain.url, chainId: 31337, port: await freePort() })
    t = await startEmbeddedTestApp(testDb, 'smart-project', {
      rpcUpstreams: { [EVM]: chain.url, [EVM2]: chain2.url },
      bundlerUpstreams: { [EVM]: bundler.url, [EVM2]: `http://127.0.0.1:${await freePort()}` },
    })
    noBundler = await startEmbeddedTestApp(testDb, 'eoa-only-project', { rpcUpstreams: { [EVM]: chain.url } })
    base = await t.app.listen({ host: '127.0.0.1', port: 0 })
  },
  { timeout: 120_000 },
)
after(async () => {
  await t?.close()
  await noBundler?.close()
  await bundler?.stop()
  await Promise.all([testDb?.close(), chain?.stop(), chain2?.stop()])
})

/** Sets (or reads) the account type on a network. */
async function accountType(session: SessionResponse, chainId: string, type?: 'eoa' | 'smartAccount') {
  const answer = await t.call(
    '/embedded/v1/account-type',
    { chainId, ...(type ? { type } : {}) },
    { token: session.token },
  )
  assert.equal(answer.status, 200, JSON.stringify(answer.body))
  return accountTypeResponse.parse(answer.body)
}

/** Stores a request and approves it as the person would in the frame. */
async function approved(session: SessionResponse, chainId: string, method: string, params: unknown) {
  const created = await t.call('/embedded/v1/requests', { chainId, method, params }, { token: session.token })
  assert.equal(created.status, 200, JSON.stringify(created.body))
  const { id, preview } = approvalResponse.parse(created.body)
  const answer = await t.call(`/embedded/v1/requests/${id}/approve`, {}, { token: session.token })
  return { preview, answer }
}

async function rpc(session: SessionResponse, chainId: string, method: string, params: unknown) {
  return t.call('/embedded/v1/rpc', { chainId, method, params }, { token: session.token })
}

/** A signed-in person switched to a smart account on EVM, funded with 1 ETH before it exists. */
async function smartUser(name: string) {
  const session = await signIn(t, `${name}.${Date.now()}@example.com`)
  const { account } = await accountType(session, EVM, 'smartAccount')
  await client().request({
    method: 'hardhat_setBalance',
    params: [account.address, toHex(parseEther('1'))],
  } as never)
  return { session, address: account.address as Address }
}

const approve = (spender: Address, amount: bigint): Hex =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] })

/** The preview of `approve(bob, amount)` on the local USDC: decoded, with the token read on the chain. */
const usdcApproval = (usdc: Address, amount: string, unlimited = false) => ({
  standard: 'ERC-20',
  name: 'approve',
  contract: getAddress(usdc),
  token: { symbol: 'USDC', decimals: 6 },
  fields: [
    { label: 'spender', address: bob },
    { label: 'amount', amount, ...(unlimited ? { unlimited } : {}) },
  ],
  warnings: unlimited ? ['unlimitedApproval'] : [],
})

describe('the embedded wallet with a smart account', { timeout: 120_000 }, () => {
  test('default: an EOA until the person switches; the networks list says where smart accounts are', async () => {
    const session = await signIn(t, `eoa.${Date.now()}@example.com`)
    const before = await accountType(session, EVM)
    assert.deepEqual(before, {
      preferredAccountType: 'eoa',
      account: { address: session.user.accounts.eip155.address, type: 'eoa' },
    })
    const networks = embeddedNetworksResponse.parse((await t.call('/embedded/v1/networks')).body)
    assert.deepEqual(networks.smartAccountNetworks, [EVM, EVM2])
    const capabilities = await rpc(session, EVM, 'wallet_getCapabilities', [
      session.user.accounts.eip155.address,
    ])
    assert.deepEqual(capabilities.body.result, {
      '0x7a69': { atomic: { status: 'unsupported' } },
      '0x7a6a': { atomic: { status: 'unsupported' } },
    })
  })

  test('switching to a smart account: a new address, not deployed; the first send deploys it', async () => {
    const { session, address } = await smartUser('first-send')
    assert.notEqual(address.toLowerCase(), session.user.accounts.eip155.address.toLowerCase())
    assert.deepEqual((await accountType(session, EVM)).account, {
      address,
      type: 'smartAccount',
      smartAccountDeployed: false,
    })
    assert.deepEqual((await rpc(session, EVM, 'eth_accounts', [])).body.result, [address])
    const capabilities = await rpc(session, EVM, 'wallet_getCapabilities', [address])
    assert.deepEqual(capabilities.body.result, {
      '0x7a69': { atomic: { status: 'supported' } },
      '0x7a6a': { atomic: { status: 'supported' } },
    })

    const before = await client().getBalance({ address: bob })
    const { preview, answer } = await approved(session, EVM, 'eth_sendTransaction', [
      { from: address, to: bob, value: '0x3e8' },
    ])
    assert.equal(preview.from, address)
    assert.deepEqual(preview.transfers, [{ to: bob, value: '1000', dataBytes: 0 }])
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const receipt = await client().getTransactionReceipt({ hash: answer.body.result as Hex })
    assert.equal(receipt.status, 'success')
    assert.equal((await client().getBalance({ address: bob })) - before, 1000n)
    assert.equal((await accountType(session, EVM)).account.smartAccountDeployed, true)
  })

  test('wallet_sendCalls: an ETH transfer and a token approval land atomically; the status reports them', async () => {
    const { session, address } = await smartUser('batch')
    const USDC = market.tokens.USDC.address
    const before = await client().getBalance({ address: bob })
    const { preview, answer } = await approved(session, EVM, 'wallet_sendCalls', [
      {
        version: '2.0.0',
        chainId: '0x7a69',
        from: address,
        atomicRequired: true,
        calls: [
          { to: bob, value: '0x7d0' },
          { to: USDC, data: approve(bob, 7n) },
        ],
      },
    ])
    // The approval shows every call of the batch.
    assert.deepEqual(preview.transfers, [
      { to: bob, value: '2000', dataBytes: 0 },
      { to: USDC, value: '0', dataBytes: 68, action: usdcApproval(USDC, '7') },
    ])
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const { id } = answer.body.result as { id: string }
    let status = (await rpc(session, EVM, 'wallet_getCallsStatus', [id])).body.result as {
      status: number
      atomic: boolean
      receipts: { transactionHash: string; status: string }[]
    }
    for (let poll = 0; status.status === 100 && poll < 50; poll++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      status = (await rpc(session, EVM, 'wallet_getCallsStatus', [id])).body.result as typeof status
    }
    assert.equal(status.status, 200)
    assert.equal(status.atomic, true)
    assert.equal(status.receipts.length, 1, 'one transaction for both calls')
    assert.equal((await client().getBalance({ address: bob })) - before, 2000n)
    const allowance = await client().readContract({
      address: USDC,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [address, bob],
    })
    assert.equal(allowance, 7n)
  })

  test('error: a batch whose second call reverts lands neither call, with the reason', async () => {
    const { session, address } = await smartUser('reverting')
    const before = await client().getBalance({ address: bob })
    const { answer } = await approved(session, EVM, 'wallet_sendCalls', [
      {
        version: '2.0.0',
        from: address,
        calls: [
          { to: bob, value: '0x7d0' },
          {
            to: market.tokens.USDC.address,
            data: encodeFunctionData({
              abi: erc20Abi,
              functionName: 'transferFrom',
              args: [address, bob, 1n],
            }),
          },
        ],
      },
    ])
    assert.equal(answer.status, 400)
    assert.match(errorOf(answer.body).message, /The UserOperation's calls revert: call 1 of the batch/)
    assert.equal(await client().getBalance({ address: bob }), before)
  })

  test('switching back to the EOA: requests use the EOA again, and batches go one after another', async () => {
    const { session } = await smartUser('back')
    const eoa = session.user.accounts.eip155.address
    assert.deepEqual(await accountType(session, EVM, 'eoa'), {
      preferredAccountType: 'eoa',
      account: { address: eoa, type: 'eoa' },
    })
    assert.deepEqual((await rpc(session, EVM, 'eth_accounts', [])).body.result, [eoa])
    const created = await t.call(
      '/embedded/v1/requests',
      {
        chainId: EVM,
        method: 'wallet_sendCalls',
        params: [{ version: '2.0.0', atomicRequired: true, calls: [{ to: bob, value: '0x1' }] }],
      },
      { token: session.token },
    )
    assert.equal(created.status, 400)
    assert.equal(errorOf(created.body).rpcCode, 5760)
  })

  test('the frame: smart account networks, SET_PREFERRED_ACCOUNT, GET_USER with the smart account, and back', async () => {
    const email = `frame.${Date.now()}@example.com`
    const frame = frameWallet(t, base)
    assert.deepEqual(await frame.ask('GET_SMART_ACCOUNT_ENABLED_NETWORKS', {}), {
      type: 'GET_SMART_ACCOUNT_ENABLED_NETWORKS_SUCCESS',
      payload: { smartAccountEnabledNetworks: [EVM, EVM2] },
    })
    await frame.ask('CONNECT_EMAIL', { email })
    await frame.ask('CONNECT_OTP', { otp: codeIn(t.mailTo(email)[0]) })
    const eoa = (await frame.ask('GET_USER', { chainId: EVM })).payload as { address: string }
    assert.deepEqual(await frame.ask('SET_PREFERRED_ACCOUNT', { type: 'smartAccount' }), {
      type: 'SET_PREFERRED_ACCOUNT_SUCCESS',
      payload: {},
    })
    const user = (await frame.ask('GET_USER', { chainId: EVM })).payload as {
      address: string
      preferredAccountType: string
      smartAccountDeployed: boolean
      accounts: { namespace: string; address: string; type: string }[]
    }
    assert.notEqual(user.address, eoa.address)
    assert.equal(user.preferredAccountType, 'smartAccount')
    assert.equal(user.smartAccountDeployed, false)
    assert.deepEqual(user.accounts[0], { namespace: 'eip155', address: user.address, type: 'smartAccount' })
    assert.deepEqual(await frame.ask('RPC_REQUEST', { chainId: EVM, method: 'eth_accounts' }), {
      type: 'RPC_REQUEST_SUCCESS',
      payload: { result: [user.address] },
    })
    await frame.ask('SET_PREFERRED_ACCOUNT', { type: 'eoa' })
    const back = (await frame.ask('GET_USER', { chainId: EVM })).payload as {
      address: string
      preferredAccountType: string
    }
    assert.deepEqual([back.address, back.preferredAccountType], [eoa.address, 'eoa'])
  })

  test('attack (issue 23 item 4b): a second frame of the page asks SET_PREFERRED_ACCOUNT and INIT_SMART_ACCOUNT; the person rejects in the approval view: 4001, and the account stays the EOA', async () => {
    const email = `second.${Date.now()}@example.com`
    const modalFrame = frameWallet(t, base)
    await modalFrame.ask('CONNECT_EMAIL', { email })
    await modalFrame.ask('CONNECT_OTP', { otp: codeIn(t.mailTo(email)[0]) })
    const eoa = ((await modalFrame.ask('GET_USER', { chainId: EVM })).payload as { address: string }).address
    // The page's own frame: the same browser storage (so the same session), its own handshake.
    const shown: NonNullable<NonNullable<Parameters<typeof frameWallet>[2]>['shown']> = []
    const script = frameWallet(t, base, { storage: modalFrame.storage, decision: 'reject', shown })
    for (const [type, payload] of [
      ['SET_PREFERRED_ACCOUNT', { type: 'smartAccount' }],
      ['INIT_SMART_ACCOUNT', {}],
    ] as const) {
      const answer = await script.ask(type, payload as never)
      assert.deepEqual([answer.type, (answer.payload as { code?: unknown }).code], [`${type}_ERROR`, 4001])
    }
    const after = (await modalFrame.ask('GET_USER', { chainId: EVM })).payload as {
      address: string
      preferredAccountType: string
    }
    assert.deepEqual([after.address, after.preferredAccountType], [eoa, 'eoa'])
    // Approved (the modal's frame, the person clicking Approve): the account shown is the one used.
    await modalFrame.ask('SET_PREFERRED_ACCOUNT', { type: 'smartAccount' })
    const smart = ((await modalFrame.ask('GET_USER', { chainId: EVM })).payload as { address: string })
      .address
    assert.notEqual(smart, eoa)
    assert.equal(shown.length, 2)
    for (const preview of shown)
      assert.deepEqual(preview, {
        kind: 'accountType',
        type: 'smartAccount',
        network: 'Local Chain',
        from: eoa,
        to: smart,
      })
  })

  test('account-type with preview: answers the account the switch would use and sets nothing; refused where there is no bundler', async () => {
    const session = await signIn(t, `preview.${Date.now()}@example.com`)
    const eoa = session.user.accounts.eip155.address
    const answer = await t.call(
      '/embedded/v1/account-type',
      { chainId: EVM, preview: 'smartAccount' },
      { token: session.token },
    )
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const read = accountTypeResponse.parse(answer.body)
    assert.deepEqual([read.preferredAccountType, read.account], ['eoa', { address: eoa, type: 'eoa' }])
    const { account } = await accountType(session, EVM, 'smartAccount')
    assert.deepEqual(read.preview, { address: account.address, type: 'smartAccount' })
    const elsewhere = await signIn(noBundler, `preview.nobundler.${Date.now()}@example.com`)
    const refused = await noBundler.call(
      '/embedded/v1/account-type',
      { chainId: EVM, preview: 'smartAccount' },
      { token: elsewhere.token },
    )
    assert.equal(refused.status, 400)
    assert.equal(errorOf(refused.body).message, 'This application might not support Smart Accounts')
  })

  test('the site default (GET_USER preferredAccountType): a new user starts on a smart account, a returning one keeps theirs', async () => {
    const email = `default.${Date.now()}@example.com`
    const frame = frameWallet(t, base)
    const signInHere = async () => {
      await frame.ask('CONNECT_EMAIL', { email })
      await frame.ask('CONNECT_OTP', { otp: codeIn(t.mailTo(email)[0]) }) // the newest mail first
    }
    type User = { preferredAccountType: string; accounts: { type: string }[] }
    const userWith = async (preferredAccountType: 'eoa' | 'smartAccount') =>
      (await frame.ask('GET_USER', { chainId: EVM, preferredAccountType })).payload as User
    await signInHere()
    const first = await userWith('smartAccount')
    assert.deepEqual([first.preferredAccountType, first.accounts[0]?.type], ['smartAccount', 'smartAccount'])
    // The person chose the EOA; signing in again, the site's default does not override it.
    await frame.ask('SET_PREFERRED_ACCOUNT', { type: 'eoa' })
    await frame.ask('SIGN_OUT', {})
    clock.now += 31_000 // past the 30 s between two sign-in mails
    await signInHere()
    const again = await userWith('smartAccount')
    assert.deepEqual([again.preferredAccountType, again.accounts[0]?.type], ['eoa', 'eoa'])
  })

  test('signatures: EIP-6492 before deployment, EIP-1271 after the first send; viem and the sign-in checker accept both', async () => {
    const { session, address } = await smartUser('signer')
    const checker = createSignatureChecker({ upstreams: { [EVM]: chain.url }, timeoutMs: 10_000 })
    const message = `127.0.0.1 wants you to sign in with your Ethereum account:\n${address}\n\nNonce: ${Date.now()}`
    const sign = async (chainId = EVM, signer: string = address) => {
      const { preview, answer } = await approved(session, chainId, 'personal_sign', [message, signer])
      assert.equal(answer.status, 200, JSON.stringify(answer.body))
      assert.equal(preview.from, signer)
      return answer.body.result as Hex
    }
    const typedData = {
      domain: { name: 'Mail', version: '1', chainId: 31337 },
      types: { Mail: [{ name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      message: { contents: 'hello' },
    } as const

    const counterfactual = await sign()
    assert.ok(isErc6492Signature(counterfactual), 'an undeployed account wraps its signature in EIP-6492')
    assert.equal(await client().verifyMessage({ address, message, signature: counterfactual }), true)
    assert.equal(
      await checker.verify({ chainId: EVM, address, message, signature: counterfactual }),
      'eip6492',
    )
    const typed = await approved(session, EVM, 'eth_signTypedData_v4', [address, JSON.stringify(typedData)])
    assert.equal(typed.answer.status, 200, JSON.stringify(typed.answer.body))
    assert.ok(isErc6492Signature(typed.answer.body.result as Hex))
    assert.equal(
      await client().verifyTypedData({ address, ...typedData, signature: typed.answer.body.result as Hex }),
      true,
    )
    // Verifying deployed nothing (the validator's call is never sent as a transaction).
    assert.equal(await client().getCode({ address }), undefined)

    // The key's own signature of the message is not the account's: the account wraps the hash.
    const byKey = await sign(EVM, session.user.accounts.eip155.address)
    assert.equal(await client().verifyMessage({ address, message, signature: byKey }), false)

    const sent = await approved(session, EVM, 'eth_sendTransaction', [
      { from: address, to: bob, value: '0x1' },
    ])
    assert.equal(sent.answer.status, 200, JSON.stringify(sent.answer.body))
    const deployed = await sign()
    assert.equal(isErc6492Signature(deployed), false, 'a deployed account signs plain EIP-1271')
    assert.equal(await client().verifyMessage({ address, message, signature: deployed }), true)
    assert.equal(await checker.verify({ chainId: EVM, address, message, signature: deployed }), 'eip1271')

    // Replay: the same owner's account on the second chain (same address) signs for that chain only.
    await accountType(session, EVM2, 'smartAccount')
    const otherChain = await sign(EVM2)
    assert.equal(await client().verifyMessage({ address, message, signature: otherChain }), false)
    await assert.rejects(checker.verify({ chainId: EVM, address, message, signature: otherChain }), {
      code: 'SMART_ACCOUNT_NOT_SUPPORTED',
    })
  })

  test('eth_sendUserOperation: the page’s calls for the person’s own account, shown for approval, signed by the service', async () => {
    const { session, address } = await smartUser('user-op')
    const USDC = market.tokens.USDC.address
    const callData = encodeFunctionData({
      abi: walletAccountAbi,
      functionName: 'executeBatch',
      args: [
        [
          { target: bob, value: 3000n, data: '0x' },
          { target: USDC, value: 0n, data: approve(bob, 9n) },
        ],
      ],
    })
    const before = await client().getBalance({ address: bob })
    const { preview, answer } = await approved(session, EVM, 'eth_sendUserOperation', [
      // A signature from the page is ignored: the service signs after the approval.
      { sender: address, callData, callGasLimit: '0x30d40', signature: `0x${'ab'.repeat(65)}` },
      entryPoint08Address,
    ])
    assert.equal(preview.from, address)
    assert.deepEqual(preview.transfers, [
      { to: bob, value: '3000', dataBytes: 0 },
      { to: USDC, value: '0', dataBytes: 68, action: usdcApproval(USDC, '9') },
    ])
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const userOpHash = answer.body.result as Hex
    assert.match(userOpHash, /^0x[0-9a-f]{64}$/)
    let receipt = null as { success: boolean; sender: string } | null
    for (let poll = 0; receipt === null && poll < 100; poll++) {
      receipt = (await bundlerCall('eth_getUserOperationReceipt', [userOpHash])) as typeof receipt
      if (receipt === null) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    assert.equal(receipt?.success, true)
    assert.equal(receipt?.sender.toLowerCase(), address.toLowerCase())
    assert.equal((await client().getBalance({ address: bob })) - before, 3000n)
    assert.equal(
      await client().readContract({
        address: USDC,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [address, bob],
      }),
      9n,
    )
  })

  test('error: eth_sendUserOperation as an attacker would send it: each refused with its reason, nothing stored nor signed', async () => {
    const { session, address } = await smartUser('user-op-attacker')
    const one = encodeFunctionData({
      abi: walletAccountAbi,
      functionName: 'execute',
      args: [bob, 1n, '0x'],
    })
    const attempt = async (operation: Record<string, unknown>, entryPoint: string = entryPoint08Address) => {
      const created = await t.call(
        '/embedded/v1/requests',
        { chainId: EVM, method: 'eth_sendUserOperation', params: [operation, entryPoint] },
        { token: session.token },
      )
      return { status: created.status, ...errorOf(created.body) }
    }
    const cases: [string, Record<string, unknown>, string, number, RegExp][] = [
      [
        'another sender',
        { sender: bob, callData: one },
        entryPoint08Address,
        403,
        /^The UserOperation is for an account this wallet does not hold$/,
      ],
      [
        'another EntryPoint (v0.7)',
        { sender: address, callData: one },
        '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
        400,
        /^Unsupported EntryPoint 0x0000000071727De22E5E9d8BAf0edAc6f37da032/,
      ],
      [
        'a huge callGasLimit',
        { sender: address, callData: one, callGasLimit: '0xffffffffffffffff' },
        entryPoint08Address,
        400,
        /callGasLimit is over this wallet's cap of 10000000$/,
      ],
      [
        'a huge verificationGasLimit',
        { sender: address, callData: one, verificationGasLimit: '0x1000000' },
        entryPoint08Address,
        400,
        /verificationGasLimit is over/,
      ],
      [
        'a huge preVerificationGas',
        { sender: address, callData: one, preVerificationGas: '0x10000000' },
        entryPoint08Address,
        400,
        /preVerificationGas is over/,
      ],
      [
        'a huge fee',
        { sender: address, callData: one, maxFeePerGas: `0x${(10n ** 20n).toString(16)}` },
        entryPoint08Address,
        400,
        /maxFeePerGas is over this wallet's cap/,
      ],
      [
        'a tip above the fee',
        { sender: address, callData: one, maxFeePerGas: '0x10', maxPriorityFeePerGas: '0x20' },
        entryPoint08Address,
        400,
        /maxPriorityFeePerGas is above its maxFeePerGas/,
      ],
      [
        'callData that is not hex',
        { sender: address, callData: '0xzz' },
        entryPoint08Address,
        400,
        /^Invalid params of eth_sendUserOperation: callData$/,
      ],
      [
        'a nonce that is not a quantity',
        { sender: address, callData: one, nonce: 12 },
        entryPoint08Address,
        400,
        /^Invalid params of eth_sendUserOperation: nonce$/,
      ],
      [
        'no callData',
        { sender: address },
        entryPoint08Address,
        400,
        /^Invalid params of eth_sendUserOperation: callData$/,
      ],
      [
        'a v0.6 initCode field',
        { sender: address, callData: one, initCode: '0x' },
        entryPoint08Address,
        400,
        /^Invalid params of eth_sendUserOperation: initCode$/,
      ],
      [
        'an EIP-7702 authorisation',
        { sender: address, callData: one, eip7702Auth: {} },
        entryPoint08Address,
        400,
        /eip7702Auth$/,
      ],
      [
        'a paymaster',
        { sender: address, callData: one, paymaster: bob, paymasterData: '0x01' },
        entryPoint08Address,
        400,
        /^Paymasters are not supported by this wallet$/,
      ],
      [
        'another factory',
        { sender: address, callData: one, factory: bob, factoryData: '0x01' },
        entryPoint08Address,
        400,
        /factory is not this wallet's account factory$/,
      ],
      [
        'callData that is no call of the account',
        { sender: address, callData: '0x12345678' },
        entryPoint08Address,
        400,
        /callData is not a call of this wallet's account/,
      ],
      [
        'oversized callData',
        {
          sender: address,
          callData: encodeFunctionData({
            abi: walletAccountAbi,
            functionName: 'execute',
            args: [bob, 0n, `0x${'00'.repeat(20_000)}`],
          }),
        },
        entryPoint08Address,
        400,
        /callData is over 16384 bytes$/,
      ],
      [
        'eleven calls',
        {
          sender: address,
          callData: encodeFunctionData({
            abi: walletAccountAbi,
            functionName: 'executeBatch',
            args: [Array.from({ length: 11 }, () => ({ target: bob, value: 1n, data: '0x' as Hex }))],
          }),
        },
        entryPoint08Address,
        400,
        /carries 11 calls; 1 to 10 are allowed$/,
      ],
    ]
    for (const [name, operation, entryPoint, status, message] of cases) {
      const refused = await attempt(operation, entryPoint)
      assert.equal(refused.status, status, `${name}: ${JSON.stringify(refused)}`)
      assert.match(refused.message, message, name)
    }
    const stored = await testDb.database.db
      .select({ params: walletRequests.params })
      .from(walletRequests)
      .where(eq(walletRequests.method, 'eth_sendUserOperation'))
    const mine = stored.filter(
      (row) => (row.params as [{ sender?: string }])[0]?.sender?.toLowerCase() === address.toLowerCase(),
    )
    assert.deepEqual(mine, [], 'nothing stored for approval')
    assert.equal(await client().getCode({ address }), undefined, 'nothing sent')
  })

  test('attack: typed data for the person’s own smart account (its WalletAccount domain, any name) is refused', async () => {
    const { session, address } = await smartUser('own-domain')
    for (const name of ['WalletAccount', 'Innocent Shop']) {
      const created = await t.call(
        '/embedded/v1/requests',
        {
          chainId: EVM,
          method: 'eth_signTypedData_v4',
          params: [
            address,
            {
              domain: { name, version: '1', chainId: 31337, verifyingContract: address },
              types: { WalletAccountMessage: [{ name: 'hash', type: 'bytes32' }] },
              primaryType: 'WalletAccountMessage',
              message: { hash: `0x${'22'.repeat(32)}` },
            },
          ],
        },
        { token: session.token },
      )
      assert.equal(created.status, 403, name)
      assert.match(errorOf(created.body).message, /wallet's own account or the EntryPoint/)
    }
  })

  test('attack: an unlimited approve inside a UserOperation’s executeBatch is shown decoded, as unlimited, with a warning', async () => {
    const { session, address } = await smartUser('unlimited')
    const USDC = market.tokens.USDC.address
    const callData = encodeFunctionData({
      abi: walletAccountAbi,
      functionName: 'executeBatch',
      args: [[{ target: USDC, value: 0n, data: approve(bob, maxUint256) }]],
    })
    const created = await t.call(
      '/embedded/v1/requests',
      {
        chainId: EVM,
        method: 'eth_sendUserOperation',
        params: [{ sender: address, callData }, entryPoint08Address],
      },
      { token: session.token },
    )
    assert.equal(created.status, 200, JSON.stringify(created.body))
    const { id, preview } = approvalResponse.parse(created.body)
    assert.deepEqual(preview.transfers, [
      {
        to: USDC,
        value: '0',
        dataBytes: 68,
        action: usdcApproval(USDC, maxUint256.toString(), true),
      },
    ])
    await t.call(`/embedded/v1/requests/${id}/reject`, {}, { token: session.token })
  })

  test('error: the bundler being down: a clear error, the request is not lost from the chain’s view', async () => {
    const session = await signIn(t, `down.${Date.now()}@example.com`)
    const { account } = await accountType(session, EVM2, 'smartAccount')
    const { answer } = await approved(session, EVM2, 'eth_sendTransaction', [
      { from: account.address, to: bob, value: '0x1' },
    ])
    assert.equal(answer.status, 502)
    assert.match(errorOf(answer.body).message, /^The bundler for eip155:31338 is unreachable/)
    // Nothing was sent: the account is still undeployed and the person can try again.
    assert.equal((await accountType(session, EVM2)).account.smartAccountDeployed, false)
  })

  test('error: a service without a bundler keeps the EOA: This application might not support Smart Accounts', async () => {
    const session = await signIn(noBundler, `nobundler.${Date.now()}@example.com`)
    const answer = await noBundler.call(
      '/embedded/v1/account-type',
      { chainId: EVM, type: 'smartAccount' },
      { token: session.token },
    )
    assert.equal(answer.status, 400)
    assert.equal(errorOf(answer.body).message, 'This application might not support Smart Accounts')
    const networks = embeddedNetworksResponse.parse((await noBundler.call('/embedded/v1/networks')).body)
    assert.deepEqual(networks.smartAccountNetworks, [])
    const read = await noBundler.call('/embedded/v1/account-type', { chainId: EVM }, { token: session.token })
    assert.equal(accountTypeResponse.parse(read.body).account.type, 'eoa')
  })
})
