// The wallet's request routes (SPEC 6), `/embedded/v1/{networks,account-type,rpc,requests*}`: session routes like the others.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import * as z from 'zod/mini'
import {
  accountTypeRequest,
  approveRequest,
  opaqueId,
  walletRpcRequest,
} from '../../src/protocol/embedded/index.ts'
import { parseInput } from '../http/validation.ts'
import type { EmbeddedWallet } from './index.ts'
import type { WalletSession } from './sessions.ts'

export interface RequestRouteOptions {
  wallet: EmbeddedWallet
  /** The signed session of a request (bearer token and the browser's proof), or 401. */
  session(request: FastifyRequest): Promise<WalletSession>
  bodyLimit: number
}

const idParam = z.object({ id: opaqueId })

/**
 * Registers the routes of the wallet's requests: reads, account types, and the approval requests
 * (stored with their preview and plan, the final plan at Approve, then approved with the frame's
 * signatures or rejected).
 *
 * @example
 * registerRequestRoutes(app, { wallet, session, bodyLimit })
 */
export function registerRequestRoutes(app: FastifyInstance, options: RequestRouteOptions): void {
  const { wallet, session, bodyLimit } = options

  app.get('/embedded/v1/networks', { config: { walletLimit: 'none' } }, async () => ({
    networks: wallet.requests.networks(),
    smartAccountNetworks: wallet.smart.networks(),
  }))

  app.post('/embedded/v1/account-type', { bodyLimit, config: { walletLimit: 'rpc' } }, async (request) => {
    const body = parseInput(accountTypeRequest, request.body, 'body')
    return wallet.requests.accountType(await session(request), body)
  })

  // Reads and the wallet's own answers (a page polls wallet_getCallsStatus): the RPC proxy's limit.
  app.post('/embedded/v1/rpc', { bodyLimit, config: { walletLimit: 'rpc' } }, async (request) => {
    const body = parseInput(walletRpcRequest, request.body, 'body')
    return { result: await wallet.requests.rpc(await session(request), body) }
  })

  app.post('/embedded/v1/requests', { bodyLimit }, async (request) => {
    const body = parseInput(walletRpcRequest, request.body, 'body')
    return wallet.requests.create(await session(request), body)
  })
  app.post('/embedded/v1/requests/:id/plan', { bodyLimit }, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path')
    return wallet.requests.finalPlan(await session(request), id)
  })
  app.post('/embedded/v1/requests/:id/approve', { bodyLimit }, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path')
    const { signatures } = parseInput(approveRequest, request.body, 'body')
    return { result: await wallet.requests.approve(await session(request), id, signatures) }
  })
  app.post('/embedded/v1/requests/:id/reject', {}, async (request, reply) => {
    const { id } = parseInput(idParam, request.params, 'path')
    await wallet.requests.reject(await session(request), id)
    return reply.code(204).send()
  })
}
