/**
 * The local on-ramp stand-in (development and tests only): a provider that speaks the service's
 * "checkout API" (server/onramp/provider.ts) on loopback, with its own checkout page and a test card
 * form. On "payment" it transfers the bought ERC-20 from its funded account on the local chain to the
 * visitor's address, then tells the service through the signed webhook. No real money, no real card.
 */
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type HDAccount,
  http,
  parseUnits,
} from 'viem'
import {
  type OnrampQuoteResponse,
  onrampQuoteQuery,
  onrampUrlBody,
  type PurchaseCurrency,
} from '../../../src/protocol/api/index.ts'
import { escapeHtml } from '../../http/html.ts'
import { signWebhook } from '../../onramp/webhook.ts'

/** The card number the checkout page accepts; any other is declined. */
export const TEST_CARD_NUMBER = '4242424242424242'
/** The stand-in's fee, in percent of the payment. */
export const STANDIN_FEE_PERCENT = 1.5

/** A token the stand-in sells, on one network. */
export interface StandinToken {
  id: string
  name: string
  symbol: string
  decimals: number
  /** CAIP-2 id, e.g. `eip155:31337`. */
  network: string
  address: Address
  /** USD per whole token. */
  usdPrice: number
}

export interface StartOnrampParameters {
  host?: string
  port: number
  /** JSON-RPC URL of each network it delivers on. */
  chains: Record<string, string>
  /** The funded account it delivers from. */
  sender: HDAccount
  tokens: StandinToken[]
  /** Bearer key the service sends (`ONRAMP_API_KEY`). */
  apiKey: string
  /** The service's webhook URL and its HMAC key (`ONRAMP_WEBHOOK_SECRET`). */
  webhookUrl: string
  webhookSecret: string
}

export interface RunningOnramp {
  url: string
  stop(): Promise<void>
}

interface Session {
  reference: string
  token: StandinToken
  address: Address
  paymentAmount: string
  paymentCurrency: string
  purchaseAmount: string
  state: 'open' | 'paid'
  txHash?: string
}

const MAX_BODY_BYTES = 16_384
const MAX_SESSIONS = 1000

function quoteFor(token: StandinToken, amount: string, currency: string): OnrampQuoteResponse {
  const cents = Math.round(Number(amount) * 100)
  const feeCents = Math.round((cents * STANDIN_FEE_PERCENT) / 100)
  const purchase = (cents - feeCents) / 100 / token.usdPrice
  return {
    purchaseAmount: { amount: purchase.toFixed(Math.min(token.decimals, 6)), currency: token.symbol },
    paymentTotal: { amount: (cents / 100).toFixed(2), currency },
    fee: { amount: (feeCents / 100).toFixed(2), currency },
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) throw new Error('Body too large')
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#111}label{display:block;margin:.75rem 0 .25rem}input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit}button{margin-top:1rem;padding:.6rem 1rem;font:inherit}.error{color:#b00020}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`
}

/**
 * Starts the stand-in on `host:port` (127.0.0.1 by default).
 *
 * @example
 * const onramp = await startOnrampStandin({ port: 8795, chains, sender: devAccount(9), tokens, apiKey, webhookUrl, webhookSecret })
 */
export async function startOnrampStandin(parameters: StartOnrampParameters): Promise<RunningOnramp> {
  const host = parameters.host ?? '127.0.0.1'
  const sessions = new Map<string, Session>()
  const purchaseCurrencies: PurchaseCurrency[] = parameters.tokens.map((token) => ({
    id: token.id,
    name: token.name,
    symbol: token.symbol,
    networks: [
      {
        name: token.network,
        display_name: token.network,
        chain_id: token.network,
        contract_address: token.address,
      },
    ],
  }))
  let base = ''
  // One delivery at a time, so the sender's nonces follow each other.
  let delivering: Promise<unknown> = Promise.resolve()

  const tokenFor = (id: string, network: string) =>
    parameters.tokens.find((token) => token.id === id && token.network === network)

  async function deliver(session: Session): Promise<string> {
    const url = parameters.chains[session.token.network]
    if (!url) throw new Error(`No chain for ${session.token.network}`)
    const transport = http(url)
    const wallet = createWalletClient({ account: parameters.sender, transport })
    const client = createPublicClient({ transport })
    const hash = await wallet.writeContract({
      chain: null,
      address: session.token.address,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [session.address, parseUnits(session.purchaseAmount, session.token.decimals)],
    })
    await client.waitForTransactionReceipt({ hash })
    return hash
  }

  async function notify(session: Session): Promise<void> {
    const body = JSON.stringify({
      purchaseId: session.reference,
      status: 'completed',
      txHash: session.txHash,
    })
    const timestamp = String(Date.now())
    const response = await fetch(parameters.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-onramp-timestamp': timestamp,
        'x-onramp-signature': signWebhook(parameters.webhookSecret, timestamp, body),
      },
      body,
    })
    if (!response.ok) throw new Error(`The service refused the webhook: ${response.status}`)
  }

  const json = (response: ServerResponse, status: number, value: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    response.end(JSON.stringify(value))
  }
  const html = (response: ServerResponse, status: number, body: string) => {
    response.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
    })
    response.end(body)
  }

  async function checkoutForm(response: ServerResponse, id: string, session: Session, error?: string) {
    const total = `${session.paymentAmount} ${session.paymentCurrency}`
    html(
      response,
      error ? 402 : 200,
      page(
        'Test checkout',
        `<p>You buy <strong>${escapeHtml(session.purchaseAmount)} ${escapeHtml(session.token.symbol)}</strong> on ${escapeHtml(session.token.network)} for <strong>${escapeHtml(total)}</strong>, sent to <code>${escapeHtml(session.address)}</code>.</p>
<p>This is the local on-ramp stand-in: no real payment. Card ${TEST_CARD_NUMBER.replace(/(\d{4})/g, '$1 ').trim()} pays; any other is declined.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/checkout/${escapeHtml(id)}">
<label for="card">Card number</label><input id="card" name="card" inputmode="numeric" autocomplete="cc-number" required>
<label for="expiry">Expiry (MM/YY)</label><input id="expiry" name="expiry" autocomplete="cc-exp" required>
<label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required>
<button type="submit">Pay ${escapeHtml(total)}</button>
</form>`,
      ),
    )
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', base)
    const api = url.pathname.startsWith('/v1/')
    if (api && request.headers.authorization !== `Bearer ${parameters.apiKey}`) {
      return json(response, 401, { error: 'Unauthorized' })
    }
    if (request.method === 'GET' && url.pathname === '/v1/currencies') {
      // No payment currencies: the service applies SPEC section 9's limits.
      return json(response, 200, { purchaseCurrencies })
    }
    if (request.method === 'POST' && (url.pathname === '/v1/quotes' || url.pathname === '/v1/sessions')) {
      let input: unknown
      try {
        input = JSON.parse(await readBody(request))
      } catch {
        return json(response, 400, { error: 'Bad body' })
      }
      if (url.pathname === '/v1/quotes') {
        const query = onrampQuoteQuery.safeParse(input)
        const token = query.success ? tokenFor(query.data.purchaseCurrency, query.data.network) : undefined
        if (!query.success || !token) return json(response, 400, { error: 'Bad quote request' })
        return json(response, 200, quoteFor(token, query.data.amount, query.data.paymentCurrency))
      }
      const body = onrampUrlBody.safeParse(input)
      const reference = (input as { reference?: unknown }).reference
      const token = body.success ? tokenFor(body.data.purchaseCurrency, body.data.network) : undefined
      if (!body.success || !token || typeof reference !== 'string' || !body.data.address.startsWith('0x')) {
        return json(response, 400, { error: 'Bad session request' })
      }
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string)
      const id = randomUUID()
      sessions.set(id, {
        reference,
        token,
        address: body.data.address as Address,
        paymentAmount: Number(body.data.amount).toFixed(2),
        paymentCurrency: body.data.paymentCurrency,
        purchaseAmount: quoteFor(token, body.data.amount, body.data.paymentCurrency).purchaseAmount.amount,
        state: 'open',
      })
      return json(response, 200, { url: `${base}/checkout/${id}` })
    }
    const checkout = /^\/checkout\/([0-9a-f-]{36})$/.exec(url.pathname)
    const session = checkout?.[1] ? sessions.get(checkout[1]) : undefined
    if (checkout?.[1] && session) {
      const id = checkout[1]
      if (session.state === 'paid') {
        return html(
          response,
          200,
          page(
            'Payment complete',
            `<p role="status">${escapeHtml(session.purchaseAmount)} ${escapeHtml(session.token.symbol)} sent to <code>${escapeHtml(session.address)}</code> in transaction <code data-tx>${escapeHtml(session.txHash ?? '')}</code>. You can close this tab.</p>`,
          ),
        )
      }
      if (request.method === 'GET') return checkoutForm(response, id, session)
      if (request.method === 'POST') {
        const form = new URLSearchParams(await readBody(request))
        if ((form.get('card') ?? '').replace(/\s+/g, '') !== TEST_CARD_NUMBER) {
          return checkoutForm(response, id, session, 'Your card was declined: use the test card.')
        }
        const run = delivering.then(async () => {
          if (session.state === 'paid') return
          session.txHash = await deliver(session)
          session.state = 'paid'
          await notify(session)
        })
        delivering = run.catch(() => {})
        try {
          await run
        } catch (error) {
          return checkoutForm(response, id, session, `The delivery failed: ${(error as Error).message}`)
        }
        response.writeHead(303, { location: `/checkout/${id}` })
        return void response.end()
      }
    }
    json(response, 404, { error: 'Not found' })
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) json(response, 500, { error: 'Internal error' })
      else response.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(parameters.port, host, () => resolve())
  })
  base = `http://${host}:${(server.address() as AddressInfo).port}`
  return {
    url: base,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
