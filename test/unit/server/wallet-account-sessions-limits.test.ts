/**
 * Sessions on the embedded wallet's account (WalletAccount.sol): a permission's limit is what leaves the
 * account, whichever contract the session calls. Written as the attacks of a site holding "10 USDC a day"
 * and a router's swap, against the real EntryPoint v0.8 on a local chain: a router holding an earlier
 * approval pulls more than the day's allowance; a third contract's `transferFrom` within the same op; ether
 * sent on through another contract beyond the native cap. The router is server/dev/chain/contracts/
 * DevRouter.sol, deployed here. What a session may call is in wallet-account-sessions.test.ts, periods and
 * revocation in wallet-account-sessions-time.test.ts.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  type Address,
  encodeFunctionData,
  type Hex,
  maxUint256,
  parseAbi,
  parseEther,
  toFunctionSelector,
} from 'viem'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { devAccount } from '../../../server/dev/chain/index.ts'
import {
  EXECUTE_USER_OP_SELECTOR,
  type SessionPolicy,
  walletAccountSessionAbi,
} from '../../../server/embedded/walletAccount.ts'
import { approve, type Bench, DAY, startBench, transfer } from './wallet-account-sessions.helpers.ts'

let bench: Bench
let router: Address
/** A second DevRouter: the third contract the person once approved, which anyone can make pull. */
let spender: Address
before(
  async () => {
    bench = await startBench()
    router = await bench.deploy('DevRouter')
    spender = await bench.deploy('DevRouter')
  },
  { timeout: 120_000 },
)
after(async () => {
  await bench?.stop()
})

const stranger = devAccount(6).address
const SWAP = 'swapExactTokensForTokens(uint256,uint256,address[],address,uint256)'
const routerAbi = parseAbi([
  `function ${SWAP}`,
  'function pull(address token, address from, address to, uint256 amount)',
  'function relay(address target, bytes data) payable',
  'function forward(address to) payable',
])
const selector = (name: string) => toFunctionSelector(routerAbi.find((item) => item.name === name) as never)

/** The router's swap of `amount` USDC, paid to `to`: under an earlier approval, nothing is approved here. */
const swap = (amount: bigint, to: Address): Hex =>
  encodeFunctionData({
    abi: routerAbi,
    functionName: 'swapExactTokensForTokens',
    args: [amount, 0n, [bench.tokens.usdc, bench.tokens.other], to, 2n ** 40n],
  })

/**
 * "10 USDC a day" and the router's swap, as a site asks for a swap permission (plus the router's other
 * functions, and at most 1,000 wei a call), for a year.
 */
const policy = (overrides: Partial<SessionPolicy> = {}): SessionPolicy => ({
  validAfter: 0n,
  validUntil: 2n ** 40n,
  valueCap: 1_000n,
  maxGasCost: parseEther('0.01'),
  permissions: [
    { target: bench.tokens.usdc, selector: toFunctionSelector('transfer(address,uint256)') },
    { target: bench.tokens.usdc, selector: toFunctionSelector('approve(address,uint256)') },
    { target: router, selector: selector('swapExactTokensForTokens') },
    { target: router, selector: selector('relay') },
    { target: router, selector: selector('forward') },
  ],
  allowances: [{ token: bench.tokens.usdc, amount: 10n, period: DAY }],
  ...overrides,
})

type Granted = {
  account: { owner: PrivateKeyAccount; address: Address }
  key: PrivateKeyAccount
}

/**
 * A fresh account (1 ETH, 1,000 USDC) whose owner once approved `approved` for all its USDC, as any swap
 * does, and a session key granted {@link policy}.
 */
async function granted(approved: Address = router): Promise<Granted> {
  const account = await bench.newAccount()
  const approval = await bench.userOp(account.address, [
    { to: bench.tokens.usdc, data: approve(approved, maxUint256) },
  ])
  assert.equal(await bench.submit(await bench.byOwner(account.owner, approval)), 'ok')
  const key = privateKeyToAccount(generatePrivateKey())
  await bench.grant(account, key.address, policy())
  return { account, key }
}

/** The session key's op of `calls` (its period: today's). */
const bySession = async ({ account, key }: Granted, calls: { to: Address; value?: bigint; data?: Hex }[]) =>
  bench.submit(await bench.byKey(key, await bench.userOp(account.address, calls), (await bench.now()) / DAY))

const spentToday = async ({ account, key }: Granted) =>
  bench.client.readContract({
    address: account.address,
    abi: walletAccountSessionAbi,
    functionName: 'sessionSpent',
    args: [key.address, bench.tokens.usdc, Number((await bench.now()) / DAY)],
  })

const usdcOf = (holder: Address) => bench.balanceOf(bench.tokens.usdc, holder)

describe('WalletAccount sessions: a limit is what leaves the account', { timeout: 120_000 }, () => {
  test('attack: a router with an earlier approval pulls 500 USDC through a swap where 10 a day are allowed', async () => {
    const session = await granted()
    const before = await usdcOf(session.account.address)
    assert.equal(
      await bySession(session, [{ to: router, data: swap(500n, stranger) }]),
      'included, but its calls reverted: SessionAllowanceExceeded',
    )
    assert.equal(await usdcOf(session.account.address), before, 'nothing left the account')
    assert.equal(await usdcOf(stranger), 0n)
    assert.equal(await spentToday(session), 0n)
    // Mixed into a batch behind a transfer within the limit: still over, still nothing moves.
    assert.equal(
      await bySession(session, [
        { to: bench.tokens.usdc, data: transfer(stranger, 5n) },
        { to: router, data: swap(6n, stranger) },
      ]),
      'included, but its calls reverted: SessionAllowanceExceeded',
    )
    assert.equal(await usdcOf(session.account.address), before)
  })

  test('attack: a third contract’s transferFrom within the same op (the router’s hook makes the approved spender pull)', async () => {
    const session = await granted(spender)
    const before = await usdcOf(session.account.address)
    const pull = encodeFunctionData({
      abi: routerAbi,
      functionName: 'pull',
      args: [bench.tokens.usdc, session.account.address, stranger, 500n],
    })
    const relay = encodeFunctionData({ abi: routerAbi, functionName: 'relay', args: [spender, pull] })
    assert.equal(
      await bySession(session, [{ to: router, data: relay }]),
      'included, but its calls reverted: SessionAllowanceExceeded',
    )
    assert.equal(await usdcOf(session.account.address), before, 'nothing left the account')
    assert.equal(await spentToday(session), 0n)
  })

  test('attack: ether sent on through another contract beyond the native cap (two forwards of 1,000 wei in one op)', async () => {
    const session = await granted()
    const before = await bench.client.getBalance({ address: stranger })
    const forward = encodeFunctionData({ abi: routerAbi, functionName: 'forward', args: [stranger] })
    assert.equal(
      await bySession(session, [
        { to: router, value: 1_000n, data: forward },
        { to: router, value: 1_000n, data: forward },
      ]),
      'included, but its calls reverted: SessionNativeOverCap',
    )
    // Through the router's hook: the second forward hides inside a relay, the same.
    const hidden = encodeFunctionData({ abi: routerAbi, functionName: 'relay', args: [router, forward] })
    assert.equal(
      await bySession(session, [
        { to: router, value: 1_000n, data: forward },
        { to: router, value: 1_000n, data: hidden },
      ]),
      'included, but its calls reverted: SessionNativeOverCap',
    )
    assert.equal(await bench.client.getBalance({ address: stranger }), before)
    // One forward of the cap goes through.
    assert.equal(await bySession(session, [{ to: router, value: 1_000n, data: forward }]), 'ok')
    assert.equal((await bench.client.getBalance({ address: stranger })) - before, 1_000n)
  })

  test('within the limit: swaps under the earlier approval are charged as they leave, the 11th unit refused', async () => {
    const session = await granted()
    const before = await usdcOf(session.account.address)
    assert.equal(await bySession(session, [{ to: router, data: swap(6n, stranger) }]), 'ok')
    assert.equal(await spentToday(session), 6n)
    // Approve and swap in one op: the approval spent within the op is charged once.
    assert.equal(
      await bySession(session, [
        { to: bench.tokens.usdc, data: approve(router, 4n) },
        { to: router, data: swap(4n, stranger) },
      ]),
      'ok',
    )
    assert.equal(await spentToday(session), 10n)
    assert.equal(before - (await usdcOf(session.account.address)), 10n)
    // The day's 10 are gone: one more unit is refused before anything runs.
    assert.equal(
      await bySession(session, [{ to: bench.tokens.usdc, data: transfer(stranger, 1n) }]),
      'AA23 reverted: SessionAllowanceExceeded',
    )
    assert.equal(before - (await usdcOf(session.account.address)), 10n)
  })

  test('behavior: an approval to a third party is charged, though nothing left yet', async () => {
    const session = await granted()
    assert.equal(await bySession(session, [{ to: bench.tokens.usdc, data: approve(stranger, 7n) }]), 'ok')
    assert.equal(await spentToday(session), 7n)
    // 7 of 10 promised to the stranger: a swap of 4 is over, refused as the swap runs.
    assert.equal(
      await bySession(session, [{ to: router, data: swap(4n, stranger) }]),
      'included, but its calls reverted: SessionAllowanceExceeded',
    )
    // Approving more than the allowance is refused before anything runs.
    assert.equal(
      await bySession(session, [{ to: bench.tokens.usdc, data: approve(stranger, maxUint256) }]),
      'AA23 reverted: SessionAllowanceExceeded',
    )
  })

  test('behavior: the period rolls over: the next day, the router may take another 10', async () => {
    const session = await granted()
    assert.equal(await bySession(session, [{ to: router, data: swap(10n, stranger) }]), 'ok')
    assert.equal(
      await bySession(session, [{ to: router, data: swap(1n, stranger) }]),
      'included, but its calls reverted: SessionAllowanceExceeded',
    )
    const tomorrow = (await bench.now()) / DAY + 1n
    await bench.jumpTo(tomorrow * DAY + 60n)
    assert.equal(await bySession(session, [{ to: router, data: swap(10n, stranger) }]), 'ok')
    assert.equal(await spentToday(session), 10n)
    assert.equal(
      await bySession(session, [{ to: router, data: swap(1n, stranger) }]),
      'included, but its calls reverted: SessionAllowanceExceeded',
    )
  })

  test('error: a session op in the owner’s form (plain execute, which would run unmeasured) is refused', async () => {
    const session = await granted()
    const operation = await bench.userOp(session.account.address, [
      { to: router, data: swap(500n, stranger) },
    ])
    assert.equal(
      await bench.submit(await bench.byKey(session.key, operation, 0n, undefined, { plain: true })),
      'AA23 reverted: SessionNotACall',
    )
    // Nor does the owner's signature run through the session's entry (it is the session's alone).
    const byOwner = await bench.byOwner(session.account.owner, {
      ...operation,
      callData: `${EXECUTE_USER_OP_SELECTOR}${operation.callData.slice(2)}`,
    })
    assert.equal(await bench.submit(byOwner), 'included, but its calls reverted: NotASessionOp')
  })
})
