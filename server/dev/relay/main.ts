/**
 * `npm run relay`: the dev WalletConnect relay on RELAY_HOST:RELAY_PORT (default 127.0.0.1:8789).
 * Prints its URL and stops on SIGINT / SIGTERM.
 */
import { startRelay } from './index.ts'

const port = Number(process.env.RELAY_PORT || 8789)
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`RELAY_PORT must be a port number, got ${process.env.RELAY_PORT}`)
  process.exit(1)
}

const relay = await startRelay({ host: process.env.RELAY_HOST || '127.0.0.1', port })
console.log(relay.url)

const shutdown = (): void => {
  relay.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.once('SIGINT', shutdown)
process.once('SIGTERM', shutdown)
