/**
 * The local market: test tokens and a Uniswap V2 exchange deployed on a fresh local chain at start.
 *
 * - Tokens (OpenZeppelin 5 ERC-20s compiled by compile.ts): `USDC` (6 decimals, the USD stablecoin the
 *   service prices against), `DEV` (18 decimals) and `WETH` (wrapped ether).
 * - Uniswap V2 factory and router 02 from the `@uniswap/v2-core` and `@uniswap/v2-periphery` npm build
 *   artifacts (GPL-3.0-or-later, deployed as they are on the local chain only: a dev dependency, never
 *   bundled nor a dependency of the service), with pools WETH/USDC (1 ETH = 3,000 USDC), DEV/WETH and
 *   DEV/USDC (1 DEV = 1.5 USDC).
 * - Multicall3's `aggregate3` and `getEthBalance` at Multicall3's usual address, as on public networks.
 *
 * The last dev account deploys and provides the liquidity; dev accounts 0 to 8 get 10,000 USDC and
 * 1,000 DEV each and keep their 10,000 ETH. On a fresh chain every address is the same at each start.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { createRequire } from 'node:module'
import path from 'node:path'
import {
  type Abi,
  type Address,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  keccak256,
  maxUint256,
  parseEther,
  parseUnits,
  toHex,
} from 'viem'
import type { TokenListFile } from '../../blockchain/tokenLists.ts'
import { uniswapV2PairAddress } from '../../blockchain/uniswapV2.ts'
import { compileContracts } from './compile.ts'
import { DEV_ACCOUNT_COUNT, devAccount } from './index.ts'

const require = createRequire(import.meta.url)

interface Artifact {
  abi: Abi
  bytecode: string
}

const uniswapArtifact = (path: string): Artifact => require(path) as Artifact
const hex = (bytecode: string): Hex => (bytecode.startsWith('0x') ? bytecode : `0x${bytecode}`) as Hex

/** Where Multicall3 lives on public networks (the same address on each). */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'

/** The dev account that deploys the market and provides its liquidity. */
export const MARKET_DEPLOYER_INDEX = DEV_ACCOUNT_COUNT - 1

/**
 * The dev account the on-ramp stand-in delivers from: its own, beyond the ten funded ones, so the
 * market's own transfers (each dev account's starting tokens) are never taken for purchases.
 */
export const ONRAMP_SENDER_INDEX = DEV_ACCOUNT_COUNT + 1

/** What the on-ramp stand-in's account holds after the market is deployed (gas in ETH, and what it sells). */
export const ONRAMP_SENDER_FUNDS = {
  ETH: parseEther('1000'),
  USDC: parseUnits('1000000', 6),
  DEV: parseUnits('1000000', 18),
} as const

/** What each of the other dev accounts holds after the market is deployed. */
export const DEV_ACCOUNT_TOKENS = { USDC: parseUnits('10000', 6), DEV: parseUnits('1000', 18) } as const

/** A token of the local market. */
export interface MarketToken {
  address: Address
  symbol: string
  name: string
  decimals: number
}

/** The addresses of a deployed local market. */
export interface LocalMarket {
  /** CAIP-2 id of the chain, e.g. `eip155:31337`. */
  caipNetworkId: string
  tokens: { USDC: MarketToken; DEV: MarketToken; WETH: MarketToken }
  uniswapV2: {
    factory: Address
    router: Address
    /** keccak256 of the pair creation code, which the router uses to find pairs. */
    initCodeHash: Hex
  }
  /** The pools, by `A/B` symbol pair. */
  pairs: Record<'WETH/USDC' | 'DEV/WETH' | 'DEV/USDC', Address>
  multicall: Address
}

export interface DeployMarketParameters {
  /** The chain's JSON-RPC URL (a fresh Hardhat node: the dev accounts are unlocked there). */
  url: string
  chainId: number
}

export type DeployMarketErrorType = Error

/**
 * Deploys the local market on a fresh local chain and resolves to its addresses. Takes about a second
 * (the first run also compiles the test tokens, about 2 s, then reuses the output).
 *
 * @example
 * const chain = await startChain({ port: 8545 })
 * const market = await deployMarket({ url: chain.url, chainId: chain.chainId })
 * market.tokens.USDC.address
 */
export async function deployMarket({ url, chainId }: DeployMarketParameters): Promise<LocalMarket> {
  const plan = planMarket(chainId)
  const contracts = await compileContracts()
  const { DevToken, DevWETH, DevMulticall } = contracts
  if (!DevToken || !DevWETH || !DevMulticall) throw new Error('deployMarket: a test contract did not compile')
  const rpc = jsonRpc(url)
  const deployer = devAccount(MARKET_DEPLOYER_INDEX).address
  const nonce = await rpc('eth_getTransactionCount', [deployer, 'latest'])
  if (nonce !== '0x0') {
    throw new Error(
      `deployMarket: the deployer (dev account ${MARKET_DEPLOYER_INDEX}) has sent transactions already: the market deploys on a fresh chain only`,
    )
  }

  // The node holds the dev keys and mines each transaction as it arrives (automine), in this order,
  // so the addresses are those of the plan. Plain JSON-RPC: about 30 times faster here than viem's
  // wallet client, which asks the chain id and more before each one.
  const hashes: { what: string; hash: Hex }[] = []
  const send = async (what: string, transaction: { to?: Address; data: Hex; value?: bigint }) => {
    const hash = (await rpc('eth_sendTransaction', [
      {
        from: deployer,
        ...(transaction.to ? { to: transaction.to } : {}),
        data: transaction.data,
        ...(transaction.value ? { value: toHex(transaction.value) } : {}),
      },
    ])) as Hex
    hashes.push({ what, hash })
  }
  const deploy = (what: string, abi: Abi, bytecode: Hex, args: readonly unknown[] = []) =>
    send(`deploying ${what}`, { data: encodeDeployData({ abi, bytecode, args }) })
  const call = (what: string, to: Address, abi: Abi, functionName: string, args: unknown[], value = 0n) =>
    send(what, { to, data: encodeFunctionData({ abi, functionName, args }), value })

  const { tokens, uniswapV2 } = plan
  await deploy('USDC', DevToken.abi, DevToken.bytecode, [
    tokens.USDC.name,
    'USDC',
    6,
    parseUnits('1000000000', 6),
  ])
  await deploy('DEV', DevToken.abi, DevToken.bytecode, [
    tokens.DEV.name,
    'DEV',
    18,
    parseUnits('1000000000', 18),
  ])
  await deploy('WETH', DevWETH.abi, DevWETH.bytecode)
  const factoryArtifact = uniswapArtifact('@uniswap/v2-core/build/UniswapV2Factory.json')
  const routerArtifact = uniswapArtifact('@uniswap/v2-periphery/build/UniswapV2Router02.json')
  await deploy('the Uniswap V2 factory', factoryArtifact.abi, hex(factoryArtifact.bytecode), [deployer])
  await deploy('the Uniswap V2 router', routerArtifact.abi, hex(routerArtifact.bytecode), [
    uniswapV2.factory,
    tokens.WETH.address,
  ])

  const tokenAbi = DevToken.abi
  const routerAbi = routerArtifact.abi
  const router = uniswapV2.router
  for (const token of [tokens.USDC, tokens.DEV]) {
    await call(`approving the router for ${token.symbol}`, token.address, tokenAbi, 'approve', [
      router,
      maxUint256,
    ])
  }
  const deadline = 2n ** 40n
  await call(
    'adding WETH/USDC liquidity',
    router,
    routerAbi,
    'addLiquidityETH',
    [tokens.USDC.address, parseUnits('300000', 6), 0n, 0n, deployer, deadline],
    parseEther('100'),
  )
  await call(
    'adding DEV/WETH liquidity',
    router,
    routerAbi,
    'addLiquidityETH',
    [tokens.DEV.address, parseUnits('100000', 18), 0n, 0n, deployer, deadline],
    parseEther('50'),
  )
  await call('adding DEV/USDC liquidity', router, routerAbi, 'addLiquidity', [
    tokens.DEV.address,
    tokens.USDC.address,
    parseUnits('20000', 18),
    parseUnits('30000', 6),
    0n,
    0n,
    deployer,
    deadline,
  ])
  for (let index = 0; index < MARKET_DEPLOYER_INDEX; index++) {
    const holder = devAccount(index).address
    for (const symbol of ['USDC', 'DEV'] as const) {
      await call(`funding dev account ${index}`, tokens[symbol].address, tokenAbi, 'transfer', [
        holder,
        DEV_ACCOUNT_TOKENS[symbol],
      ])
    }
  }
  // The on-ramp stand-in's own account: what it sells, and gas.
  const onrampSender = devAccount(ONRAMP_SENDER_INDEX).address
  for (const symbol of ['USDC', 'DEV'] as const) {
    await call(`funding the on-ramp sender`, tokens[symbol].address, tokenAbi, 'transfer', [
      onrampSender,
      ONRAMP_SENDER_FUNDS[symbol],
    ])
  }
  await rpc('hardhat_setBalance', [onrampSender, toHex(ONRAMP_SENDER_FUNDS.ETH)])
  await rpc('hardhat_setCode', [plan.multicall, DevMulticall.deployedBytecode])

  await assertMined(rpc, hashes, 'deployMarket')
  return plan
}

/** Throws `${who}: ${what} failed` for the first of the transactions that did not succeed. */
export async function assertMined(
  rpc: Rpc,
  hashes: { what: string; hash: Hex }[],
  who: string,
): Promise<void> {
  const receipts = (await rpc.batch(
    hashes.map(({ hash }) => ({ method: 'eth_getTransactionReceipt', params: [hash] })),
  )) as ({ status?: string } | null)[]
  hashes.forEach(({ what }, index) => {
    if (receipts[index]?.status !== '0x1') throw new Error(`${who}: ${what} failed`)
  })
}

/**
 * The addresses the market gets on a fresh chain, known before it is deployed (from the deployer's
 * nonces and the pairs' CREATE2 salts), so the service and the demo can start beside the deployment.
 *
 * @example
 * planMarket(31337).tokens.USDC.address // '0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35'
 */
export function planMarket(chainId: number): LocalMarket {
  const deployer = devAccount(MARKET_DEPLOYER_INDEX).address
  const created = (nonce: number) => getContractAddress({ from: deployer, nonce: BigInt(nonce) })
  const [usdc, dev, weth, factory, router] = [0, 1, 2, 3, 4].map(created) as [
    Address,
    Address,
    Address,
    Address,
    Address,
  ]
  const initCodeHash = keccak256(hex(uniswapArtifact('@uniswap/v2-core/build/UniswapV2Pair.json').bytecode))
  const pair = (a: Address, b: Address) => uniswapV2PairAddress(factory, initCodeHash, a, b)
  return {
    caipNetworkId: `eip155:${chainId}`,
    tokens: {
      USDC: { address: usdc, symbol: 'USDC', name: 'Local USD Coin', decimals: 6 },
      DEV: { address: dev, symbol: 'DEV', name: 'Local Dev Token', decimals: 18 },
      WETH: { address: weth, symbol: 'WETH', name: 'Wrapped Ether', decimals: 18 },
    },
    uniswapV2: { factory, router, initCodeHash },
    pairs: { 'WETH/USDC': pair(weth, usdc), 'DEV/WETH': pair(dev, weth), 'DEV/USDC': pair(dev, usdc) },
    multicall: MULTICALL3_ADDRESS,
  }
}

export type Rpc = ((method: string, params: unknown[]) => Promise<unknown>) & {
  batch(calls: { method: string; params: unknown[] }[]): Promise<unknown[]>
}

/**
 * JSON-RPC over a new connection per request; an error answer throws with the node's message, after
 * `label`. Not a kept-alive one: the node closes idle connections after 5 s (a first compile can take
 * that long after the node answered its readiness check), and a request sent as it closes one would fail.
 */
export function jsonRpc(url: string, label = 'deployMarket'): Rpc {
  const post = (body: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      const text = JSON.stringify(body)
      const request = httpRequest(
        url,
        {
          method: 'POST',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
        },
        (response) => {
          const chunks: Buffer[] = []
          response.on('data', (chunk: Buffer) => chunks.push(chunk))
          response.on('error', reject)
          response.on('end', () => {
            try {
              resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')))
            } catch (error) {
              reject(error)
            }
          })
        },
      )
      request.on('error', reject)
      request.end(text)
    })
  const unwrap = (answer: unknown, method: string) => {
    const { result, error } = answer as { result?: unknown; error?: { message?: string } }
    if (error) throw new Error(`${label}: ${method} failed: ${error.message ?? 'unknown error'}`)
    return result
  }
  const rpc = async (method: string, params: unknown[]) =>
    unwrap(await post({ jsonrpc: '2.0', id: 1, method, params }), method)
  return Object.assign(rpc, {
    async batch(calls: { method: string; params: unknown[] }[]) {
      const answers = (await post(
        calls.map((entry, id) => ({ jsonrpc: '2.0', id, method: entry.method, params: entry.params })),
      )) as { id: number }[]
      return calls.map((entry, id) =>
        unwrap(
          answers.find((answer) => answer.id === id),
          entry.method,
        ),
      )
    },
  })
}

/**
 * The market as the service's token list of its network: the three tokens, USDC as the stablecoin
 * prices are measured against, and the Uniswap V2 deployment (swaps on).
 *
 * @example
 * const tokenLists = { [market.caipNetworkId]: marketTokenList(market) }
 */
export function marketTokenList(market: LocalMarket): TokenListFile['networks'][string] {
  const { USDC, DEV, WETH } = market.tokens
  return {
    tokens: [USDC, DEV, WETH].map(({ address, symbol, name, decimals }) => ({
      address,
      symbol,
      name,
      decimals,
    })),
    stablecoin: USDC.address,
    uniswapV2: { ...market.uniswapV2, weth: WETH.address },
    multicall: market.multicall,
  }
}

/**
 * Writes the market's token list file (`TOKEN_LIST_FILE` of the service), so a service started on its
 * own (`npm run server`) serves the local market too.
 *
 * @example
 * await writeMarketFile('.data/local-market.json', planMarket(31337))
 */
export async function writeMarketFile(file: string, market: LocalMarket): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true })
  const content: TokenListFile = { networks: { [market.caipNetworkId]: marketTokenList(market) } }
  await writeFile(file, `${JSON.stringify(content, null, 2)}\n`)
}
