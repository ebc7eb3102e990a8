import type * as z from 'zod/mini'
import { safeParse } from 'zod/mini'
import { embeddedErrorBody } from '../protocol/embedded/api.ts'

/** An answer of the embedded-wallet API that is not a success, with what the frame tells the app. */
export class ApiError extends Error {
  override name = 'ApiError'
  readonly status: number
  readonly code: string
  readonly secondsLeft: number | undefined
  readonly attemptsLeft: number | undefined
  readonly rpcCode: number | undefined
  readonly rpcData: unknown
  constructor(
    status: number,
    body: {
      code: string
      message: string
      secondsLeft?: number | undefined
      attemptsLeft?: number | undefined
      rpcCode?: number | undefined
      rpcData?: unknown
    },
  ) {
    super(body.message)
    this.status = status
    this.code = body.code
    this.secondsLeft = body.secondsLeft
    this.attemptsLeft = body.attemptsLeft
    this.rpcCode = body.rpcCode
    this.rpcData = body.rpcData
  }
}

export interface FrameApi {
  /** Calls a route of `/embedded/v1/` on the frame's own origin and checks the answer with `schema`. */
  request<T extends z.ZodMiniType>(
    method: 'GET' | 'POST',
    path: string,
    schema: T | undefined,
    body?: unknown,
    token?: string,
  ): Promise<z.output<T>>
}

/**
 * The frame's client of the embedded-wallet API: same origin (no CORS involved), the project in the
 * query, the site it is embedded in as `X-Wallet-Site`, the session as a bearer token. Answers are
 * parsed with the shared schemas; a malformed one counts as a failure.
 *
 * @example
 * const api = createFrameApi({ projectId, site: 'https://shop.example' })
 * const { action } = await api.request('POST', 'email/connect', emailConnectResponse, body)
 */
export function createFrameApi(options: {
  projectId: string
  site: () => string
  fetch?: typeof fetch
}): FrameApi {
  const fetchImpl = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args))
  return {
    async request<T extends z.ZodMiniType>(
      method: 'GET' | 'POST',
      path: string,
      schema: T | undefined,
      body?: unknown,
      token?: string,
    ): Promise<z.output<T>> {
      const headers: Record<string, string> = { 'x-wallet-site': options.site() }
      if (body !== undefined) headers['content-type'] = 'application/json'
      if (token) headers.authorization = `Bearer ${token}`
      let response: Response
      try {
        response = await fetchImpl(
          `/embedded/v1/${path}?projectId=${encodeURIComponent(options.projectId)}`,
          {
            method,
            headers,
            credentials: 'omit',
            cache: 'no-store',
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          },
        )
      } catch {
        throw new ApiError(0, { code: 'NETWORK', message: 'Something went wrong' })
      }
      const text = await response.text()
      let json: unknown
      try {
        json = text ? JSON.parse(text) : undefined
      } catch {
        json = undefined
      }
      if (!response.ok) {
        const parsed = safeParse(embeddedErrorBody, json)
        throw new ApiError(
          response.status,
          parsed.success ? parsed.data.error : { code: 'INTERNAL_ERROR', message: 'An error occurred' },
        )
      }
      if (!schema) return undefined as z.output<T>
      const parsed = safeParse(schema, json)
      if (!parsed.success)
        throw new ApiError(response.status, { code: 'INVALID_RESPONSE', message: 'An error occurred' })
      return parsed.data as z.output<T>
    },
  }
}
