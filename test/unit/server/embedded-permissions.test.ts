/**
 * Permissions in the embedded wallet (ERC-7715, issue 27 item 2), through the service's routes as the
 * frame calls them, against a local chain, EntryPoint v0.8, the local market and the local bundler: a
 * site granted 10 USDC a day to the market's router swaps three times with the session key and no
 * approval; the fourth swap, over the day's allowance, is refused by the account's own policy with words a
 * site can show, and nothing moves; after the revocation the next swap fails on chain. Each refusal is
 * written as the attack it stops.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  hexToBytes,
  http,
  parseAbi,
  parseEther,
  parseUnits,
} from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { type LocalBundler, startBundler } from '../../../server/dev/bundler/index.ts'
import { deployErc4337 } from '../../../server/dev/chain/erc4337.ts'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { deployMarket, type LocalMarket } from '../../../server/dev/chain/market.ts'
import { walletAccountSessionAbi } from '../../../server/embedded/walletAccount.ts'
import {
  accountTypeResponse,
  approvalResponse,
  embeddedErrorBody,
} from '../../../src/protocol/embedded/index.ts'
import { grantedPermissionsResponse } from '../../../src/protocol/embedded/permissions.ts'
import { evmDigestOf, signHash } from '../../../src/protocol/embedded/signer.ts'
import type { SignRequest } from '../../../src/protocol/embedded/signing.ts'
import { clock, type EmbeddedTestApp, startEmbeddedTestApp } from './embedded-helpers.ts'
import { createAndApprove, type SessionWithKeys, signInWithKeys } from './embedded-keys-helpers.ts'
import { freePort, openTestDatabase, type TestDatabase } from './helpers.ts'

const EVM = 'eip155:31337'
const PROJECT = 'permissions-project'
const SWAP = 'swapExactTokensForTokens(uint256,uint256,address[],address,uint256)'
const routerAbi = parseAbi([`function ${SWAP}`])

let chain: LocalChain
let bundler: LocalBundler
let market: LocalMarket
let testDb: TestDatabase
let t: EmbeddedTestApp

before(
  async () => {
    ;[testDb, chain] = await Promise.all([
      openTestDatabase('embedded_permissions'),
      startChain({ port: await freePort(), chainId: 31337 }),
    ])
    await deployErc4337({ url: chain.url })
    market = await deployMarket({ url: chain.url, chainId: 31337 })
    bundler = await startBundler({ rpcUrl: chain.url, chainId: 31337, port: await freePort() })
    t = await startEmbeddedTestApp(testDb, PROJECT, {
      rpcUpstreams: { [EVM]: chain.url },
      bundlerUpstreams: { [EVM]: bundler.url },
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
const usdc = () => market.tokens.USDC.address
const usdcOf = (address: Address) =>
  client().readContract({ address: usdc(), abi: erc20Abi, functionName: 'balanceOf', args: [address] })

/** A signed-in person on a smart account holding 1 ETH and 100 USDC. */
async function smartUser(name: string): Promise<{ session: SessionWithKeys; account: Address }> {
  const session = await signInWithKeys(t, `${name}.${Date.now()}@example.com`)
  const answer = await t.call(
    '/embedded/v1/account-type',
    { chainId: EVM, type: 'smartAccount' },
    { token: session.token },
  )
  assert.equal(answer.status, 200, JSON.stringify(answer.body))
  const account = accountTypeResponse.parse(answer.body).account.address as Address
  await client().request({
    method: 'hardhat_setBalance' as never,
    params: [account, `0x${parseEther('1').toString(16)}`] as never,
  })
  const funder = createWalletClient({ account: devAccount(2), transport: http(chain.url) })
  const hash = await funder.writeContract({
    chain: null,
    address: usdc(),
    abi: erc20Abi,
    functionName: 'transfer',
    args: [account, parseUnits('100', 6)],
  })
  await client().waitForTransactionReceipt({ hash })
  return { session, account }
}

/** The frame's session key: made by the frame, named in the request as the wallet's signer. */
function sessionKey() {
  const secret = generatePrivateKey()
  return { secret, address: privateKeyToAddress(secret) }
}

/** `wallet_grantPermissions`: 10 USDC a day, and the router's swap, for an hour. */
const grantParams = (key: Address, extra: Record<string, unknown> = {}) => [
  {
    chainId: '0x7a69',
    expiry: Math.floor(Date.now() / 1000) + 3600,
    signer: { type: 'wallet', data: { key } },
    permissions: [
      {
        type: 'erc20-token-periodic',
        data: {
          tokenAddress: usdc(),
          periodAmount: `0x${parseUnits('10', 6).toString(16)}`,
          periodDuration: 86_400,
        },
      },
      { type: 'contract-call', data: { address: market.uniswapV2.router, calls: [SWAP] } },
    ],
    ...extra,
  },
]

/** A swap of `amount` USDC for WETH: approve the router, then swap (one batch). */
const swapCalls = (account: Address, amount: bigint) => [
  {
    to: usdc(),
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [market.uniswapV2.router, amount],
    }),
  },
  {
    to: market.uniswapV2.router,
    data: encodeFunctionData({
      abi: routerAbi,
      functionName: 'swapExactTokensForTokens',
      args: [
        amount,
        0n,
        [usdc(), market.tokens.WETH.address],
        account,
        BigInt(Math.floor(Date.now() / 1000) + 600),
      ],
    }),
  },
]

/** Sends calls with the permission's context, signed by `signer` (the frame's key) with no approval shown. */
async function sendWithPermission(
  session: SessionWithKeys,
  context: string,
  calls: unknown[],
  signer: Hex,
): Promise<{ status: number; body: unknown }> {
  const stored = await t.call(
    '/embedded/v1/requests',
    {
      chainId: EVM,
      method: 'wallet_sendCalls',
      params: [{ version: '2.0.0', chainId: '0x7a69', calls, capabilities: { permissions: { context } } }],
    },
    { token: session.token },
  )
  if (stored.status !== 200) return stored
  const created = approvalResponse.parse(stored.body)
  const [request] = created.signing.plan as [SignRequest]
  const signature = signHash(evmDigestOf(request as never), hexToBytes(signer))
  return t.call(
    `/embedded/v1/requests/${created.id}/approve`,
    { signatures: [signature] },
    { token: session.token },
  )
}

/** Waits for a batch's final status (EIP-5792). */
async function finalStatus(session: SessionWithKeys, id: string): Promise<number> {
  for (let poll = 0; poll < 100; poll++) {
    const answer = await t.call(
      '/embedded/v1/rpc',
      { chainId: EVM, method: 'wallet_getCallsStatus', params: [id] },
      { token: session.token },
    )
    const { status } = answer.body.result as { status: number }
    if (status !== 100) return status
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return 100
}

/** The site's permissions as `wallet_getGrantedExecutionPermissions` answers them. */
async function listPermissions(session: SessionWithKeys) {
  const answer = await t.call(
    '/embedded/v1/rpc',
    { chainId: EVM, method: 'wallet_getGrantedExecutionPermissions', params: [] },
    { token: session.token },
  )
  assert.equal(answer.status, 200, JSON.stringify(answer.body))
  return grantedPermissionsResponse.parse(answer.body.result)
}

const refusal = (answer: { status: number; body: unknown }) => embeddedErrorBody.parse(answer.body).error

describe('permissions (ERC-7715)', { timeout: 180_000 }, () => {
  test('default: 10 USDC a day to the router: three swaps with no prompt, the fourth refused, then revoked', async () => {
    const { session, account } = await smartUser('swapper')
    const key = sessionKey()
    const { preview, answer } = await createAndApprove(t, session, {
      chainId: EVM,
      method: 'wallet_grantPermissions',
      params: grantParams(key.address),
    })
    // What the person approved: the plain-words preview of the grant.
    assert.equal(preview.permissions?.action, 'grant')
    assert.deepEqual(
      preview.permissions?.tokens.map(({ symbol, decimals, amount, period, total }) => ({
        symbol,
        decimals,
        amount,
        period,
        total,
      })),
      [{ symbol: 'USDC', decimals: 6, amount: '10000000', period: 86_400, total: false }],
    )
    assert.deepEqual(preview.permissions?.contracts, [
      { address: market.uniswapV2.router, functions: [SWAP] },
    ])
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const granted = answer.body.result as { permissionsContext: string; address: string; expiry: number }
    assert.equal(granted.permissionsContext, key.address.toLowerCase())
    assert.equal(granted.address, account)
    // The chain holds the session: granted, not revoked.
    const [, grant, , revoked] = await client().readContract({
      address: account,
      abi: walletAccountSessionAbi,
      functionName: 'session',
      args: [key.address],
    })
    assert.ok(grant > 0n)
    assert.equal(revoked, false)

    const before = await usdcOf(account)
    for (let swap = 1; swap <= 3; swap++) {
      const sent = await sendWithPermission(
        session,
        granted.permissionsContext,
        swapCalls(account, parseUnits('3', 6)),
        key.secret,
      )
      assert.equal(sent.status, 200, `swap ${swap}: ${JSON.stringify(sent.body)}`)
      assert.equal(await finalStatus(session, (sent.body as { result: { id: string } }).result.id), 200)
    }
    assert.equal(await usdcOf(account), before - parseUnits('9', 6))

    // The fourth would make 12 of the day's 10: refused by the account's policy, nothing sent.
    const fourth = await sendWithPermission(
      session,
      granted.permissionsContext,
      swapCalls(account, parseUnits('3', 6)),
      key.secret,
    )
    assert.equal(fourth.status, 403, JSON.stringify(fourth.body))
    assert.equal(refusal(fourth).rpcCode, 4100)
    assert.equal(
      refusal(fourth).message,
      "These calls would spend more than the permission's allowance for this period",
    )
    assert.equal(await usdcOf(account), before - parseUnits('9', 6), 'nothing moved')

    // The site's list, from the chain: what it used, and that it can still act (9 of 10).
    const listed = await listPermissions(session)
    assert.equal(listed.length, 1)
    assert.equal(listed[0]?.state, 'active')
    assert.equal(listed[0]?.context, granted.permissionsContext)
    assert.deepEqual(listed[0]?.used, { calls: 6, tokens: [{ address: usdc(), spent: '9000000' }] })

    // Revoked with the owner's approval: the next swap (within the allowance) fails on chain.
    const revoke = await createAndApprove(t, session, {
      chainId: EVM,
      method: 'wallet_revokePermissions',
      params: [{ permissionsContext: granted.permissionsContext }],
    })
    assert.equal(revoke.preview.permissions?.action, 'revoke')
    assert.equal(revoke.answer.status, 200, JSON.stringify(revoke.answer.body))
    const after = await sendWithPermission(
      session,
      granted.permissionsContext,
      swapCalls(account, parseUnits('1', 6)),
      key.secret,
    )
    assert.equal(after.status, 403)
    assert.equal(refusal(after).message, 'This permission was revoked')
    assert.equal(await usdcOf(account), before - parseUnits('9', 6))
    assert.equal((await listPermissions(session))[0]?.state, 'revoked')
  })

  test('behavior: a permission whose period allowance is used up says so, and when it resets', async () => {
    const { session, account } = await smartUser('used-up')
    const key = sessionKey()
    const params = grantParams(key.address)
    ;(params[0]?.permissions[0]?.data as Record<string, unknown>).periodAmount = '2000000'
    const { answer } = await createAndApprove(t, session, {
      chainId: EVM,
      method: 'wallet_grantPermissions',
      params,
    })
    const { permissionsContext } = answer.body.result as { permissionsContext: string }
    const sent = await sendWithPermission(
      session,
      permissionsContext,
      swapCalls(account, parseUnits('2', 6)),
      key.secret,
    )
    assert.equal(sent.status, 200, JSON.stringify(sent.body))
    assert.equal(await finalStatus(session, (sent.body as { result: { id: string } }).result.id), 200)
    const [stopped] = await listPermissions(session)
    assert.equal(stopped?.state, 'allowanceUsed')
    const block = await client().getBlock()
    // The next day, or the expiry when that comes first.
    const nextPeriod = (Math.floor(Number(block.timestamp) / 86_400) + 1) * 86_400
    assert.equal(stopped?.resetsAt, Math.min(nextPeriod, params[0]?.expiry ?? 0))
  })

  test('error: calls outside the permission (another token) are refused by the account, nothing moves', async () => {
    const { session, account } = await smartUser('outside')
    const key = sessionKey()
    const { answer } = await createAndApprove(t, session, {
      chainId: EVM,
      method: 'wallet_grantPermissions',
      params: grantParams(key.address),
    })
    const { permissionsContext } = answer.body.result as { permissionsContext: string }
    const dev = market.tokens.DEV.address
    const stranger = devAccount(5).address
    const transfer = {
      to: dev,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [stranger, 0n] }),
    }
    const refused = await sendWithPermission(session, permissionsContext, [transfer], key.secret)
    assert.equal(refused.status, 403, JSON.stringify(refused.body))
    assert.equal(refusal(refused).message, 'This permission does not allow one of these calls')
    // A call to the account itself (to grant itself more) never reaches the chain.
    const self = await sendWithPermission(
      session,
      permissionsContext,
      [
        {
          to: account,
          data: encodeFunctionData({
            abi: walletAccountSessionAbi,
            functionName: 'revokeSession',
            args: [key.address],
          }),
        },
      ],
      key.secret,
    )
    assert.equal(self.status, 403)
    assert.equal(refusal(self).rpcCode, 4100)
  })

  test('error: a signature by another key than the session key is refused; nothing is sent', async () => {
    const { session, account } = await smartUser('forger')
    const key = sessionKey()
    const { answer } = await createAndApprove(t, session, {
      chainId: EVM,
      method: 'wallet_grantPermissions',
      params: grantParams(key.address),
    })
    const { permissionsContext } = answer.body.result as { permissionsContext: string }
    const forged = await sendWithPermission(
      session,
      permissionsContext,
      swapCalls(account, 1n).slice(0, 1),
      generatePrivateKey(),
    )
    assert.equal(forged.status, 403, JSON.stringify(forged.body))
    assert.match(refusal(forged).message, /is not this wallet's signature/)
  })

  test('error: a context this person never granted, or a malformed one, is refused', async () => {
    const { session, account } = await smartUser('stranger')
    const unknown = await sendWithPermission(
      session,
      sessionKey().address.toLowerCase(),
      swapCalls(account, 1n),
      generatePrivateKey(),
    )
    assert.equal(unknown.status, 403)
    assert.equal(refusal(unknown).message, 'This site holds no permission of that context here')
    const malformed = await sendWithPermission(
      session,
      'not-a-context',
      swapCalls(account, 1n),
      generatePrivateKey(),
    )
    assert.equal(malformed.status, 400)
    assert.equal(refusal(malformed).rpcCode, -32602)
  })

  test('error: a grant to a key the site chose (signer type "key"), an expired one, or an unknown type is refused', async () => {
    const { session } = await smartUser('picky')
    const key = sessionKey()
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { signer: { type: 'key', data: { type: 'secp256k1', publicKey: key.address } } },
        /own session key only/,
      ],
      [{ expiry: Math.floor(clock.now / 1000) - 1 }, /expiry has passed/],
      [
        { permissions: [{ type: 'erc721-token-transfer', data: {} }] },
        /Unsupported permission type: erc721-token-transfer/,
      ],
    ]
    for (const [change, message] of cases) {
      const stored = await t.call(
        '/embedded/v1/requests',
        { chainId: EVM, method: 'wallet_grantPermissions', params: grantParams(key.address, change) },
        { token: session.token },
      )
      assert.equal(stored.status, 400, JSON.stringify(change))
      assert.equal(refusal(stored).rpcCode, -32602)
      assert.match(refusal(stored).message, message)
    }
  })

  test('default: wallet_requestExecutionPermissions answers one context per entry; capabilities announce permissions', async () => {
    const { session, account } = await smartUser('newer')
    const key = sessionKey()
    const expiry = Math.floor(Date.now() / 1000) + 600
    const entry = (permission: Record<string, unknown>) => ({
      chainId: '0x7a69',
      signer: { type: 'wallet', data: { key: key.address } },
      permission,
      rules: [{ type: 'expiry', data: { timestamp: expiry } }],
    })
    const { answer } = await createAndApprove(t, session, {
      chainId: EVM,
      method: 'wallet_requestExecutionPermissions',
      params: [
        entry({
          type: 'erc20-token-periodic',
          data: { tokenAddress: usdc(), periodAmount: '5000000', periodDuration: 3600 },
        }),
        entry({ type: 'contract-call', data: { address: market.uniswapV2.router, calls: [SWAP] } }),
      ],
    })
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const granted = answer.body.result as { context: string; from: string }[]
    assert.equal(granted.length, 2)
    for (const one of granted) {
      assert.equal(one.context, key.address.toLowerCase())
      assert.equal(one.from, account)
    }
    const capabilities = await t.call(
      '/embedded/v1/rpc',
      { chainId: EVM, method: 'wallet_getCapabilities', params: [account] },
      { token: session.token },
    )
    const onChain = (
      capabilities.body.result as Record<string, { permissions?: { permissionTypes: string[] } }>
    )['0x7a69']
    assert.deepEqual(onChain?.permissions?.permissionTypes, [
      'erc20-token-periodic',
      'erc20-token-transfer',
      'native-token-transfer',
      'contract-call',
    ])
  })
})
