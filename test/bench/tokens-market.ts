// The tokens bench's market: the project and account it uses, the router and pair ABIs, and 17 more
// tokens with pools, so the account holds 20 priced tokens.

import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  maxUint256,
  parseAbi,
  parseEther,
  parseUnits,
} from 'viem'
import { compileContracts } from '../../server/dev/chain/compile.ts'
import { devAccount } from '../../server/dev/chain/index.ts'
import type { LocalMarket } from '../../server/dev/chain/market.ts'

export const PROJECT = 'dev-project'
export const ALICE = devAccount(0).address
/** Tokens the 20-token account holds besides the market's three. */
export const EXTRA_TOKENS = 17

export const routerAbi = parseAbi([
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256, uint256, uint256)',
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
])
const erc20 = parseAbi(['function approve(address spender, uint256 amount) returns (bool)'])
const wethAbi = parseAbi(['function deposit() payable'])
export const pairAbi = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)'])
export const swapAbi = parseAbi([
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
])

/**
 * Deploys `count` more 18-decimal tokens from dev account 0 (which keeps their supply), each with a
 * pool of 10,000 tokens against 100 USDC (1 cent a token), and wraps 1 ETH, so the account holds 20.
 */
export async function deployExtraTokens(url: string, market: LocalMarket, count: number): Promise<Address[]> {
  const { DevToken } = await compileContracts()
  if (!DevToken) throw new Error('DevToken did not compile')
  const transport = http(url, { retryCount: 0 })
  const wallet = createWalletClient({ account: ALICE, transport })
  const chain = createPublicClient({ transport })
  const mined = async (hash: Hex) => {
    const receipt = await chain.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (receipt.status !== 'success') throw new Error(`bench setup: ${hash} reverted`)
    return receipt
  }
  const router = market.uniswapV2.router
  const send = (to: Address, data: Hex, value = 0n) =>
    wallet.sendTransaction({ chain: null, to, data, value })
  await mined(
    await send(
      market.tokens.WETH.address,
      encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }),
      parseEther('1'),
    ),
  )
  await mined(
    await send(
      market.tokens.USDC.address,
      encodeFunctionData({ abi: erc20, functionName: 'approve', args: [router, maxUint256] }),
    ),
  )
  const tokens: Address[] = []
  for (let index = 1; index <= count; index++) {
    const symbol = `BENCH${String(index).padStart(2, '0')}`
    const receipt = await mined(
      await wallet.deployContract({
        chain: null,
        abi: DevToken.abi,
        bytecode: DevToken.bytecode,
        args: [`Bench Token ${index}`, symbol, 18, parseUnits('1000000', 18)],
      }),
    )
    const token = receipt.contractAddress
    if (!token) throw new Error(`bench setup: ${symbol} has no address`)
    await mined(
      await send(
        token,
        encodeFunctionData({ abi: erc20, functionName: 'approve', args: [router, maxUint256] }),
      ),
    )
    await mined(
      await send(
        router,
        encodeFunctionData({
          abi: routerAbi,
          functionName: 'addLiquidity',
          args: [
            token,
            market.tokens.USDC.address,
            parseUnits('10000', 18),
            parseUnits('100', 6),
            0n,
            0n,
            ALICE,
            2n ** 40n,
          ],
        }),
      ),
    )
    tokens.push(token)
  }
  return tokens
}
