import type * as z from 'zod/mini'
import type { BaseError } from '../errors/index.ts'
import {
  GasPriceNetworkNotSupportedError,
  InvalidAppConfigurationError,
  InvalidProjectIdError,
  InvalidResponseError,
  ProjectIdNotConfiguredError,
  RequestTimeoutError,
  SwapNoLiquidityError,
  SwapQuoteExpiredError,
  SwapsNetworkNotSupportedError,
  UnknownError,
  ValidationError,
} from '../errors/index.ts'
import { apiErrorBody } from '../protocol/api/errorBody.ts'
import {
  HTTP_RETRY_BASE_DELAY_MS,
  HTTP_RETRY_COUNT,
  HTTP_RETRY_STATUSES,
  QUERY_RETRY_BASE_DELAY_MS,
  QUERY_RETRY_FACTOR,
  QUERY_RETRY_MAX_DELAY_MS,
} from '../protocol/constants.ts'
import { serviceUrl } from './serviceUrl.ts'

export { SDK_TYPE, SDK_VERSION } from './serviceUrl.ts'

const REQUEST_TIMEOUT_MS = 10_000

export interface HttpClientOptions {
  baseUrl: string
  projectId: string | undefined
  fetch: typeof fetch
  /** Waits between retries; injected so tests control time. */
  sleep?: (ms: number) => Promise<void>
}

export interface HttpClient {
  readonly baseUrl: string
  /** GET a JSON answer, validated by `schema`. */
  getJson<T>(
    path: string,
    query: Record<string, string | number | undefined>,
    schema: z.ZodMiniType<T>,
  ): Promise<T>
  /** POST a JSON body; resolves on any 2xx. */
  postJson(path: string, body: unknown, options?: { keepalive?: boolean }): Promise<void>
  /** POST a JSON body and read a JSON answer validated by `schema` (`headers` e.g. an Authorization). */
  request<T>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    schema: z.ZodMiniType<T> | undefined,
    headers?: Record<string, string>,
  ): Promise<T | undefined>
  /** The URL of a path with the project query parameters (for images and the RPC proxy). */
  url(path: string, query?: Record<string, string | number | undefined>): string
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Query retry back-off (SPEC section 9): 1 s, doubling, at most 30 s. */
export const queryBackoffMs = (attempt: number) =>
  Math.min(QUERY_RETRY_BASE_DELAY_MS * QUERY_RETRY_FACTOR ** attempt, QUERY_RETRY_MAX_DELAY_MS)

function errorFrom(status: number, body: unknown, path: string): BaseError {
  const parsed = apiErrorBody.safeParse(body)
  const code = parsed.success ? parsed.data.error.code : undefined
  const details = parsed.success ? parsed.data.error.message : `HTTP ${status} from ${path}`
  if (code === 'INVALID_APP_CONFIGURATION' || (status === 403 && !code))
    return new InvalidAppConfigurationError()
  if (code === 'INVALID_PROJECT_ID') return new InvalidProjectIdError()
  if (code === 'PROJECT_ID_NOT_CONFIGURED') return new ProjectIdNotConfiguredError()
  if (code === 'SWAPS_NETWORK_NOT_SUPPORTED') return new SwapsNetworkNotSupportedError()
  if (code === 'GAS_PRICE_NETWORK_NOT_SUPPORTED') return new GasPriceNetworkNotSupportedError()
  if (code === 'SWAP_NO_LIQUIDITY') return new SwapNoLiquidityError()
  if (code === 'SWAP_QUOTE_EXPIRED') return new SwapQuoteExpiredError({ details })
  if (code === 'SWAP_INSUFFICIENT_BALANCE')
    return new ValidationError('Insufficient balance', {
      messageId: 'insufficientBalance',
      fields: ['amount'],
    })
  // An answer, not a failure: nobody holds the name (the modal caches it as such).
  if (code === 'NAME_NOT_FOUND')
    return new ValidationError(details, { messageId: 'nameNotFound', fields: ['name'] })
  return new UnknownError({ message: details })
}

/**
 * The client of the companion service (SPEC section 9): every request carries `projectId`, `st`
 * and `sv`; 403, 408, 413, 429 and 5xx answers are retried 3 times with a 150 ms base delay
 * (doubling), as are network failures; every JSON answer is validated.
 *
 * @example
 * const http = createHttpClient({ baseUrl: 'http://127.0.0.1:8787', projectId: 'dev-project', fetch })
 * const { data, count } = await http.getJson('/getWallets', { page: 1, entries: 40 }, getWalletsResponse)
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const sleep = options.sleep ?? wait

  const url: HttpClient['url'] = (path, query) => serviceUrl(baseUrl, options.projectId, path, query)

  async function send(path: string, target: string, init: RequestInit): Promise<Response> {
    let lastError: BaseError | undefined
    for (let attempt = 0; attempt <= HTTP_RETRY_COUNT; attempt++) {
      if (attempt > 0) await sleep(HTTP_RETRY_BASE_DELAY_MS * 2 ** (attempt - 1))
      const controller = new AbortController()
      const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS)
      try {
        const response = await options.fetch(target, { ...init, signal: controller.signal })
        if (response.ok) return response
        const body = await response.json().catch(() => undefined)
        lastError = errorFrom(response.status, body, path)
        if (!HTTP_RETRY_STATUSES.includes(response.status)) throw lastError
      } catch (error) {
        if (error === lastError) throw error
        lastError = controller.signal.aborted
          ? new RequestTimeoutError({ method: path, timeoutMs: REQUEST_TIMEOUT_MS })
          : new UnknownError({
              message: `The wallet service at ${baseUrl} could not be reached`,
              cause: error,
            })
      } finally {
        clearTimeout(timer)
      }
    }
    throw lastError ?? new UnknownError({ message: 'Request failed' })
  }

  return {
    baseUrl,
    url,
    async getJson(path, query, schema) {
      const response = await send(path, url(path, query), { method: 'GET', credentials: 'omit' })
      const body: unknown = await response.json().catch(() => undefined)
      const parsed = schema.safeParse(body)
      if (!parsed.success) throw new InvalidResponseError({ method: `GET ${path}`, received: body })
      return parsed.data
    },
    async request(method, path, body, schema, headers = {}) {
      const response = await send(path, url(path), {
        method,
        credentials: 'omit',
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      if (!schema) return undefined
      const answer: unknown = await response.json().catch(() => undefined)
      const parsed = schema.safeParse(answer)
      if (!parsed.success) throw new InvalidResponseError({ method: `${method} ${path}`, received: answer })
      return parsed.data
    },
    async postJson(path, body, postOptions = {}) {
      await send(path, url(path), {
        method: 'POST',
        credentials: 'omit',
        // text/plain keeps the request "simple" (no CORS preflight), as sendBeacon sends it.
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        body: JSON.stringify(body),
        keepalive: postOptions.keepalive ?? false,
      })
    },
  }
}
