// The person's key routes, `/embedded/v1/keys*`: session routes like the others, never cached.
import type { FastifyRequest } from 'fastify'
import { meResponse } from '../../src/protocol/embedded/index.ts'
import {
  authShareResponse,
  bitcoinKeysRequest,
  bitcoinKeysResponse,
  keyMigrateResponse,
  keyReshareRequest,
  keySetupRequest,
  recoveryShareResponse,
  setRecoveryRequest,
  walletKeyState,
} from '../../src/protocol/embedded/keys.ts'
import type { RateLimiter, RateLimitRule } from '../http/rateLimit.ts'
import type { GroupRoute } from '../http/route.ts'
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
  limiter: RateLimiter
}

/**
 * Registers the key routes with the embedded wallet's session route (its session and error docs). Bodies
 * are checked with the protocol's schemas; shares are never logged (the service logs the project and
 * what happened only).
 *
 * @example
 * registerKeyRoutes(sessionRoute, { wallet, session, limiter })
 */
export function registerKeyRoutes(route: GroupRoute, options: KeyRouteOptions): void {
  const { wallet, session } = options
  const keys = wallet.login.keys
  const state = { 200: { description: 'The user and where their keys stand.', schema: meResponse } }
  const conflict = { 409: { description: '`NOT_AVAILABLE`: the keys are not in the state this asks for.' } }

  route(
    {
      method: 'GET',
      url: '/embedded/v1/keys',
      config: { walletLimit: 'none' },
      summary: "Where the person's keys stand",
      responses: {
        200: { description: 'None, legacy, or ready with its share set.', schema: walletKeyState },
      },
    },
    async (request) => {
      const live = await session(request)
      return keys.state(live.userId, live.projectId)
    },
  )
  route(
    {
      method: 'POST',
      url: '/embedded/v1/keys/setup',
      summary: "The person's first share set",
      body: keySetupRequest,
      responses: { ...state, ...conflict },
    },
    async (request, _reply, input) => {
      const live = await session(request)
      return keys.setup(live, input.body())
    },
  )
  route(
    {
      method: 'POST',
      url: '/embedded/v1/keys/reshare',
      summary: 'A fresh share set in place of the current one, for the same accounts',
      body: keyReshareRequest,
      responses: { ...state, ...conflict },
    },
    async (request, _reply, input) => {
      const live = await session(request)
      return keys.reshare(live, input.body())
    },
  )
  route(
    {
      method: 'POST',
      url: '/embedded/v1/keys/recovery',
      summary: "Set or replace how the current set's recovery share is sealed",
      body: setRecoveryRequest,
      responses: { 200: { description: 'Where the keys stand now.', schema: walletKeyState }, ...conflict },
    },
    async (request, _reply, input) => {
      const live = await session(request)
      return keys.setRecovery(live, input.body())
    },
  )
  route(
    {
      method: 'POST',
      url: '/embedded/v1/keys/auth-share',
      summary: "The service's share of the current set, to this session only",
      responses: { 200: { description: 'The share.', schema: authShareResponse } },
    },
    async (request) => keys.authShare(await session(request)),
  )
  route(
    {
      method: 'POST',
      url: '/embedded/v1/keys/recovery-share',
      summary: "The current set's recovery share: sealed, or whole in operator custody",
      description: 'A few an hour per person, whatever client asks.',
      responses: { 200: { description: 'The recovery share.', schema: recoveryShareResponse } },
    },
    async (request) => {
      const live = await session(request)
      await options.limiter.take({ projectId: live.projectId, address: `user:${live.userId}` }, [
        [recoveryShareRule, 1],
      ])
      return keys.recoveryShare(live)
    },
  )
  route(
    {
      method: 'POST',
      url: '/embedded/v1/keys/migrate',
      summary: "A legacy person's keys, once, for the frame to split",
      responses: { 200: { description: 'The keys as one secret.', schema: keyMigrateResponse }, ...conflict },
    },
    async (request) => keys.migrate(await session(request)),
  )
  // The Bitcoin account's public keys (BIP-84), vouched for by the set's EVM key.
  route(
    {
      method: 'GET',
      url: '/embedded/v1/keys/bitcoin',
      config: { walletLimit: 'none' },
      summary: "The Bitcoin account's public keys",
      responses: {
        200: { description: 'The keys, or null before the frame sent them.', schema: bitcoinKeysResponse },
      },
    },
    async (request) => wallet.bitcoinKeys.state(await session(request)),
  )
  route(
    {
      method: 'POST',
      url: '/embedded/v1/keys/bitcoin',
      summary: 'Tell the service the Bitcoin keys of the current set, proven by its EVM key',
      body: bitcoinKeysRequest,
      responses: { 200: { description: 'The keys.', schema: bitcoinKeysResponse } },
    },
    async (request, _reply, input) => {
      const live = await session(request)
      return wallet.bitcoinKeys.register(live, input.body())
    },
  )
}
