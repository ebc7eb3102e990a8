import { and, eq } from 'drizzle-orm'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import * as z from 'zod/mini'
import type {
  OnrampOptionsResponse,
  OnrampPurchaseResponse,
  OnrampQuoteQuery,
  OnrampQuoteResponse,
  OnrampUrlResponse,
  PaymentCurrency,
} from '../../src/protocol/api/index.ts'
import {
  onrampLimitMessage,
  onrampOptionsResponse,
  onrampPurchaseResponse,
  onrampQuoteQuery,
  onrampQuoteResponse,
  onrampUrlBody,
  onrampUrlResponse,
  withinLimits,
} from '../../src/protocol/api/index.ts'
import { ONRAMP_DEFAULT_PAYMENT_CURRENCIES } from '../../src/protocol/constants.ts'
import type { Db } from '../db/database.ts'
import { onrampPurchases } from '../db/schema.ts'
import { ServiceError } from '../errors.ts'
import { projectOf } from '../http/access.ts'
import type { RateLimiter, RateLimitRules } from '../http/rateLimit.ts'
import { routes } from '../http/route.ts'
import type { OnrampProvider, ProviderCurrencies } from './provider.ts'
import { isWebhookSigned } from './webhook.ts'

export interface OnrampRouteOptions {
  db: Db
  /** null: the operator configured no provider, and every route answers 503 `ONRAMP_NOT_CONFIGURED`. */
  provider: OnrampProvider | null
  /** The webhook's HMAC key; null: the webhook refuses everything. */
  webhookSecret: string | null
  /** How long the provider's currencies are reused, in ms. */
  cacheMs: number
  now?: () => number
  limits: { limiter: RateLimiter; rules: RateLimitRules }
}

/** How far a webhook's timestamp may be from now. */
export const WEBHOOK_TOLERANCE_MS = 5 * 60_000

const purchaseParams = z.object({ id: z.uuid('Expected a purchase id') })

const webhookBody = z.object({
  purchaseId: z.uuid(),
  status: z.enum(['completed', 'failed']),
  txHash: z.optional(z.string().check(z.regex(/^(0x[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{64,88})$/))),
})
const webhookResponse = z.object({ updated: z.int() })

/**
 * The on-ramp API (`/onramp/v1/*`): options (purchase and payment currencies with method limits, SPEC
 * section 9's defaults where the provider gives none), a quote, the provider's checkout URL (the purchase
 * is recorded first), a purchase's status, and the provider's signed completion webhook.
 *
 * @example
 * await app.register(async (scope) => registerOnrampRoutes(scope, { db, provider, webhookSecret, cacheMs, limits }))
 */
export function registerOnrampRoutes(app: FastifyInstance, options: OnrampRouteOptions): void {
  const { db, provider, limits } = options
  const now = options.now ?? Date.now
  const route = routes(app, { tags: ['onramp'], config: { access: 'project' } })
  // What every project route may answer besides its own.
  const refusals = {
    403: { description: "`ONRAMP_DISABLED`: the project's `onramp` feature is off." },
    503: { description: '`ONRAMP_NOT_CONFIGURED`: the operator configured no provider.' },
  }
  const unsold = {
    description:
      "`ONRAMP_CURRENCY_NOT_SUPPORTED` (not sold, or not on that network) or `ONRAMP_AMOUNT_OUT_OF_RANGE` (outside the payment method's limits).",
  }
  let cached: { at: number; value: Promise<ProviderCurrencies> } | undefined

  function providerOrFail(): OnrampProvider {
    if (provider === null)
      throw new ServiceError(503, 'ONRAMP_NOT_CONFIGURED', 'No on-ramp provider is configured')
    return provider
  }

  async function currencies(): Promise<OnrampOptionsResponse> {
    const source = providerOrFail()
    if (!cached || now() - cached.at >= options.cacheMs) {
      const value = source.currencies()
      cached = { at: now(), value }
      value.catch(() => {
        if (cached?.value === value) cached = undefined
      })
    }
    const answer = await cached.value
    return {
      purchaseCurrencies: answer.purchaseCurrencies,
      paymentCurrencies:
        answer.paymentCurrencies && answer.paymentCurrencies.length > 0
          ? answer.paymentCurrencies
          : (ONRAMP_DEFAULT_PAYMENT_CURRENCIES as unknown as PaymentCurrency[]),
    }
  }

  /** Refuses what the provider does not sell, a network it does not deliver on, and amounts outside the method's limits. */
  async function checkQuery(query: OnrampQuoteQuery): Promise<void> {
    const { purchaseCurrencies, paymentCurrencies } = await currencies()
    const bought = purchaseCurrencies.find((currency) => currency.id === query.purchaseCurrency)
    if (!bought?.networks.some((network) => network.chain_id === query.network)) {
      throw new ServiceError(
        400,
        'ONRAMP_CURRENCY_NOT_SUPPORTED',
        `${query.purchaseCurrency} cannot be bought on ${query.network}`,
        { field: 'purchaseCurrency' },
      )
    }
    const paid = paymentCurrencies.find((currency) => currency.id === query.paymentCurrency)
    const limit = paid?.payment_method_limits.find((method) => method.id === query.paymentMethod)
    if (!paid || !limit) {
      throw new ServiceError(
        400,
        'ONRAMP_CURRENCY_NOT_SUPPORTED',
        `${query.paymentCurrency} cannot be paid by ${query.paymentMethod}`,
        { field: 'paymentCurrency' },
      )
    }
    if (!withinLimits(query.amount, limit)) {
      throw new ServiceError(
        400,
        'ONRAMP_AMOUNT_OUT_OF_RANGE',
        onrampLimitMessage(query.paymentMethod, limit.min, limit.max, paid.id),
        { field: 'amount' },
      )
    }
  }

  // A project whose `onramp` feature is off has no on-ramp (403), after the rate limit is taken.
  const take = async (request: FastifyRequest, rule: RateLimitRules['data']) => {
    const project = projectOf(request)
    await limits.limiter.take({ projectId: project.id, address: request.ip }, [[rule, 1]])
    if (!project.features.onramp)
      throw new ServiceError(403, 'ONRAMP_DISABLED', 'The on-ramp is turned off for this project')
  }

  route(
    {
      method: 'GET',
      url: '/onramp/v1/options',
      summary: 'What can be bought, and how it can be paid',
      description: "Purchase currencies with their networks, payment currencies with each method's limits.",
      responses: { ...refusals, 200: { description: 'The options.', schema: onrampOptionsResponse } },
    },
    async (request): Promise<OnrampOptionsResponse> => {
      await take(request, limits.rules.data)
      return currencies()
    },
  )

  route(
    {
      method: 'GET',
      url: '/onramp/v1/quote',
      summary: 'A quote for a purchase',
      query: onrampQuoteQuery,
      responses: {
        ...refusals,
        200: { description: 'What the amount buys, the total and the fee.', schema: onrampQuoteResponse },
        400: unsold,
      },
    },
    async (request, reply, input): Promise<OnrampQuoteResponse> => {
      const query = input.query()
      await take(request, limits.rules.data)
      reply.header('cache-control', 'no-store')
      await checkQuery(query)
      return providerOrFail().quote(query)
    },
  )

  route(
    {
      method: 'POST',
      url: '/onramp/v1/url',
      summary: "The provider's checkout page for a purchase",
      description: 'The purchase is recorded as `pending` first.',
      body: onrampUrlBody,
      responses: {
        ...refusals,
        200: { description: 'The checkout URL and the purchase id.', schema: onrampUrlResponse },
        400: unsold,
      },
    },
    async (request, reply, input): Promise<OnrampUrlResponse> => {
      const body = input.body()
      await take(request, limits.rules.writes('onramp:url'))
      reply.header('cache-control', 'no-store')
      await checkQuery(body)
      const source = providerOrFail()
      const quote = await source.quote(body)
      const [row] = await db
        .insert(onrampPurchases)
        .values({
          projectId: projectOf(request).id,
          provider: source.name,
          address: body.address,
          network: body.network,
          purchaseCurrency: body.purchaseCurrency,
          paymentCurrency: body.paymentCurrency,
          paymentMethod: body.paymentMethod,
          paymentAmount: body.amount,
          purchaseAmount: quote.purchaseAmount.amount,
        })
        .returning({ id: onrampPurchases.id })
      if (!row) throw new Error('The purchase was not recorded')
      try {
        const { url } = await source.checkout({ ...body, reference: row.id })
        return { url, purchaseId: row.id }
      } catch (error) {
        await db.update(onrampPurchases).set({ status: 'failed' }).where(eq(onrampPurchases.id, row.id))
        throw error
      }
    },
  )

  route(
    {
      method: 'GET',
      url: '/onramp/v1/purchases/:id',
      summary: "A purchase's status",
      params: purchaseParams,
      responses: {
        ...refusals,
        200: { description: 'The purchase (`completed` once delivered).', schema: onrampPurchaseResponse },
        404: { description: '`NOT_FOUND`: the project has no such purchase.' },
      },
    },
    async (request, reply, input): Promise<OnrampPurchaseResponse> => {
      const { id } = input.params()
      await take(request, limits.rules.data)
      reply.header('cache-control', 'no-store')
      const [row] = await db
        .select()
        .from(onrampPurchases)
        .where(and(eq(onrampPurchases.id, id), eq(onrampPurchases.projectId, projectOf(request).id)))
      if (!row) throw new ServiceError(404, 'NOT_FOUND', 'No such purchase', { field: 'id' })
      return {
        purchaseId: row.id,
        status: row.status,
        address: row.address,
        network: row.network,
        purchaseAmount: { amount: row.purchaseAmount, currency: row.purchaseCurrency },
        txHash: row.txHash,
      }
    },
  )

  // The provider's server calls this one: no project, no CORS; the HMAC of the raw body is the proof.
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, body),
    )
    routes(scope, { tags: ['onramp'] })(
      {
        method: 'POST',
        url: '/onramp/v1/webhook',
        summary: "The provider's signed word that a purchase completed or failed",
        description:
          "Called by the provider's server, not a page: no project, no CORS. The HMAC of the timestamp and the raw " +
          'body under `ONRAMP_WEBHOOK_SECRET` is the proof; only a pending purchase changes.',
        body: webhookBody,
        headers: [
          {
            name: 'x-onramp-timestamp',
            description: 'When the provider signed, in ms since the epoch (within 5 minutes of now).',
            required: true,
          },
          {
            name: 'x-onramp-signature',
            description: 'The HMAC of the timestamp and the raw body.',
            required: true,
          },
        ],
        responses: {
          200: { description: 'How many purchases changed (0 or 1).', schema: webhookResponse },
          401: { description: 'The signature or the timestamp is not valid.' },
        },
      },
      async (request, reply, input) => {
        const secret = options.webhookSecret
        const timestamp = String(request.headers['x-onramp-timestamp'] ?? '')
        const signature = String(request.headers['x-onramp-signature'] ?? '')
        const raw = typeof request.body === 'string' ? request.body : ''
        const unauthorized = () =>
          new ServiceError(401, 'BAD_REQUEST', 'The webhook signature is not valid', { field: 'signature' })
        if (secret === null) throw unauthorized()
        if (!isWebhookSigned(secret, timestamp, raw, signature)) throw unauthorized()
        const sent = Number(timestamp)
        if (!/^\d{1,16}$/.test(timestamp) || Math.abs(now() - sent) > WEBHOOK_TOLERANCE_MS) {
          throw new ServiceError(401, 'BAD_REQUEST', 'The webhook timestamp is too old or in the future', {
            field: 'timestamp',
          })
        }
        let json: unknown
        try {
          json = JSON.parse(raw)
        } catch {
          throw new ServiceError(400, 'BAD_REQUEST', 'The body is not valid JSON', { field: 'body' })
        }
        const body = input.body(json)
        // Only a pending purchase moves: a replayed or late webhook changes nothing.
        const updated = await db
          .update(onrampPurchases)
          .set({ status: body.status, txHash: body.txHash ?? null, updatedAt: new Date(now()) })
          .where(and(eq(onrampPurchases.id, body.purchaseId), eq(onrampPurchases.status, 'pending')))
          .returning({ id: onrampPurchases.id })
        reply.header('cache-control', 'no-store')
        return { updated: updated.length }
      },
    )
  })
}
