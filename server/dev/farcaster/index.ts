/**
 * The local Farcaster world for `npm start` and the end-to-end tests: a chain with chain id 10 holding
 * the ID and key registry stand-ins (one dev fid registered to a dev custody key), the auth relay
 * stand-in, and the demo Farcaster app page whose channel URLs the relay hands out.
 */
import { randomBytes } from 'node:crypto'
import { devAccount, startChain } from '../chain/index.ts'
import { startFarcasterApp } from './app.ts'
import { FARCASTER_CHAIN_ID, installFarcasterRegistries } from './registries.ts'
import { startFarcasterRelay } from './relay.ts'

/** The dev Farcaster account the demo app signs in with. */
export const DEV_FARCASTER = { fid: 1234, username: 'devcaster', custodyIndex: 5 } as const

export interface FarcasterStandInOptions {
  host?: string
  chainPort: number
  relayPort: number
  appPort: number
}

export interface FarcasterStandIns {
  chainUrl: string
  relayUrl: string
  /** The demo Farcaster app's page, with a trailing slash. */
  appUrl: string
  /** Moves the relay's clock forward (tests of an expired channel). */
  advanceClock(ms: number): void
  /** Puts the relay's clock back on the real time. */
  resetClock(): void
  stop(): Promise<void>
}

/**
 * Starts the chain-10 registries, the relay and the demo app, all or nothing.
 *
 * @example
 * const farcaster = await startFarcasterStandIns({ chainPort: 8791, relayPort: 8792, appPort: 8793 })
 */
export async function startFarcasterStandIns(options: FarcasterStandInOptions): Promise<FarcasterStandIns> {
  const host = options.host ?? '127.0.0.1'
  // The relay and the app share a key made for this run, as a Farcaster app holds the relay's.
  const relayKey = randomBytes(24).toString('base64url')
  const appUrl = `http://${host}:${options.appPort}/`
  let offset = 0
  const stops: (() => Promise<void>)[] = []
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => {})
  }
  try {
    const chain = await startChain({ port: options.chainPort, chainId: FARCASTER_CHAIN_ID, host })
    stops.push(chain.stop)
    const registries = await installFarcasterRegistries(chain.url)
    const custody = devAccount(DEV_FARCASTER.custodyIndex)
    await registries.register(custody.address, BigInt(DEV_FARCASTER.fid))
    const relay = await startFarcasterRelay({
      port: options.relayPort,
      appUrl,
      relayKey,
      now: () => Date.now() + offset,
    })
    stops.push(relay.stop)
    const app = await startFarcasterApp({
      port: options.appPort,
      host,
      relayUrl: relay.url,
      relayKey,
      rpcUrl: chain.url,
      account: { custody, fid: DEV_FARCASTER.fid, username: DEV_FARCASTER.username },
    })
    stops.push(app.stop)
    return {
      chainUrl: chain.url,
      relayUrl: relay.url,
      appUrl: app.url,
      advanceClock: (ms) => {
        offset += ms
      },
      resetClock: () => {
        offset = 0
      },
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}
