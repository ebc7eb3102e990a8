// The tokens bench, quote part: the swap quote endpoint under autocannon, beside the chain calls it
// makes posted straight to the node.

import { encodeFunctionData, parseEther } from 'viem'
import type { LocalMarket } from '../../server/dev/chain/market.ts'
import { autocannon } from './server.ts'
import { ALICE, PROJECT, pairAbi, routerAbi, swapAbi } from './tokens-market.ts'

export interface QuoteLoad {
  label: string
  connections: number
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  requests: number
  failures: number
}

async function load(
  label: string,
  target: { url: string; method?: 'GET' | 'POST'; body?: string; headers: Record<string, string> },
  connections: number,
  seconds: number,
): Promise<QuoteLoad> {
  // Warm up: JIT, the project cache, kept-alive connections to the node.
  for (let index = 0; index < 30; index++) {
    const response = await fetch(target.url, {
      method: target.method ?? 'GET',
      headers: target.headers,
      ...(target.body ? { body: target.body } : {}),
    })
    if (!response.ok) throw new Error(`${label}: HTTP ${response.status} ${await response.text()}`)
    await response.arrayBuffer()
  }
  const result = await autocannon({ ...target, connections, duration: seconds, workers: 1 })
  return {
    label,
    connections,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    failures: result.errors + result.timeouts + result.non2xx,
  }
}

/** The quote endpoint under load, and the same chain calls straight to the node. */
export async function benchQuotes(
  chainUrl: string,
  serviceUrl: string,
  market: LocalMarket,
  seconds: number,
): Promise<QuoteLoad[]> {
  const amount = parseEther('0.1')
  const query = new URLSearchParams({
    projectId: PROJECT,
    st: 'bench',
    sv: '0',
    chainId: market.caipNetworkId,
    from: 'native',
    to: market.tokens.USDC.address,
    amount: amount.toString(),
  })
  const headers = { origin: 'http://localhost:5173' }
  const anonymous = `${serviceUrl}/blockchain/v1/swap/quote?${query}`
  const withUser = `${anonymous}&userAddress=${ALICE}`
  // What the anonymous quote asks the node, in one batch: the router's amounts out, the pool's reserves.
  const batch = JSON.stringify([
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'eth_call',
      params: [
        {
          to: market.uniswapV2.router,
          data: encodeFunctionData({
            abi: routerAbi,
            functionName: 'getAmountsOut',
            args: [amount, [market.tokens.WETH.address, market.tokens.USDC.address]],
          }),
        },
        'latest',
      ],
    },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [
        {
          to: market.pairs['WETH/USDC'],
          data: encodeFunctionData({ abi: pairAbi, functionName: 'getReserves' }),
        },
        'latest',
      ],
    },
  ])
  // And what `userAddress` adds: the swap's gas estimate for the account.
  const estimate = JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'eth_estimateGas',
    params: [
      {
        from: ALICE,
        to: market.uniswapV2.router,
        value: `0x${amount.toString(16)}`,
        data: encodeFunctionData({
          abi: swapAbi,
          functionName: 'swapExactETHForTokens',
          args: [1n, [market.tokens.WETH.address, market.tokens.USDC.address], ALICE, 2n ** 40n],
        }),
      },
    ],
  })
  const toNode = (body: string) => ({
    url: chainUrl,
    method: 'POST' as const,
    body,
    headers: { 'content-type': 'application/json' },
  })
  const results: QuoteLoad[] = []
  for (const connections of [1, 50]) {
    results.push(await load('quote, anonymous', { url: anonymous, headers }, connections, seconds))
    results.push(await load('its chain calls straight to the node', toNode(batch), connections, seconds))
    results.push(await load('quote with userAddress', { url: withUser, headers }, connections, seconds))
    results.push(await load('its gas estimate straight to the node', toNode(estimate), connections, seconds))
  }
  return results
}
