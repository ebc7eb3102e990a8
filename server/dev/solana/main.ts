/**
 * The local Solana network on 127.0.0.1: JSON-RPC on SOLANA_PORT (default 8899), WebSocket on the next port.
 * Prints both URLs, the dev keys and the test token's mint; stops on SIGINT / SIGTERM.
 */
import { startSolana } from './index.ts'

const port = Number(process.env.SOLANA_PORT || 8899)
if (!Number.isInteger(port) || port < 1 || port > 65_534) {
  console.error(`SOLANA_PORT must be a port number below 65535, got ${process.env.SOLANA_PORT}`)
  process.exit(1)
}

const solana = await startSolana({ host: '127.0.0.1', port })
console.log(solana.url)
console.log(solana.wsUrl)
solana.devKeys.forEach((key, index) => {
  console.log(`dev key ${index}: ${key.publicKey.toBase58()} (1000 SOL, m/44'/501'/${index}'/0')`)
})
console.log(
  `test token mint: ${solana.mint.address.toBase58()} (${solana.mint.decimals} decimals, ` +
    `1000000 tokens in ${solana.mint.holder.toBase58()}, owned by dev key 0)`,
)

const shutdown = (): void => {
  solana.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.once('SIGINT', shutdown)
process.once('SIGTERM', shutdown)
