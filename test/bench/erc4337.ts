/**
 * ERC-4337 on the local chain: the cold start of a chain with EntryPoint v0.8 and its account contracts
 * and the bundler (s), then UserOperations from submit (`eth_sendUserOperation` through viem's bundler
 * client, gas estimated) to receipt, the first one deploying the account (ms, median of `runs`).
 *
 * Run alone: `npx tsx test/bench/erc4337.ts`.
 */
import { createPublicClient, http, parseEther, toHex } from 'viem'
import { createBundlerClient } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startBundler } from '../../server/dev/bundler/index.ts'
import { deployErc4337 } from '../../server/dev/chain/erc4337.ts'
import { devAccount, startChain } from '../../server/dev/chain/index.ts'
import { toWalletAccount } from '../../server/embedded/walletAccount.ts'
import { freePort } from '../unit/server/helpers.ts'

export interface Erc4337BenchResult {
  coldStartMs: { chain: number; contracts: number; bundler: number; total: number }
  firstOperationMs: number
  operationMs: number[]
  medianOperationMs: number
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

export async function benchErc4337(runs = 10): Promise<Erc4337BenchResult> {
  const started = performance.now()
  const chain = await startChain({ port: await freePort(), chainId: 31337 })
  const chainReady = performance.now()
  try {
    await deployErc4337({ url: chain.url })
    const contractsReady = performance.now()
    const bundler = await startBundler({ rpcUrl: chain.url, chainId: 31337, port: await freePort() })
    const bundlerReady = performance.now()
    try {
      const client = createPublicClient({
        chain: {
          id: 31337,
          name: 'Local Chain',
          nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
          rpcUrls: { default: { http: [chain.url] } },
        },
        transport: http(chain.url, { retryCount: 0 }),
      })
      const account = await toWalletAccount({ client, owner: privateKeyToAccount(generatePrivateKey()) })
      await client.request({
        method: 'hardhat_setBalance',
        params: [await account.getAddress(), toHex(parseEther('10'))],
      } as never)
      const bundlerClient = createBundlerClient({
        client,
        account,
        transport: http(bundler.url, { retryCount: 0 }),
      })
      const to = devAccount(1).address
      const once = async () => {
        const start = performance.now()
        const hash = await bundlerClient.sendUserOperation({ calls: [{ to, value: 1n }] })
        const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, pollingInterval: 20 })
        if (!receipt.success) throw new Error('a benchmark UserOperation failed')
        return performance.now() - start
      }
      const firstOperationMs = await once()
      const operationMs: number[] = []
      for (let run = 0; run < runs; run++) operationMs.push(await once())
      return {
        coldStartMs: {
          chain: chainReady - started,
          contracts: contractsReady - chainReady,
          bundler: bundlerReady - contractsReady,
          total: bundlerReady - started,
        },
        firstOperationMs,
        operationMs,
        medianOperationMs: median(operationMs),
      }
    } finally {
      await bundler.stop()
    }
  } finally {
    await chain.stop()
  }
}

export function printErc4337(result: Erc4337BenchResult): void {
  const { coldStartMs: cold } = result
  console.log('\nERC-4337 on the local chain (EntryPoint v0.8, WalletAccount, the local bundler):')
  console.log(
    `  cold start ${(cold.total / 1000).toFixed(2)} s (chain ${(cold.chain / 1000).toFixed(2)} s, contracts ${(cold.contracts / 1000).toFixed(2)} s, bundler ${(cold.bundler / 1000).toFixed(2)} s)`,
  )
  console.log(
    `  first UserOperation (deploys the account), submit to receipt ${result.firstOperationMs.toFixed(0)} ms`,
  )
  console.log(
    `  UserOperation submit to receipt, median of ${result.operationMs.length}: ${result.medianOperationMs.toFixed(0)} ms (${result.operationMs.map((value) => value.toFixed(0)).join(', ')})`,
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printErc4337(await benchErc4337(10))
  process.exit(0)
}
