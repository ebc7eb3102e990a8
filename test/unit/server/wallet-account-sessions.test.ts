/**
 * Sessions on the embedded wallet's account (WalletAccount.sol), what a session may call: probed as
 * someone holding a session key would, against the real EntryPoint v0.8 on a local chain. Time, periods,
 * revocation and replay are in wallet-account-sessions-time.test.ts.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Address, erc20Abi, parseEther, toFunctionSelector, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { devAccount } from '../../../server/dev/chain/index.ts'
import {
  grantSessionData,
  type SessionPolicy,
  sessionPolicy,
  walletAccountSessionAbi,
} from '../../../server/embedded/walletAccount.ts'
import { approve, type Bench, startBench, transfer } from './wallet-account-sessions.helpers.ts'

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
const NO_DATA = '0x00000000'

/** USDC transfers (100 per day) and plain ETH to bob (at most 1,000 wei a call), for a year. */
const policy = (overrides: Partial<SessionPolicy> = {}): SessionPolicy => ({
  validAfter: 0n,
  validUntil: 2n ** 40n,
  valueCap: 1_000n,
  maxGasCost: parseEther('0.01'),
  permissions: [
    { target: bench.tokens.usdc, selector: TRANSFER },
    { target: bob, selector: NO_DATA },
  ],
  allowances: [{ token: bench.tokens.usdc, amount: 100n, period: 86_400n }],
  ...overrides,
})

/** A fresh account and a session key granted `policy` on it. */
async function granted(overrides: Partial<SessionPolicy> = {}) {
  const account = await bench.newAccount()
  const key = privateKeyToAccount(generatePrivateKey())
  await bench.grant(account, key.address, policy(overrides))
  return { account, key }
}

const read = (address: Address, key: Address) =>
  bench.client.readContract({ address, abi: walletAccountSessionAbi, functionName: 'session', args: [key] })

describe('WalletAccount sessions: what a session key may call', { timeout: 120_000 }, () => {
  test('within the policy: a batch of two calls (USDC and ETH) goes through, counted and spent', async () => {
    const { account, key } = await granted()
    const [usdcBefore, ethBefore] = [
      await bench.balanceOf(bench.tokens.usdc, bob),
      await bench.client.getBalance({ address: bob }),
    ]
    const operation = await bench.userOp(account.address, [
      { to: bench.tokens.usdc, data: transfer(bob, 30n) },
      { to: bob, value: 1_000n },
    ])
    const period = (await bench.now()) / 86_400n
    assert.equal(await bench.submit(await bench.byKey(key, operation, period)), 'ok')
    assert.equal((await bench.balanceOf(bench.tokens.usdc, bob)) - usdcBefore, 30n)
    assert.equal((await bench.client.getBalance({ address: bob })) - ethBefore, 1_000n)
    const [stored, grant, callsMade, revoked] = await read(account.address, key.address)
    assert.equal(grant, 1n)
    assert.equal(callsMade, 2)
    assert.equal(revoked, false)
    assert.equal(stored.permissions.length, 2)
    assert.equal(stored.allowances[0]?.amount, 100n)
    const [, periods, spent] = await bench.client.readContract({
      address: account.address,
      abi: walletAccountSessionAbi,
      functionName: 'sessionUse',
      args: [key.address],
    })
    assert.deepEqual([periods, spent], [[Number(period)], [30n]])
    // A second op within the policy goes through as well.
    const again = await bench.userOp(account.address, [{ to: bench.tokens.usdc, data: transfer(bob, 70n) }])
    assert.equal(await bench.submit(await bench.byKey(key, again, period)), 'ok')
  })

  test('error: another selector on an allowed target (approve where only transfer was granted)', async () => {
    const { account, key } = await granted()
    const operation = await bench.userOp(account.address, [{ to: bench.tokens.usdc, data: approve(bob, 1n) }])
    assert.equal(
      await bench.submit(await bench.byKey(key, operation)),
      'AA23 reverted: SessionCallNotAllowed',
    )
    const allowance = await bench.client.readContract({
      address: bench.tokens.usdc,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [account.address, bob],
    })
    assert.equal(allowance, 0n)
  })

  test('error: an allowed selector on another target (transfer on another token)', async () => {
    const { account, key } = await granted()
    const before = await bench.balanceOf(bench.tokens.other, bob)
    const operation = await bench.userOp(account.address, [
      { to: bench.tokens.other, data: transfer(bob, 1n) },
    ])
    assert.equal(
      await bench.submit(await bench.byKey(key, operation)),
      'AA23 reverted: SessionCallNotAllowed',
    )
    // Hidden in a batch behind an allowed call: still refused, nothing moves.
    const batch = await bench.userOp(account.address, [
      { to: bob, value: 1n },
      { to: bench.tokens.other, data: transfer(bob, 1n) },
    ])
    assert.equal(await bench.submit(await bench.byKey(key, batch)), 'AA23 reverted: SessionCallNotAllowed')
    assert.equal(await bench.balanceOf(bench.tokens.other, bob), before)
  })

  test('error: the account itself as target, even where the owner listed it: a session never grants itself more', async () => {
    const account = await bench.newAccount()
    const key = privateKeyToAccount(generatePrivateKey())
    const grantSelector = toFunctionSelector(
      'grantSession(address,(uint48,uint48,uint32,uint256,uint256,(address,bytes4)[],(address,uint256,uint48)[]))',
    )
    await bench.grant(
      account,
      key.address,
      policy({ permissions: [{ target: account.address, selector: grantSelector }] }),
    )
    const wider = grantSessionData({
      key: key.address,
      policy: policy({ valueCap: parseEther('1'), allowances: [], callLimit: 0 }),
    })
    const operation = await bench.userOp(account.address, [{ to: account.address, data: wider }])
    assert.equal(await bench.submit(await bench.byKey(key, operation)), 'AA23 reverted: SessionSelfCall')
    const [stored] = await read(account.address, key.address)
    assert.equal(stored.valueCap, 1_000n, 'the policy is unchanged')
  })

  test('error: native value over the cap per call (1,001 wei where 1,000 is the cap)', async () => {
    const { account, key } = await granted()
    const before = await bench.client.getBalance({ address: bob })
    const operation = await bench.userOp(account.address, [{ to: bob, value: 1_001n }])
    assert.equal(await bench.submit(await bench.byKey(key, operation)), 'AA23 reverted: SessionValueOverCap')
    assert.equal(await bench.client.getBalance({ address: bob }), before)
  })

  test('error: the call limit (3 calls: a batch of 2, then a batch of 2 is refused, then 1 more goes)', async () => {
    const { account, key } = await granted({ callLimit: 3 })
    const two = async () =>
      bench.userOp(account.address, [
        { to: bob, value: 1n },
        { to: bob, value: 1n },
      ])
    assert.equal(await bench.submit(await bench.byKey(key, await two())), 'ok')
    assert.equal(
      await bench.submit(await bench.byKey(key, await two())),
      'AA23 reverted: SessionCallLimitReached',
    )
    const one = await bench.userOp(account.address, [{ to: bob, value: 1n }])
    assert.equal(await bench.submit(await bench.byKey(key, one)), 'ok')
    const last = await bench.userOp(account.address, [{ to: bob, value: 1n }])
    assert.equal(await bench.submit(await bench.byKey(key, last)), 'AA23 reverted: SessionCallLimitReached')
  })

  test('error: gas the account would pay over maxGasCost (a session key cannot drain ETH through fees)', async () => {
    const { account, key } = await granted({ maxGasCost: parseEther('0.002') })
    const before = await bench.client.getBalance({ address: account.address })
    // 1.26M gas × 3 gwei = 0.00378 ETH > 0.002 ETH.
    const operation = await bench.userOp(account.address, [{ to: bob, value: 1n }])
    assert.equal(
      await bench.submit(await bench.byKey(key, operation)),
      'AA23 reverted: SessionGasCostOverCap',
    )
    // A fee of 1,000 gwei per gas on the same limits: 1.26 ETH, refused too.
    const greedy = await bench.userOp(account.address, [{ to: bob, value: 1n }], { maxFeePerGas: 10n ** 12n })
    assert.equal(await bench.submit(await bench.byKey(key, greedy)), 'AA23 reverted: SessionGasCostOverCap')
    // Nor ops with no call at all (an empty batch), which would pay fees outside the call count.
    const empty = await bench.userOp(account.address, [], {
      maxFeePerGas: 1_000_000_000n,
      maxPriorityFeePerGas: 1_000_000n,
    })
    assert.equal(await bench.submit(await bench.byKey(key, empty)), 'AA23 reverted: SessionNotACall')
    assert.equal(await bench.client.getBalance({ address: account.address }), before)
    // Within the cap (limits × 1 gwei = 0.00126 ETH) it goes through.
    const modest = await bench.userOp(account.address, [{ to: bob, value: 1n }], {
      maxFeePerGas: 1_000_000_000n,
      maxPriorityFeePerGas: 1_000_000n,
    })
    assert.equal(await bench.submit(await bench.byKey(key, modest)), 'ok')
  })

  test('error: grant and revoke from the session key itself (a direct transaction) are refused', async () => {
    const { account, key } = await granted()
    await bench.client.request({
      method: 'hardhat_setBalance',
      params: [key.address, toHex(parseEther('1'))],
    } as never)
    const wider = sessionPolicy(policy({ valueCap: parseEther('1') }))
    await assert.rejects(
      bench.client.simulateContract({
        account: key,
        address: account.address,
        abi: walletAccountSessionAbi,
        functionName: 'grantSession',
        args: [key.address, wider],
      }),
      /NotAllowed/,
    )
    await assert.rejects(
      bench.client.simulateContract({
        account: key,
        address: account.address,
        abi: walletAccountSessionAbi,
        functionName: 'revokeSession',
        args: [key.address],
      }),
      /NotAllowed/,
    )
    // Nor can anyone else, nor the owner's key directly: only the account, through an op the owner signed.
    await assert.rejects(
      bench.client.simulateContract({
        account: account.owner,
        address: account.address,
        abi: walletAccountSessionAbi,
        functionName: 'revokeSession',
        args: [key.address],
      }),
      /NotAllowed/,
    )
    assert.equal(
      await bench.client.readContract({
        address: account.address,
        abi: walletAccountSessionAbi,
        functionName: 'isSessionRevoked',
        args: [key.address],
      }),
      false,
    )
  })
})
