import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createPublicClient, erc20Abi, http, parseAbi, parseEther, parseUnits } from 'viem'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import {
  DEV_ACCOUNT_TOKENS,
  deployMarket,
  type LocalMarket,
  MARKET_DEPLOYER_INDEX,
  planMarket,
} from '../../../server/dev/chain/market.ts'
import { freePort } from '../../support/net.ts'

const multicallAbi = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) payable returns (Result[] results)',
  'function getEthBalance(address account) view returns (uint256)',
])
const pairAbi = parseAbi([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function token0() view returns (address)',
])

describe('local market', { timeout: 60_000 }, () => {
  let chain: LocalChain
  let market: LocalMarket

  before(async () => {
    chain = await startChain({ port: await freePort(), chainId: 31337 })
    market = await deployMarket({ url: chain.url, chainId: 31337 })
  })
  after(async () => {
    await chain?.stop()
  })

  const client = () => createPublicClient({ transport: http(chain.url, { retryCount: 0 }) })

  test('default: deploys at the addresses planned before it (the service and the demo start beside it)', () => {
    assert.deepEqual(market, planMarket(31337))
  })

  test('default: USDC (6 decimals), DEV (18) and WETH, the dev accounts funded and keeping their ETH', async () => {
    const read = (address: `0x${string}`, functionName: 'symbol' | 'decimals') =>
      client().readContract({ address, abi: erc20Abi, functionName })
    assert.equal(await read(market.tokens.USDC.address, 'symbol'), 'USDC')
    assert.equal(await read(market.tokens.USDC.address, 'decimals'), 6)
    assert.equal(await read(market.tokens.DEV.address, 'decimals'), 18)
    assert.equal(await read(market.tokens.WETH.address, 'symbol'), 'WETH')
    for (const index of [0, 1, MARKET_DEPLOYER_INDEX - 1]) {
      const { address } = devAccount(index)
      const balance = (token: `0x${string}`) =>
        client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
      assert.equal(await balance(market.tokens.USDC.address), DEV_ACCOUNT_TOKENS.USDC)
      assert.equal(await balance(market.tokens.DEV.address), DEV_ACCOUNT_TOKENS.DEV)
      assert.equal(await client().getBalance({ address }), parseEther('10000'))
    }
  })

  test('default: Uniswap V2 pools with liquidity at 3,000 USDC an ETH and 1.5 USDC a DEV', async () => {
    const reserves = async (pair: `0x${string}`, first: `0x${string}`) => {
      const [reserve0, reserve1] = await client().readContract({
        address: pair,
        abi: pairAbi,
        functionName: 'getReserves',
      })
      const token0 = await client().readContract({ address: pair, abi: pairAbi, functionName: 'token0' })
      return token0.toLowerCase() === first.toLowerCase() ? [reserve0, reserve1] : [reserve1, reserve0]
    }
    assert.deepEqual(await reserves(market.pairs['WETH/USDC'], market.tokens.WETH.address), [
      parseEther('100'),
      parseUnits('300000', 6),
    ])
    assert.deepEqual(await reserves(market.pairs['DEV/USDC'], market.tokens.DEV.address), [
      parseUnits('20000', 18),
      parseUnits('30000', 6),
    ])
    assert.deepEqual(await reserves(market.pairs['DEV/WETH'], market.tokens.DEV.address), [
      parseUnits('100000', 18),
      parseEther('50'),
    ])
  })

  test("default: Multicall3's aggregate3 and getEthBalance at its usual address", async () => {
    const alice = devAccount(0).address
    const { result } = await client().simulateContract({
      address: market.multicall,
      abi: multicallAbi,
      functionName: 'aggregate3',
      args: [
        [
          {
            target: market.multicall,
            allowFailure: false,
            callData: '0x4d2301cc000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266',
          },
          // A call that fails, allowed to.
          { target: market.tokens.USDC.address, allowFailure: true, callData: '0xdeadbeef' },
        ],
      ],
    })
    assert.equal(result[0]?.success, true)
    assert.equal(BigInt(result[0]?.returnData ?? '0x0'), await client().getBalance({ address: alice }))
    assert.equal(result[1]?.success, false)
  })

  test('error: deploying again on a chain that is not fresh says so', async () => {
    await assert.rejects(deployMarket({ url: chain.url, chainId: 31337 }), /fresh chain only/)
  })
})
