/**
 * `POST /paymaster/v1?projectId=…`: the project's ERC-7677 paymaster service, JSON-RPC 2.0 (one request
 * or a batch of up to ten), rate-limited like the RPC proxy. Refusals are JSON-RPC errors with the reason
 * in words and `data.code` (docs/API.md, "Paymaster").
 */
import type { FastifyInstance } from 'fastify'
import * as z from 'zod/mini'
import {
  jsonRpcErrorCodes,
  jsonRpcRequest,
  type PaymasterMethod,
  paymasterMethods,
  paymasterRpcErrorCodes,
} from '../../src/protocol/api/index.ts'
import { projectOf } from '../http/access.ts'
import type { RateLimiter, RateLimitRules } from '../http/rateLimit.ts'
import { route } from '../http/route.ts'
import { PaymasterRefusal, type PaymasterService } from './sponsor.ts'

/** How many requests one batch may hold. */
export const MAX_PAYMASTER_BATCH = 10

const body = z.union([
  jsonRpcRequest,
  z.array(jsonRpcRequest).check(z.minLength(1), z.maxLength(MAX_PAYMASTER_BATCH)),
])

export interface PaymasterRouteOptions {
  paymaster: PaymasterService
  limits: { limiter: RateLimiter; rules: RateLimitRules }
}

/**
 * Registers the paymaster route.
 *
 * @example
 * await app.register(async (scope) => registerPaymasterRoutes(scope, { paymaster, limits }))
 */
export function registerPaymasterRoutes(app: FastifyInstance, options: PaymasterRouteOptions): void {
  const { paymaster, limits } = options
  route(
    app,
    {
      method: 'POST',
      url: '/paymaster/v1',
      config: { access: 'project', sdkOptional: true, jsonRpc: true },
      summary: "The project's ERC-7677 paymaster service",
      description:
        `JSON-RPC 2.0: one request or a batch of up to ${MAX_PAYMASTER_BATCH}, of \`${paymasterMethods.join('` and `')}\`. ` +
        'A refusal is a JSON-RPC error with the reason in words and `data.code`.',
      tags: ['paymaster'],
      body,
      responses: {
        200: {
          description:
            'A JSON-RPC response (`result` is a `paymasterResult`), or an array of them for a batch.',
          type: 'application/json',
        },
      },
    },
    async (request, _reply, input) => {
      const payload = input.body()
      const requests = Array.isArray(payload) ? payload : [payload]
      const projectId = projectOf(request).id
      await limits.limiter.take({ projectId, address: request.ip }, [
        [limits.rules.rpc, 1],
        [limits.rules.rpcEntries, requests.length],
      ])
      const answers = []
      for (const entry of requests) {
        const id = entry.id ?? null
        if (!(paymasterMethods as readonly string[]).includes(entry.method)) {
          answers.push({
            jsonrpc: '2.0',
            id,
            error: {
              code: jsonRpcErrorCodes.methodNotFound,
              message: `The method ${entry.method} is not a paymaster method (${paymasterMethods.join(', ')})`,
            },
          })
          continue
        }
        try {
          const result = await paymaster.answer(
            projectId,
            entry.method as PaymasterMethod,
            entry.params ?? [],
          )
          answers.push({ jsonrpc: '2.0', id, result })
        } catch (error) {
          if (!(error instanceof PaymasterRefusal)) throw error
          request.log.info({ projectId, code: error.code }, 'Paymaster refused')
          answers.push({
            jsonrpc: '2.0',
            id,
            error: {
              code:
                error.code === 'INVALID_PARAMS'
                  ? jsonRpcErrorCodes.invalidParams
                  : paymasterRpcErrorCodes[error.code],
              message: error.message,
              data: { code: error.code === 'INVALID_PARAMS' ? 'BAD_REQUEST' : error.code },
            },
          })
        }
      }
      return Array.isArray(payload) ? answers : answers[0]
    },
  )
}
