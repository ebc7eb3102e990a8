import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.ts'
import { onrampPurchases } from '../../../server/db/schema.ts'
import { devAccount } from '../../../server/dev/chain/index.ts'
import { type RunningOnramp, startOnrampStandin } from '../../../server/dev/onramp/index.ts'
import { signWebhook } from '../../../server/onramp/webhook.ts'
import { updateProject } from '../../../server/projects/store.ts'
import {
  apiErrorBody,
  onrampOptionsResponse,
  onrampQuoteResponse,
  onrampUrlResponse,
} from '../../../src/protocol/api/index.ts'
import { ONRAMP_DEFAULT_PAYMENT_CURRENCIES } from '../../../src/protocol/constants.ts'
import { freePort, openTestDatabase, sdk, type TestDatabase, testLogger } from './helpers.ts'

const site = 'http://localhost:5173'
const usdc = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const visitor = devAccount(1).address
const secret = 'a'.repeat(64)

let testDb: TestDatabase
let app: FastifyInstance
let standin: RunningOnramp
let serviceUrl: string

before(async () => {
  const servicePort = await freePort()
  serviceUrl = `http://127.0.0.1:${servicePort}`
  standin = await startOnrampStandin({
    port: 0,
    chains: {},
    sender: devAccount(9),
    tokens: [
      {
        id: 'USDC',
        name: 'USD Coin',
        symbol: 'USDC',
        decimals: 6,
        network: 'eip155:31337',
        address: usdc,
        usdPrice: 1,
      },
    ],
    apiKey: 'test-key',
    webhookUrl: `${serviceUrl}/onramp/v1/webhook`,
    webhookSecret: secret,
  })
  testDb = await openTestDatabase('onramp')
  app = await buildApp(
    testDb.config({
      devOrigins: [site],
      rpcUpstreams: {},
      onramp: { providerUrl: standin.url, apiKey: 'test-key', webhookSecret: secret, senderAddresses: {} },
    }),
    { database: testDb.database, logger: testLogger },
  )
})

after(async () => {
  await app?.close()
  await standin?.stop()
  await testDb?.close()
})

const errorOf = (body: string) => apiErrorBody.parse(JSON.parse(body)).error
const get = (path: string) =>
  app.inject({ url: `${path}${path.includes('?') ? '&' : '?'}${sdk()}`, headers: { origin: site } })
const quote = (amount: string, paymentMethod = 'card', extra = '') =>
  get(
    `/onramp/v1/quote?purchaseCurrency=USDC&paymentCurrency=USD&amount=${amount}&network=eip155:31337&paymentMethod=${paymentMethod}${extra}`,
  )

describe('on-ramp', () => {
  test("default: options list the provider's currencies and SPEC section 9's payment limits", async () => {
    const response = await get('/onramp/v1/options')
    assert.equal(response.statusCode, 200, response.body)
    const options = onrampOptionsResponse.parse(response.json())
    assert.deepEqual(options.purchaseCurrencies, [
      {
        id: 'USDC',
        name: 'USD Coin',
        symbol: 'USDC',
        networks: [
          {
            name: 'eip155:31337',
            display_name: 'eip155:31337',
            chain_id: 'eip155:31337',
            contract_address: usdc,
          },
        ],
      },
    ])
    assert.deepEqual(options.paymentCurrencies, ONRAMP_DEFAULT_PAYMENT_CURRENCIES)
  })

  test('default: a quote of 50 USD by card is purchaseAmount.amount 49.25 USDC after the 1.5 % fee', async () => {
    const response = await quote('50')
    assert.equal(response.statusCode, 200, response.body)
    assert.deepEqual(onrampQuoteResponse.parse(response.json()), {
      purchaseAmount: { amount: '49.250000', currency: 'USDC' },
      paymentTotal: { amount: '50.00', currency: 'USD' },
      fee: { amount: '0.75', currency: 'USD' },
    })
  })

  test('error: amounts outside the card and ACH limits are refused with the limits in the message', async () => {
    for (const [amount, method, message] of [
      ['9.99', 'card', 'Card payments take 10.00 to 7500.00 USD'],
      ['7500.01', 'card', 'Card payments take 10.00 to 7500.00 USD'],
      ['9', 'ach_bank_account', 'Bank transfer (ACH) payments take 10.00 to 25000.00 USD'],
      ['25000.01', 'ach_bank_account', 'Bank transfer (ACH) payments take 10.00 to 25000.00 USD'],
    ] as const) {
      const response = await quote(amount, method)
      assert.equal(response.statusCode, 400, `${amount} ${method}`)
      assert.deepEqual(errorOf(response.body), {
        code: 'ONRAMP_AMOUNT_OUT_OF_RANGE',
        message,
        field: 'amount',
      })
    }
    assert.equal((await quote('7500', 'card')).statusCode, 200)
    assert.equal((await quote('25000', 'ach_bank_account')).statusCode, 200)
    assert.equal((await quote('10', 'ach_bank_account')).statusCode, 200)
  })

  test('error: a currency or network the provider does not sell, and malformed amounts, are refused', async () => {
    const eth = await get(
      '/onramp/v1/quote?purchaseCurrency=ETH&paymentCurrency=USD&amount=50&network=eip155:31337&paymentMethod=card',
    )
    assert.equal(errorOf(eth.body).code, 'ONRAMP_CURRENCY_NOT_SUPPORTED')
    const otherNetwork = await get(
      '/onramp/v1/quote?purchaseCurrency=USDC&paymentCurrency=USD&amount=50&network=eip155:1&paymentMethod=card',
    )
    assert.equal(errorOf(otherNetwork.body).message, 'USDC cannot be bought on eip155:1')
    const gbp = await get(
      '/onramp/v1/quote?purchaseCurrency=USDC&paymentCurrency=GBP&amount=50&network=eip155:31337&paymentMethod=card',
    )
    assert.equal(errorOf(gbp.body).code, 'ONRAMP_CURRENCY_NOT_SUPPORTED')
    for (const amount of ['-5', '1e3', '50.001', '50,00', '9999999999']) {
      const response = await quote(encodeURIComponent(amount))
      assert.equal(response.statusCode, 400, amount)
      assert.equal(errorOf(response.body).field, 'amount')
    }
  })

  test("default: the checkout URL is the provider's page and the purchase is recorded as pending", async () => {
    const response = await app.inject({
      method: 'POST',
      url: `/onramp/v1/url?${sdk()}`,
      headers: { origin: site, 'content-type': 'application/json' },
      payload: JSON.stringify({
        purchaseCurrency: 'USDC',
        paymentCurrency: 'USD',
        amount: '50',
        network: 'eip155:31337',
        paymentMethod: 'card',
        address: visitor,
      }),
    })
    assert.equal(response.statusCode, 200, response.body)
    const { url, purchaseId } = onrampUrlResponse.parse(response.json())
    assert.ok(url.startsWith(`${standin.url}/checkout/`), url)
    const checkout = await fetch(url)
    assert.match(await checkout.text(), /49\.250000 USDC/)
    const [row] = await testDb.database.db
      .select()
      .from(onrampPurchases)
      .where(eq(onrampPurchases.id, purchaseId))
    assert.equal(row?.status, 'pending')
    assert.equal(row?.purchaseAmount, '49.250000')
    assert.equal(row?.address, visitor)
  })
})

describe('on-ramp webhook, as an attacker', () => {
  async function pendingPurchase(): Promise<string> {
    const [row] = await testDb.database.db
      .insert(onrampPurchases)
      .values({
        projectId: 'dev-project',
        provider: 'test',
        address: visitor,
        network: 'eip155:31337',
        purchaseCurrency: 'USDC',
        paymentCurrency: 'USD',
        paymentMethod: 'card',
        paymentAmount: '50',
        purchaseAmount: '49.25',
      })
      .returning({ id: onrampPurchases.id })
    assert.ok(row)
    return row.id
  }
  const send = (body: string, headers: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: '/onramp/v1/webhook',
      headers: { 'content-type': 'application/json', ...headers },
      payload: body,
    })
  const statusOf = async (id: string) =>
    (await testDb.database.db.select().from(onrampPurchases).where(eq(onrampPurchases.id, id)))[0]?.status

  test('error: unsigned, wrongly signed, stale and tampered webhooks change nothing', async () => {
    const id = await pendingPurchase()
    const body = JSON.stringify({ purchaseId: id, status: 'completed', txHash: `0x${'ab'.repeat(32)}` })
    const timestamp = String(Date.now())
    assert.equal((await send(body, {})).statusCode, 401)
    assert.equal(
      (
        await send(body, {
          'x-onramp-timestamp': timestamp,
          'x-onramp-signature': signWebhook('b'.repeat(64), timestamp, body),
        })
      ).statusCode,
      401,
    )
    const old = String(Date.now() - 10 * 60_000)
    assert.equal(
      (await send(body, { 'x-onramp-timestamp': old, 'x-onramp-signature': signWebhook(secret, old, body) }))
        .statusCode,
      401,
    )
    const tampered = body.replace('completed', 'failed')
    assert.equal(
      (
        await send(tampered, {
          'x-onramp-timestamp': timestamp,
          'x-onramp-signature': signWebhook(secret, timestamp, body),
        })
      ).statusCode,
      401,
    )
    assert.equal(await statusOf(id), 'pending')

    const signed = await send(body, {
      'x-onramp-timestamp': timestamp,
      'x-onramp-signature': signWebhook(secret, timestamp, body),
    })
    assert.equal(signed.statusCode, 200, signed.body)
    assert.equal(await statusOf(id), 'completed')
    // A replay of a later "failed" cannot undo a completed purchase.
    const failed = JSON.stringify({ purchaseId: id, status: 'failed' })
    const replay = await send(failed, {
      'x-onramp-timestamp': timestamp,
      'x-onramp-signature': signWebhook(secret, timestamp, failed),
    })
    assert.deepEqual(replay.json(), { updated: 0 })
    assert.equal(await statusOf(id), 'completed')
  })

  test('error: the webhook refuses bodies over 4 KiB', async () => {
    const body = JSON.stringify({
      purchaseId: '00000000-0000-0000-0000-000000000000',
      status: 'completed',
      pad: 'x'.repeat(5000),
    })
    const timestamp = String(Date.now())
    const response = await send(body, {
      'x-onramp-timestamp': timestamp,
      'x-onramp-signature': signWebhook(secret, timestamp, body),
    })
    assert.equal(response.statusCode, 413)
  })

  test('error: a project whose onramp feature is off answers 403 ONRAMP_DISABLED', async () => {
    await updateProject(testDb.database.db, 'dev-project', { features: { onramp: false } })
    try {
      const response = await quote('50')
      assert.equal(response.statusCode, 403)
      assert.equal(errorOf(response.body).code, 'ONRAMP_DISABLED')
    } finally {
      await updateProject(testDb.database.db, 'dev-project', { features: { onramp: true } })
    }
  })

  test('error: without a configured provider every on-ramp route answers 503', async () => {
    const bare = await buildApp(testDb.config({ devOrigins: [site], rpcUpstreams: {} }), {
      database: testDb.database,
      logger: testLogger,
    })
    try {
      const response = await bare.inject({ url: `/onramp/v1/options?${sdk()}`, headers: { origin: site } })
      assert.equal(response.statusCode, 503)
      assert.deepEqual(errorOf(response.body), {
        code: 'ONRAMP_NOT_CONFIGURED',
        message: 'No on-ramp provider is configured',
      })
    } finally {
      await bare.close()
    }
  })
})
