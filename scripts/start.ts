/**
 * `npm start`: the whole local stack on 127.0.0.1, one URL a line; Ctrl-C stops everything.
 *
 * Ports: CHAIN_PORT (8545), CHAIN2_PORT (8546), SERVICE_PORT (8787), FRAME_PORT (8788), RELAY_PORT
 * (8789), SOLANA_PORT (8899), BITCOIN_PORT (8794), SMTP_PORT (2525), ONRAMP_PORT (8795), OIDC_PORT (8790), BUNDLER_PORT (4337),
 * FARCASTER_CHAIN_PORT (8791), FARCASTER_RELAY_PORT (8792), FARCASTER_APP_PORT (8793), DEMO_PORT (5173).
 * The local market's token list is written to MARKET_FILE (.data/local-market.json) for a service
 * started on its own.
 */
import { startStack } from './stack.ts'

/** Stopping is bounded (a chain gets SIGKILL after 3 s); this is only a last resort. */
const STOP_TIMEOUT_MS = 15_000

const starting = startStack({
  logLevel: 'info',
  marketFile: process.env.MARKET_FILE || '.data/local-market.json',
})
let shuttingDown = false

async function shutdown(signal: NodeJS.Signals): Promise<void> {
  // Ctrl-C reaches npm, tsx and this process at once, and may be relayed again: act on the first.
  if (shuttingDown) return
  shuttingDown = true
  console.log(`\n${signal}: stopping the stack`)
  setTimeout(() => {
    console.error('The stack did not stop in time; exiting (the chains are killed on exit).')
    process.exit(1)
  }, STOP_TIMEOUT_MS).unref()
  try {
    // If the signal came while starting, this waits for the start, then stops what started.
    const stack = await starting.catch(() => undefined)
    await stack?.stop()
    process.exit(0)
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  }
}

process.on('SIGINT', (signal) => void shutdown(signal))
process.on('SIGTERM', (signal) => void shutdown(signal))

try {
  const stack = await starting
  if (!shuttingDown) {
    console.log('')
    for (const service of stack.services) {
      console.log(`${service.name.padEnd(9)} ${service.url}${service.detail ? `  (${service.detail})` : ''}`)
    }
    console.log('\nPress Ctrl-C to stop.')
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}
