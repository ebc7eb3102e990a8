/**
 * `npm run chain`: the two local EVM chains on their own, without the rest of the stack, the first with
 * the local market and ERC-4337 v0.8 (server/dev/chain/erc4337.ts); its token list goes to MARKET_FILE (.data/local-market.json) for
 * `TOKEN_LIST_FILE=.data/local-market.json npm run server`.
 *
 *   CHAIN_PORT=8545 CHAIN2_PORT=8546 npm run chain
 */

import { deployErc4337, erc4337Contracts } from './erc4337.ts'
import { type LocalChain, startChain } from './index.ts'
import { deployMarket, writeMarketFile } from './market.ts'

function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const port = Number(raw)
  if (!Number.isInteger(port) || port <= 0 || port > 65_535)
    throw new Error(`${name}="${raw}" is not a TCP port`)
  return port
}

async function main(): Promise<void> {
  const specs = [
    { name: 'chain', chainId: 31337, port: portFromEnv('CHAIN_PORT', 8545) },
    { name: 'chain2', chainId: 31338, port: portFromEnv('CHAIN2_PORT', 8546) },
  ]
  const results = await Promise.allSettled(specs.map((spec) => startChain(spec)))
  const chains = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []))

  const stopAll = async (running: LocalChain[]) => {
    await Promise.allSettled(running.map((chain) => chain.stop()))
  }
  if (failures.length > 0) {
    await stopAll(chains)
    for (const failure of failures) console.error(failure instanceof Error ? failure.message : failure)
    process.exit(1)
  }

  const [first] = chains
  const marketFile = process.env.MARKET_FILE || '.data/local-market.json'
  try {
    if (first) {
      await writeMarketFile(marketFile, await deployMarket({ url: first.url, chainId: first.chainId }))
      await deployErc4337({ url: first.url })
    }
  } catch (error) {
    await stopAll(chains)
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  }
  for (const [index, chain] of chains.entries()) {
    console.log(`${specs[index]?.name.padEnd(9)} ${chain.url}  (eip155:${chain.chainId})`)
  }
  console.log(`market    ${marketFile}  (USDC, DEV, WETH, Uniswap V2 on eip155:${first?.chainId})`)
  const { entryPoint, simpleAccountFactory, simple7702Account, walletAccountFactory } = erc4337Contracts()
  console.log(
    `erc-4337  EntryPoint v0.8 ${entryPoint}, SimpleAccountFactory ${simpleAccountFactory}, Simple7702Account ${simple7702Account}, WalletAccountFactory ${walletAccountFactory}`,
  )
  console.log('Press Ctrl-C to stop.')

  let stopping = false
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    console.log(`\n${signal}: stopping the chains`)
    void stopAll(chains).then(() => process.exit(0))
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
