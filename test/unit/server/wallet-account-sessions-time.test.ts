/**
 * Sessions on the embedded wallet's account (WalletAccount.sol), when and where a session key may act:
 * allowance periods, a period index that lies, the session's window, revocation, another account, replay
 * and another chain. Probed as the key's holder would, against the real EntryPoint v0.8 on a local chain
 * whose clock the tests move (what a session may call is in wallet-account-sessions.test.ts).
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { encodeFunctionData, parseEther, toFunctionSelector } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { devAccount } from '../../../server/dev/chain/index.ts'
import { type SessionPolicy, walletAccountSessionAbi } from '../../../server/embedded/walletAccount.ts'
import { type Bench, DAY, startBench, transfer } from './wallet-account-sessions.helpers.ts'

let bench: Bench
before(
  async () => {
    bench = await startBench()
  },
  { timeout: 120_000 },
)
after(async () => {
  await bench?.stop()
})

const bob = devAccount(5).address
const TRANSFER = toFunctionSelector('transfer(address,uint256)')

/** USDC transfers to anyone, 10 a day; the window defaults to the coming year. */
async function granted(overrides: Partial<SessionPolicy> = {}) {
  const account = await bench.newAccount()
  const key = privateKeyToAccount(generatePrivateKey())
  const now = await bench.now()
  await bench.grant(account, key.address, {
    validAfter: 0n,
    validUntil: now + 365n * DAY,
    maxGasCost: parseEther('0.01'),
    permissions: [{ target: bench.tokens.usdc, selector: TRANSFER }],
    allowances: [{ token: bench.tokens.usdc, amount: 10n, period: DAY }],
    ...overrides,
  })
  return { account, key }
}

/** Moves the clock to one hour into the next day; answers that day's period index. */
async function nextDay(): Promise<bigint> {
  const period = (await bench.now()) / DAY + 1n
  await bench.jumpTo(period * DAY + 3_600n)
  return period
}

const sendUsdc = async (
  { account, key }: Awaited<ReturnType<typeof granted>>,
  amount: bigint,
  period: bigint,
) =>
  bench.submit(
    await bench.byKey(
      key,
      await bench.userOp(account.address, [{ to: bench.tokens.usdc, data: transfer(bob, amount) }]),
      period,
    ),
  )

describe('WalletAccount sessions: when and where a session key may act', { timeout: 120_000 }, () => {
  test('an allowance drained over two periods: the same day refuses, the next day allows again', async () => {
    const session = await granted()
    const day = await nextDay()
    const before = await bench.balanceOf(bench.tokens.usdc, bob)
    assert.equal(await sendUsdc(session, 6n, day), 'ok')
    assert.equal(await sendUsdc(session, 5n, day), 'AA23 reverted: SessionAllowanceExceeded', '11 of 10')
    // Split over a batch: 2 + 3 of the 4 left, still over.
    const batch = await bench.userOp(session.account.address, [
      { to: bench.tokens.usdc, data: transfer(bob, 2n) },
      { to: bench.tokens.usdc, data: transfer(bob, 3n) },
    ])
    assert.equal(
      await bench.submit(await bench.byKey(session.key, batch, day)),
      'AA23 reverted: SessionAllowanceExceeded',
    )
    assert.equal(await sendUsdc(session, 4n, day), 'ok', 'exactly the 10')
    const spent = (period: bigint) =>
      bench.client.readContract({
        address: session.account.address,
        abi: walletAccountSessionAbi,
        functionName: 'sessionSpent',
        args: [session.key.address, bench.tokens.usdc, Number(period)],
      })
    assert.equal(await spent(day), 10n)
    const tomorrow = await nextDay()
    assert.equal(await sendUsdc(session, 6n, tomorrow), 'ok')
    assert.equal(await sendUsdc(session, 5n, tomorrow), 'AA23 reverted: SessionAllowanceExceeded')
    assert.equal(await spent(tomorrow), 6n)
    assert.equal((await bench.balanceOf(bench.tokens.usdc, bob)) - before, 16n)
  })

  test('error: a period index that lies (tomorrow’s, or yesterday’s) is refused by the EntryPoint through validationData', async () => {
    const session = await granted()
    const day = await nextDay()
    assert.equal(await sendUsdc(session, 10n, day), 'ok')
    // Today's 10 are spent: claiming tomorrow's period (or yesterday's, never used) to spend again.
    assert.equal(await sendUsdc(session, 10n, day + 1n), 'AA22 expired or not due')
    assert.equal(await sendUsdc(session, 10n, day - 1n), 'AA22 expired or not due')
    assert.equal(await sendUsdc(session, 1n, 2n ** 47n), 'AA23 reverted: SessionPeriodOutOfRange')
  })

  test('error: a key not valid yet, then valid, then expired', async () => {
    const now = await bench.now()
    const session = await granted({ validAfter: now + 2n * DAY, validUntil: now + 3n * DAY })
    const dayOf = async () => (await bench.now()) / DAY
    assert.equal(await sendUsdc(session, 1n, await dayOf()), 'AA22 expired or not due', 'not valid yet')
    await bench.jumpTo(now + 2n * DAY + 60n)
    assert.equal(await sendUsdc(session, 1n, await dayOf()), 'ok', 'in its window')
    await bench.jumpTo(now + 3n * DAY)
    assert.equal(
      await sendUsdc(session, 1n, await dayOf()),
      'AA22 expired or not due',
      'at validUntil: expired',
    )
  })

  test('error: a revoked key fails from the next block on (and the views say it is revoked)', async () => {
    const session = await granted()
    const day = (await bench.now()) / DAY
    assert.equal(await sendUsdc(session, 1n, day), 'ok')
    const revoke = encodeFunctionData({
      abi: walletAccountSessionAbi,
      functionName: 'revokeSession',
      args: [session.key.address],
    })
    // Mined in its own block; the key's next op (the next block) is refused.
    await bench.asOwner(session.account, revoke)
    assert.equal(await sendUsdc(session, 1n, day), 'AA23 reverted: SessionIsRevoked')
    assert.equal(
      await bench.client.readContract({
        address: session.account.address,
        abi: walletAccountSessionAbi,
        functionName: 'isSessionRevoked',
        args: [session.key.address],
      }),
      true,
    )
  })

  test('error: a key granted on another account is unknown here; a stranger naming the key fails the signature', async () => {
    const session = await granted()
    const other = await bench.newAccount()
    const operation = await bench.userOp(other.address, [{ to: bench.tokens.usdc, data: transfer(bob, 1n) }])
    assert.equal(
      await bench.submit(await bench.byKey(session.key, operation)),
      'AA23 reverted: SessionUnknown',
    )
    // A stranger's key naming the granted key but signing with its own: the signature fails.
    const stranger = privateKeyToAccount(generatePrivateKey())
    const forged = await bench.byKey(
      stranger,
      await bench.userOp(session.account.address, [{ to: bench.tokens.usdc, data: transfer(bob, 1n) }]),
    )
    const named = `0x01${session.key.address.slice(2)}${forged.signature.slice(44)}` as const
    assert.equal(await bench.submit({ ...forged, signature: named }), 'AA24 signature error')
  })

  test('error: a signature replayed (same nonce) and one signed for another chain', async () => {
    const session = await granted()
    const day = (await bench.now()) / DAY
    const operation = await bench.byKey(
      session.key,
      await bench.userOp(session.account.address, [{ to: bench.tokens.usdc, data: transfer(bob, 1n) }]),
      day,
    )
    assert.equal(await bench.submit(operation), 'ok')
    assert.equal(await bench.submit(operation), 'AA25 invalid account nonce')
    const otherChain = await bench.byKey(
      session.key,
      await bench.userOp(session.account.address, [{ to: bench.tokens.usdc, data: transfer(bob, 1n) }]),
      day,
      1,
    )
    assert.equal(await bench.submit(otherChain), 'AA24 signature error')
  })

  test('the owner’s plain signature keeps working, and a grant again starts the key afresh', async () => {
    const session = await granted({ callLimit: 1 })
    const day = (await bench.now()) / DAY
    assert.equal(await sendUsdc(session, 1n, day), 'ok')
    assert.equal(await sendUsdc(session, 1n, day), 'AA23 reverted: SessionCallLimitReached')
    const byOwner = await bench.byOwner(
      session.account.owner,
      await bench.userOp(session.account.address, [{ to: bob, value: parseEther('0.1') }]),
    )
    assert.equal(await bench.submit(byOwner), 'ok', 'the owner is bound by no policy')
    await bench.grant(session.account, session.key.address, {
      validAfter: 0n,
      validUntil: (await bench.now()) + DAY,
      maxGasCost: parseEther('0.01'),
      callLimit: 1,
      permissions: [{ target: bench.tokens.usdc, selector: TRANSFER }],
      allowances: [{ token: bench.tokens.usdc, amount: 10n, period: DAY }],
    })
    assert.equal(await sendUsdc(session, 1n, day), 'ok')
  })
})
