/**
 * The local Bitcoin regtest node on 127.0.0.1: HTTP API and JSON-RPC on BITCOIN_PORT (default 8794), a block
 * every BITCOIN_BLOCK_INTERVAL_MS (default 5000; 0 mines only on demand). Prints the URL and the funded dev
 * addresses; stops on SIGINT / SIGTERM.
 */
import { startBitcoinNode } from './index.ts'

const port = Number(process.env.BITCOIN_PORT || 8794)
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  console.error(`BITCOIN_PORT must be a port number, got ${process.env.BITCOIN_PORT}`)
  process.exit(1)
}
const blockIntervalMs = Number(process.env.BITCOIN_BLOCK_INTERVAL_MS ?? 5000)
if (!Number.isInteger(blockIntervalMs) || blockIntervalMs < 0) {
  console.error(`BITCOIN_BLOCK_INTERVAL_MS must be a whole number of milliseconds, got ${blockIntervalMs}`)
  process.exit(1)
}

const node = await startBitcoinNode({ host: '127.0.0.1', port, blockIntervalMs })
console.log(node.url)
node.devKeys.forEach((key) => {
  console.log(`dev address ${key.path}: ${key.address} (100 BTC)`)
})
console.log(
  `miner: ${node.minerAddress}, height ${node.height()}, ${blockIntervalMs ? `a block every ${blockIntervalMs} ms` : 'blocks on demand'}`,
)

const shutdown = (): void => {
  node.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.once('SIGINT', shutdown)
process.once('SIGTERM', shutdown)
