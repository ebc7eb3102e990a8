// The person's key routes, `/embedded/v1/keys*`: session routes like the others, never cached.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  bitcoinKeysRequest,
  keyReshareRequest,
  keySetupRequest,
  setRecoveryRequest,
} from '../../src/protocol/embedded/keys.ts'
import type { RateLimiter, RateLimitRule } from '../http/rateLimit.ts'
import { parseInput } from '../http/validation.ts'
import type { EmbeddedWallet } from './index.ts'
import type { WalletSession } from './sessions.ts'

/**
 * The recovery share is what a password guesser would fetch: a few a person's hour, whatever client
 * asks (on top of the per-client limit every wallet route has).
 */
export const recoveryShareRule: RateLimitRule = {
  name: 'wallet:recovery-share:user',
  amount: 6,
  periodMs: 60 * 60_000,
  message: (seconds) => `Too many recovery attempts: try again in ${seconds} seconds`,
}

export interface KeyRouteOptions {
  wallet: EmbeddedWallet
  /** The signed session of a request (bearer token and the browser's proof), or 401. */
  session(request: FastifyRequest): Promise<WalletSession>
  bodyLimit: number
  limiter: RateLimiter
}

/**
 * Registers the key routes. Bodies are checked with the protocol's schemas; shares are never logged
 * (the service logs the project and what happened only).
 *
 * @example
 * registerKeyRoutes(app, { wallet, session, bodyLimit, limiter })
 */
export function registerKeyRoutes(app: FastifyInstance, options: KeyRouteOptions): void {
  const { wallet, session, bodyLimit } = options
  const keys = wallet.login.keys

  app.get('/embedded/v1/keys', { config: { walletLimit: 'none' } }, async (request) => {
    const live = await session(request)
    return keys.state(live.userId, live.projectId)
  })
  app.post('/embedded/v1/keys/setup', { bodyLimit }, async (request) => {
    const live = await session(request)
    return keys.setup(live, parseInput(keySetupRequest, request.body, 'body'))
  })
  app.post('/embedded/v1/keys/reshare', { bodyLimit }, async (request) => {
    const live = await session(request)
    return keys.reshare(live, parseInput(keyReshareRequest, request.body, 'body'))
  })
  app.post('/embedded/v1/keys/recovery', { bodyLimit }, async (request) => {
    const live = await session(request)
    return keys.setRecovery(live, parseInput(setRecoveryRequest, request.body, 'body'))
  })
  app.post('/embedded/v1/keys/auth-share', { bodyLimit }, async (request) =>
    keys.authShare(await session(request)),
  )
  app.post('/embedded/v1/keys/recovery-share', { bodyLimit }, async (request) => {
    const live = await session(request)
    await options.limiter.take({ projectId: live.projectId, address: `user:${live.userId}` }, [
      [recoveryShareRule, 1],
    ])
    return keys.recoveryShare(live)
  })
  app.post('/embedded/v1/keys/migrate', { bodyLimit }, async (request) =>
    keys.migrate(await session(request)),
  )
  // The Bitcoin account's public keys (BIP-84), vouched for by the set's EVM key.
  app.get('/embedded/v1/keys/bitcoin', { config: { walletLimit: 'none' } }, async (request) =>
    wallet.bitcoinKeys.state(await session(request)),
  )
  app.post('/embedded/v1/keys/bitcoin', { bodyLimit }, async (request) => {
    const live = await session(request)
    return wallet.bitcoinKeys.register(live, parseInput(bitcoinKeysRequest, request.body, 'body'))
  })
}
