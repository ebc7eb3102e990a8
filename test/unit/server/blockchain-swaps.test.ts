// Swap quotes and calls on the local pools, checked against what the chain does.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { type Address, parseEther, parseUnits } from 'viem'
import { DEFAULT_SWAP_GAS } from '../../../server/blockchain/uniswapV2.ts'
import { devAccount } from '../../../server/dev/chain/index.ts'
import {
  allowanceResponse,
  buildApproveResponse,
  buildSwapResponse,
} from '../../../src/protocol/api/index.ts'
import {
  errorOf,
  get,
  ghost,
  local,
  market,
  noMarket,
  publicClient,
  quote,
  routerAbi,
  sendAsTrader,
  solana,
  startDataService,
  trader,
  usdcBalance,
} from './blockchain-helpers.ts'

startDataService()

describe('swaps on the local pools', { timeout: 90_000 }, () => {
  test('default: the quote of 0.1 ETH to USDC equals what the swap receives', async () => {
    const amount = parseEther('0.1').toString()
    const found = await quote({
      from: 'native',
      to: market.tokens.USDC.address,
      amount,
      userAddress: trader.address,
    })
    assert.deepEqual(found.path, [market.tokens.WETH.address, market.tokens.USDC.address])
    // About 300 USDC at 3,000 a coin, less the 0.3 % fee and a little price impact.
    assert.ok(
      BigInt(found.amountOut) > parseUnits('298', 6) && BigInt(found.amountOut) < parseUnits('299.1', 6),
    )
    assert.equal(BigInt(found.minimumReceived), (BigInt(found.amountOut) * 99n) / 100n)
    assert.equal(found.slippagePercent, 1)
    assert.ok(
      found.priceImpactPercent > 0.09 && found.priceImpactPercent < 0.11,
      String(found.priceImpactPercent),
    )
    assert.ok(found.expiresAt > Date.now() + 25_000)

    const built = await get('swap/build-transaction', {
      chainId: local,
      from: 'native',
      to: market.tokens.USDC.address,
      amount,
      userAddress: trader.address,
      minimumReceived: found.minimumReceived,
    })
    assert.equal(built.statusCode, 200, built.body)
    const { transaction, quote: fresh } = buildSwapResponse.parse(built.json())
    assert.equal(fresh.amountOut, found.amountOut)
    assert.equal(transaction.to, market.uniswapV2.router)
    assert.equal(transaction.value, amount)

    const before = await usdcBalance(trader.address)
    const { gasUsed } = await sendAsTrader(transaction)
    assert.equal((await usdcBalance(trader.address)) - before, BigInt(found.amountOut))
    // The quote's gas was estimated for this account: enough, and not far over (refunds aside).
    assert.ok(
      gasUsed <= BigInt(found.gas) && gasUsed * 10n > BigInt(found.gas) * 7n,
      `${gasUsed} ${found.gas}`,
    )
  })

  test('default: 10 USDC back to ETH needs an approval first; then the quote equals what arrives', async () => {
    const amount = parseUnits('10', 6).toString()
    const usdc = market.tokens.USDC.address
    const allowance = allowanceResponse.parse(
      (await get('swap/allowance', { chainId: local, token: usdc, owner: trader.address })).json(),
    )
    assert.deepEqual(allowance, { allowance: '0', spender: market.uniswapV2.router })

    const unapproved = await quote({ from: usdc, to: 'native', amount, userAddress: trader.address })
    // Without the approval the gas cannot be estimated for the account: the route's default.
    assert.equal(BigInt(unapproved.gas), DEFAULT_SWAP_GAS.onePool)
    const refused = await get('swap/build-transaction', {
      chainId: local,
      from: usdc,
      to: 'native',
      amount,
      userAddress: trader.address,
      minimumReceived: unapproved.minimumReceived,
    })
    assert.equal(refused.statusCode, 409)
    assert.deepEqual(errorOf(refused.body), {
      code: 'SWAP_ALLOWANCE_TOO_LOW',
      message: 'Approve the token first',
    })

    const approve = buildApproveResponse.parse(
      (await get('swap/build-approve', { chainId: local, token: usdc, amount })).json(),
    )
    assert.equal(approve.transaction.to, usdc)
    assert.equal(approve.transaction.value, '0')
    await sendAsTrader(approve.transaction)
    const approved = allowanceResponse.parse(
      (await get('swap/allowance', { chainId: local, token: usdc, owner: trader.address })).json(),
    )
    assert.equal(approved.allowance, amount)

    const found = await quote({ from: usdc, to: 'native', amount, userAddress: trader.address })
    const built = buildSwapResponse.parse(
      (
        await get('swap/build-transaction', {
          chainId: local,
          from: usdc,
          to: 'native',
          amount,
          userAddress: trader.address,
          minimumReceived: found.minimumReceived,
        })
      ).json(),
    )
    const before = await publicClient().getBalance({ address: trader.address })
    const { cost, gasUsed } = await sendAsTrader(built.transaction)
    const after = await publicClient().getBalance({ address: trader.address })
    assert.equal(after - before + cost, BigInt(found.amountOut))
    assert.ok(
      gasUsed <= BigInt(found.gas) && gasUsed * 10n > BigInt(found.gas) * 7n,
      `${gasUsed} ${found.gas}`,
    )
    // Spent exactly: the approval is used up.
    const left = allowanceResponse.parse(
      (await get('swap/allowance', { chainId: local, token: usdc, owner: trader.address })).json(),
    )
    assert.equal(left.allowance, '0')
  })

  test('behavior: the best of the direct pool and one hop, as the router computes them', async () => {
    const { DEV, USDC, WETH } = market.tokens
    const amount = parseUnits('1000', 18)
    const out = async (path: Address[]) =>
      (
        await publicClient().readContract({
          address: market.uniswapV2.router,
          abi: routerAbi,
          functionName: 'getAmountsOut',
          args: [amount, path],
        })
      ).at(-1) ?? 0n
    const routes = [
      [DEV.address, USDC.address],
      [DEV.address, WETH.address, USDC.address],
    ]
    const outs = await Promise.all(routes.map(out))
    const best = (outs[0] ?? 0n) > (outs[1] ?? 0n) ? 0 : 1
    const found = await quote({ from: DEV.address, to: USDC.address, amount: amount.toString() })
    assert.equal(BigInt(found.amountOut), outs[best])
    assert.deepEqual(found.path, routes[best])
    assert.equal(
      BigInt(found.gas),
      DEFAULT_SWAP_GAS.onePool + DEFAULT_SWAP_GAS.perExtraPool * BigInt(found.path.length - 2),
    )
  })

  test('behavior: price impact against the mid price, fees aside (a third of a pool moves it a third)', async () => {
    // 50 ETH into the 100 ETH pool: out / ideal = 100 / (100 + 49.85).
    const found = await quote({
      from: 'native',
      to: market.tokens.USDC.address,
      amount: parseEther('50').toString(),
    })
    const expected = (1 - 100 / (100 + 50 * 0.997)) * 100
    assert.ok(
      Math.abs(found.priceImpactPercent - expected) < 0.05,
      `${found.priceImpactPercent} vs ${expected}`,
    )
  })

  test('error: a quote the pools no longer honour answers "quote expired"', async () => {
    const amount = parseEther('0.01').toString()
    const found = await quote({ from: 'native', to: market.tokens.USDC.address, amount })
    const response = await get('swap/build-transaction', {
      chainId: local,
      from: 'native',
      to: market.tokens.USDC.address,
      amount,
      userAddress: trader.address,
      minimumReceived: (BigInt(found.amountOut) + 1n).toString(),
    })
    assert.equal(response.statusCode, 409)
    assert.deepEqual(errorOf(response.body), {
      code: 'SWAP_QUOTE_EXPIRED',
      message: 'The quote has expired: the price moved since',
    })
  })

  test('error: insufficient balance, and no liquidity for a token without pools', async () => {
    const poor = devAccount(7).address
    const response = await get('swap/build-transaction', {
      chainId: local,
      from: 'native',
      to: market.tokens.USDC.address,
      amount: parseEther('20000').toString(),
      userAddress: poor,
      minimumReceived: '1',
    })
    assert.equal(response.statusCode, 409)
    assert.deepEqual(errorOf(response.body), {
      code: 'SWAP_INSUFFICIENT_BALANCE',
      message: 'Insufficient balance',
    })

    const none = await get('swap/quote', {
      chainId: local,
      from: ghost,
      to: market.tokens.USDC.address,
      amount: '1000',
    })
    assert.equal(none.statusCode, 422)
    assert.deepEqual(errorOf(none.body), {
      code: 'SWAP_NO_LIQUIDITY',
      message: 'Not enough liquidity for this swap',
    })
  })

  test('error: "Network not supported for Swaps" on a network without a market, and on Solana', async () => {
    for (const chainId of [noMarket, solana, 'eip155:1']) {
      for (const path of ['swap/quote', 'swap/allowance', 'swap/build-approve']) {
        const response = await get(path, {
          chainId,
          from: 'native',
          to: market.tokens.USDC.address,
          token: market.tokens.USDC.address,
          owner: trader.address,
          amount: '1',
        })
        assert.equal(response.statusCode, 400, `${chainId} ${path}`)
        assert.deepEqual(errorOf(response.body), {
          code: 'SWAPS_NETWORK_NOT_SUPPORTED',
          message: 'Network not supported for Swaps',
        })
      }
    }
  })
})
