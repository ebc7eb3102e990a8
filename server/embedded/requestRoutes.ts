// The wallet's request routes (SPEC 6), `/embedded/v1/{networks,account-type,rpc,requests*}`: session routes like the others.
import type { FastifyRequest } from 'fastify'
import * as z from 'zod/mini'
import {
  accountTypeRequest,
  accountTypeResponse,
  approvalResponse,
  approveRequest,
  embeddedNetworksResponse,
  opaqueId,
  signingPlanResponse,
  walletRpcRequest,
  walletRpcResponse,
} from '../../src/protocol/embedded/index.ts'
import type { GroupRoute } from '../http/route.ts'
import type { EmbeddedWallet } from './index.ts'
import type { WalletSession } from './sessions.ts'

export interface RequestRouteOptions {
  wallet: EmbeddedWallet
  /** The signed session of a request (bearer token and the browser's proof), or 401. */
  session(request: FastifyRequest): Promise<WalletSession>
}

const idParam = z.object({ id: opaqueId })

/**
 * Registers the routes of the wallet's requests with the embedded wallet's session route: reads,
 * account types, and the approval requests (stored with their preview and plan, the final plan at
 * Approve, then approved with the frame's signatures or rejected).
 *
 * @example
 * registerRequestRoutes(sessionRoute, { wallet, session })
 */
export function registerRequestRoutes(route: GroupRoute, options: RequestRouteOptions): void {
  const { wallet, session } = options
  // A request that is not this person's or not waiting any more: 403 `FORBIDDEN`, `Action not allowed`.
  const unknown = {
    403: {
      description: "`FORBIDDEN`: `Action not allowed`: no waiting request of the person's has this id.",
    },
  }

  route(
    {
      method: 'GET',
      url: '/embedded/v1/networks',
      config: { walletLimit: 'none' },
      summary: 'The networks the wallet works on',
      responses: {
        200: {
          description: 'The networks, and those with smart accounts.',
          schema: embeddedNetworksResponse,
        },
      },
    },
    async () => ({
      networks: wallet.requests.networks(),
      smartAccountNetworks: wallet.smart.networks(),
    }),
  )

  route(
    {
      method: 'POST',
      url: '/embedded/v1/account-type',
      config: { walletLimit: 'rpc' },
      summary: "The person's account type on a network, or a change of it",
      body: accountTypeRequest,
      responses: { 200: { description: 'The account type.', schema: accountTypeResponse } },
    },
    async (request, _reply, input) => {
      const body = input.body()
      return wallet.requests.accountType(await session(request), body)
    },
  )

  // Reads and the wallet's own answers (a page polls wallet_getCallsStatus): the RPC proxy's limit.
  route(
    {
      method: 'POST',
      url: '/embedded/v1/rpc',
      config: { walletLimit: 'rpc' },
      summary: 'A read, or a method the wallet answers itself (no approval)',
      body: walletRpcRequest,
      responses: { 200: { description: 'The result.', schema: walletRpcResponse } },
    },
    async (request, _reply, input) => {
      const body = input.body()
      return { result: await wallet.requests.rpc(await session(request), body) }
    },
  )

  route(
    {
      method: 'POST',
      url: '/embedded/v1/requests',
      summary: 'A request to approve: stored with its preview and what the frame will sign',
      body: walletRpcRequest,
      responses: {
        200: { description: "The request's id, its preview and its signing plan.", schema: approvalResponse },
      },
    },
    async (request, _reply, input) => {
      const body = input.body()
      return wallet.requests.create(await session(request), body)
    },
  )
  route(
    {
      method: 'POST',
      url: '/embedded/v1/requests/:id/plan',
      summary: 'The final signing plan, at Approve',
      params: idParam,
      responses: { 200: { description: 'What the frame signs.', schema: signingPlanResponse }, ...unknown },
    },
    async (request, _reply, input) => {
      const { id } = input.params()
      return wallet.requests.finalPlan(await session(request), id)
    },
  )
  route(
    {
      method: 'POST',
      url: '/embedded/v1/requests/:id/approve',
      summary: "Approve a request with the frame's signatures",
      params: idParam,
      body: approveRequest,
      responses: { 200: { description: "The request's result.", schema: walletRpcResponse }, ...unknown },
    },
    async (request, _reply, input) => {
      const { id } = input.params()
      const { signatures } = input.body()
      return { result: await wallet.requests.approve(await session(request), id, signatures) }
    },
  )
  route(
    {
      method: 'POST',
      url: '/embedded/v1/requests/:id/reject',
      summary: 'Reject a request',
      params: idParam,
      responses: { 204: { description: 'Rejected.' }, ...unknown },
    },
    async (request, reply, input) => {
      const { id } = input.params()
      await wallet.requests.reject(await session(request), id)
      return reply.code(204).send()
    },
  )
}
