/**
 * Permissions in the embedded wallet (ERC-7715), through the service's routes as the
 * frame calls them, against a local chain, EntryPoint v0.8, the local market and the local bundler: a
 * site granted 10 USDC a day to the market's router swaps three times with the session key and no
 * approval; the fourth swap, over the day's allowance, is refused by the account's own policy with words a
 * site can show, and nothing moves; after the revocation the next swap fails on chain. Each refusal is
 * written as the attack it stops: among them, a router the person approved earlier swapping more than the
 * day's allowance away, refused at the estimate as the account measures what leaves it.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Address, encodeFunctionData, erc20Abi, maxUint256, parseAbi, parseUnits, toHex } from 'viem'
import { entryPoint08Abi, entryPoint08Address } from 'viem/account-abstraction'
import { generatePrivateKey } from 'viem/accounts'
import { devAccount } from '../../../server/dev/chain/index.ts'
import { walletAccountSessionAbi } from '../../../server/embedded/walletAccount.ts'
import { embeddedErrorBody } from '../../../src/protocol/embedded/index.ts'
import { clock } from './embedded-helpers.ts'
import { createAndApprove } from './embedded-keys-helpers.ts'
import { EVM, type PermissionsWorld, SWAP, startPermissionsWorld } from './embedded-permissions-helpers.ts'

let world: PermissionsWorld
before(
  async () => {
    world = await startPermissionsWorld('embedded_permissions', 'permissions-project')
  },
  { timeout: 120_000 },
)
after(() => world?.stop())

const routerAbi = parseAbi([`function ${SWAP}`])
const refusal = (answer: { status: number; body: unknown }) => embeddedErrorBody.parse(answer.body).error

/** The account's EntryPoint nonce: it moves with every operation sent, even one whose calls revert. */
const nonceOf = (account: Address) =>
  world.client().readContract({
    address: entryPoint08Address,
    abi: entryPoint08Abi,
    functionName: 'getNonce',
    args: [account, 0n],
  })

describe('permissions (ERC-7715)', { timeout: 180_000 }, () => {
  test('default: 10 USDC a day to the router: three swaps with no prompt, the fourth refused, then revoked', async () => {
    const { session, account } = await world.smartUser('swapper')
    const key = world.sessionKey()
    const { preview, answer } = await createAndApprove(world.t, session, {
      chainId: EVM,
      method: 'wallet_grantPermissions',
      params: world.grantParams(key.address),
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
      { address: world.market.uniswapV2.router, functions: [SWAP] },
    ])
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const granted = answer.body.result as { permissionsContext: string; address: string; expiry: number }
    assert.equal(granted.permissionsContext, key.address.toLowerCase())
    assert.equal(granted.address, account)
    // The chain holds the session: granted, not revoked.
    const [, grant, , revoked] = await world.client().readContract({
      address: account,
      abi: walletAccountSessionAbi,
      functionName: 'session',
      args: [key.address],
    })
    assert.ok(grant > 0n)
    assert.equal(revoked, false)

    const before = await world.usdcOf(account)
    for (let swap = 1; swap <= 3; swap++) {
      const sent = await world.sendWithPermission(
        session,
        granted.permissionsContext,
        world.swapCalls(account, parseUnits('3', 6)),
        key.secret,
      )
      assert.equal(sent.status, 200, `swap ${swap}: ${JSON.stringify(sent.body)}`)
      assert.equal(await world.finalStatus(session, (sent.body as { result: { id: string } }).result.id), 200)
    }
    assert.equal(await world.usdcOf(account), before - parseUnits('9', 6))

    // The fourth would make 12 of the day's 10: refused by the account's policy, nothing sent.
    const fourth = await world.sendWithPermission(
      session,
      granted.permissionsContext,
      world.swapCalls(account, parseUnits('3', 6)),
      key.secret,
    )
    assert.equal(fourth.status, 403, JSON.stringify(fourth.body))
    assert.equal(refusal(fourth).rpcCode, 4100)
    assert.equal(
      refusal(fourth).message,
      "These calls would spend more than the permission's allowance for this period",
    )
    assert.equal(await world.usdcOf(account), before - parseUnits('9', 6), 'nothing moved')

    // The site's list, from the chain: what it used, and that it can still act (9 of 10).
    const listed = await world.listPermissions(session)
    assert.equal(listed.length, 1)
    assert.equal(listed[0]?.state, 'active')
    assert.equal(listed[0]?.context, granted.permissionsContext)
    assert.deepEqual(listed[0]?.used, { calls: 6, tokens: [{ address: world.usdc(), spent: '9000000' }] })

    // Revoked with the owner's approval: the next swap (within the allowance) fails on chain.
    const revoke = await createAndApprove(world.t, session, {
      chainId: EVM,
      method: 'wallet_revokePermissions',
      params: [{ permissionsContext: granted.permissionsContext }],
    })
    assert.equal(revoke.preview.permissions?.action, 'revoke')
    assert.equal(revoke.answer.status, 200, JSON.stringify(revoke.answer.body))
    const after = await world.sendWithPermission(
      session,
      granted.permissionsContext,
      world.swapCalls(account, parseUnits('1', 6)),
      key.secret,
    )
    assert.equal(after.status, 403)
    assert.equal(refusal(after).message, 'This permission was revoked')
    assert.equal(await world.usdcOf(account), before - parseUnits('9', 6))
    assert.equal((await world.listPermissions(session))[0]?.state, 'revoked')
  })

  test('behavior: a permission whose period allowance is used up says so, and when it resets', async () => {
    const { session, account } = await world.smartUser('used-up')
    const key = world.sessionKey()
    const params = world.grantParams(key.address)
    ;(params[0]?.permissions[0]?.data as Record<string, unknown>).periodAmount = '2000000'
    const { answer } = await createAndApprove(world.t, session, {
      chainId: EVM,
      method: 'wallet_grantPermissions',
      params,
    })
    const { permissionsContext } = answer.body.result as { permissionsContext: string }
    const sent = await world.sendWithPermission(
      session,
      permissionsContext,
      world.swapCalls(account, parseUnits('2', 6)),
      key.secret,
    )
    assert.equal(sent.status, 200, JSON.stringify(sent.body))
    assert.equal(await world.finalStatus(session, (sent.body as { result: { id: string } }).result.id), 200)
    const [stopped] = await world.listPermissions(session)
    assert.equal(stopped?.state, 'allowanceUsed')
    const block = await world.client().getBlock()
    // The next day, or the expiry when that comes first.
    const nextPeriod = (Math.floor(Number(block.timestamp) / 86_400) + 1) * 86_400
    assert.equal(stopped?.resetsAt, Math.min(nextPeriod, params[0]?.expiry ?? 0))
  })

  test('attack: a router approved earlier swaps 50 USDC to a stranger where 1 USDC a day is allowed: refused at the estimate, nothing sent', async () => {
    const { session, account } = await world.smartUser('approved-router')
    const router = world.market.uniswapV2.router
    // Earlier, the person approved the router for their USDC, as any swap does (their own approval).
    const earlier = await createAndApprove(world.t, session, {
      chainId: EVM,
      method: 'wallet_sendCalls',
      params: [
        {
          version: '2.0.0',
          chainId: '0x7a69',
          calls: [
            {
              to: world.usdc(),
              data: encodeFunctionData({
                abi: erc20Abi,
                functionName: 'approve',
                args: [router, maxUint256],
              }),
            },
          ],
        },
      ],
    })
    assert.equal(earlier.answer.status, 200, JSON.stringify(earlier.answer.body))
    const earlierId = (earlier.answer.body.result as { id: string }).id
    assert.equal(await world.finalStatus(session, earlierId), 200)
    // "Spend 1 USDC a day" and "Call router: swapExactTokensForTokens".
    const key = world.sessionKey()
    const params = world.grantParams(key.address)
    ;(params[0]?.permissions[0]?.data as Record<string, unknown>).periodAmount = toHex(parseUnits('1', 6))
    const { answer } = await createAndApprove(world.t, session, {
      chainId: EVM,
      method: 'wallet_grantPermissions',
      params,
    })
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const { permissionsContext } = answer.body.result as { permissionsContext: string }
    const stranger = devAccount(6).address
    /** The router's swap of `amount` USDC for WETH, paid to the stranger, under the earlier approval. */
    const swapTo = (amount: bigint) => ({
      to: router,
      data: encodeFunctionData({
        abi: routerAbi,
        functionName: 'swapExactTokensForTokens',
        args: [
          amount,
          0n,
          [world.usdc(), world.market.tokens.WETH.address],
          stranger,
          BigInt(Math.floor(Date.now() / 1000) + 600),
        ],
      }),
    })
    const before = { usdc: await world.usdcOf(account), nonce: await nonceOf(account) }
    const drained = await world.sendWithPermission(
      session,
      permissionsContext,
      [swapTo(parseUnits('50', 6))],
      key.secret,
    )
    assert.equal(drained.status, 403, JSON.stringify(drained.body))
    assert.equal(refusal(drained).rpcCode, 4100)
    assert.equal(
      refusal(drained).message,
      "These calls would spend more than the permission's allowance for this period",
    )
    assert.equal(await world.usdcOf(account), before.usdc, 'nothing moved')
    assert.equal(await nonceOf(account), before.nonce, 'nothing was sent to the bundler')
    // Within the day's 1 USDC, the same router call goes through, and is what the permission used.
    const within = await world.sendWithPermission(
      session,
      permissionsContext,
      [swapTo(parseUnits('1', 6))],
      key.secret,
    )
    assert.equal(within.status, 200, JSON.stringify(within.body))
    assert.equal(await world.finalStatus(session, (within.body as { result: { id: string } }).result.id), 200)
    assert.equal(before.usdc - (await world.usdcOf(account)), parseUnits('1', 6))
    const [listed] = await world.listPermissions(session)
    assert.deepEqual(listed?.used.tokens, [{ address: world.usdc(), spent: '1000000' }])
  })

  test('attack: ether moved into another contract (two WETH deposits) beyond the per-action cap: refused at the estimate, nothing sent', async () => {
    const weth = world.market.tokens.WETH.address
    const deposit = parseAbi(['function deposit() payable'])
    const { session, account, key, context } = await world.grantedUser('native', (params) => {
      ;(params[0]?.permissions as unknown[] | undefined)?.push(
        { type: 'native-token-transfer', data: { allowance: '0x3e8' } },
        { type: 'contract-call', data: { address: weth, calls: ['deposit()'] } },
      )
    })
    const call = {
      to: weth,
      value: '0x3e8',
      data: encodeFunctionData({ abi: deposit, functionName: 'deposit' }),
    }
    const nonce = await nonceOf(account)
    // Each call within the 1,000 wei per action, two in one action: 2,000 wei would leave.
    const twice = await world.sendWithPermission(session, context, [call, call], key.secret)
    assert.equal(twice.status, 403, JSON.stringify(twice.body))
    assert.equal(refusal(twice).message, 'These calls would send more than the permission allows per action')
    assert.equal(await nonceOf(account), nonce, 'nothing was sent to the bundler')
    const once = await world.sendWithPermission(session, context, [call], key.secret)
    assert.equal(once.status, 200, JSON.stringify(once.body))
  })

  test('error: calls outside the permission (another token) are refused by the account, nothing moves', async () => {
    const { session, account, key, context: permissionsContext } = await world.grantedUser('outside')
    const dev = world.market.tokens.DEV.address
    const stranger = devAccount(5).address
    const transfer = {
      to: dev,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [stranger, 0n] }),
    }
    const refused = await world.sendWithPermission(session, permissionsContext, [transfer], key.secret)
    assert.equal(refused.status, 403, JSON.stringify(refused.body))
    assert.equal(refusal(refused).message, 'This permission does not allow one of these calls')
    // A call to the account itself (to grant itself more) never reaches the chain.
    const self = await world.sendWithPermission(
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
    const { session, account, context: permissionsContext } = await world.grantedUser('forger')
    const forged = await world.sendWithPermission(
      session,
      permissionsContext,
      world.swapCalls(account, 1n).slice(0, 1),
      generatePrivateKey(),
    )
    assert.equal(forged.status, 403, JSON.stringify(forged.body))
    assert.match(refusal(forged).message, /is not this wallet's signature/)
  })

  test('error: a context this person never granted, or a malformed one, is refused', async () => {
    const { session, account } = await world.smartUser('stranger')
    const unknown = await world.sendWithPermission(
      session,
      world.sessionKey().address.toLowerCase(),
      world.swapCalls(account, 1n),
      generatePrivateKey(),
    )
    assert.equal(unknown.status, 403)
    assert.equal(refusal(unknown).message, 'This site holds no permission of that context here')
    const malformed = await world.sendWithPermission(
      session,
      'not-a-context',
      world.swapCalls(account, 1n),
      generatePrivateKey(),
    )
    assert.equal(malformed.status, 400)
    assert.equal(refusal(malformed).rpcCode, -32602)
  })

  test('error: a grant to a key the site chose (signer type "key"), an expired one, or an unknown type is refused', async () => {
    const { session } = await world.smartUser('picky')
    const key = world.sessionKey()
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
      const stored = await world.t.call(
        '/embedded/v1/requests',
        { chainId: EVM, method: 'wallet_grantPermissions', params: world.grantParams(key.address, change) },
        { token: session.token },
      )
      assert.equal(stored.status, 400, JSON.stringify(change))
      assert.equal(refusal(stored).rpcCode, -32602)
      assert.match(refusal(stored).message, message)
    }
  })

  test('default: wallet_requestExecutionPermissions answers one context per entry; capabilities announce permissions', async () => {
    const { session, account } = await world.smartUser('newer')
    const key = world.sessionKey()
    const expiry = Math.floor(Date.now() / 1000) + 600
    const entry = (permission: Record<string, unknown>) => ({
      chainId: '0x7a69',
      signer: { type: 'wallet', data: { key: key.address } },
      permission,
      rules: [{ type: 'expiry', data: { timestamp: expiry } }],
    })
    const { answer } = await createAndApprove(world.t, session, {
      chainId: EVM,
      method: 'wallet_requestExecutionPermissions',
      params: [
        entry({
          type: 'erc20-token-periodic',
          data: { tokenAddress: world.usdc(), periodAmount: '5000000', periodDuration: 3600 },
        }),
        entry({ type: 'contract-call', data: { address: world.market.uniswapV2.router, calls: [SWAP] } }),
      ],
    })
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const granted = answer.body.result as { context: string; from: string }[]
    assert.equal(granted.length, 2)
    for (const one of granted) {
      assert.equal(one.context, key.address.toLowerCase())
      assert.equal(one.from, account)
    }
    const capabilities = await world.t.call(
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
