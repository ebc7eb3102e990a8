import type * as z from 'zod/mini'
import { safeParse } from 'zod/mini'
import { randomId, toBase64Url } from '../protocol/base64.ts'
import { embeddedErrorBody } from '../protocol/embedded/api.ts'
import {
  SESSION_KEY_HEADER,
  SESSION_NONCE_HEADER,
  SESSION_PROOF_WINDOW_MS,
  SESSION_SIGNATURE_HEADER,
  SESSION_TIME_HEADER,
  sessionProofPayload,
} from '../protocol/embedded/sessionProof.ts'

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
  /** The project the frame serves (the key-set proofs name it). */
  readonly projectId: string
  /** Calls a route of `/embedded/v1/` on the frame's own origin and checks the answer with `schema`. */
  request<T extends z.ZodMiniType>(
    method: 'GET' | 'POST',
    path: string,
    schema: T | undefined,
    body?: unknown,
    token?: string,
  ): Promise<z.output<T>>
}

const base64url = (bytes: ArrayBuffer) => toBase64Url(new Uint8Array(bytes))

const hex = (bytes: ArrayBuffer) =>
  Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('')

/**
 * The frame's client of the embedded-wallet API: same origin (no CORS involved), the project in the
 * query, the site it is embedded in as `X-Wallet-Site`, the session as a bearer token. Every request
 * carries this browser's public session key; a session's requests are signed with its private key
 * (bound to this browser: a stolen token alone signs nothing), dated by the service's clock (learnt from
 * each answer's `X-Wallet-Time`). Answers are parsed with the shared schemas; a malformed one counts as a
 * failure.
 *
 * @example
 * const api = createFrameApi({ projectId, site: () => 'https://shop.example', sessionKey: storage.sessionKey })
 * const { action } = await api.request('POST', 'email/connect', emailConnectResponse, body)
 */
export function createFrameApi(options: {
  projectId: string
  site: () => string
  /** This browser's session key pair (see `FrameStorage.sessionKey`); the approval page has none. */
  sessionKey?: () => Promise<CryptoKeyPair>
  fetch?: typeof fetch
  /** The frame's clock (tests inject one). */
  now?: () => number
}): FrameApi {
  const fetchImpl = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args))
  const now = options.now ?? Date.now
  /** The service's clock minus ours, from the last answer. */
  let skew = 0
  const publicKeys = new WeakMap<CryptoKey, Promise<string>>()
  const publicKeyOf = (key: CryptoKey) => {
    let exported = publicKeys.get(key)
    if (!exported) {
      exported = crypto.subtle.exportKey('spki', key).then(base64url)
      publicKeys.set(key, exported)
    }
    return exported
  }

  /** The proof headers of one request of the session: time, nonce and the signature over both. */
  async function sign(keys: CryptoKeyPair, method: string, url: string, body: string) {
    const time = String(Math.round(now() + skew))
    const nonce = randomId()
    const bodySha256 = hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body)))
    const payload = sessionProofPayload({ method, url, bodySha256, time, nonce })
    const signature = await crypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      keys.privateKey,
      new TextEncoder().encode(payload),
    )
    return {
      [SESSION_TIME_HEADER]: time,
      [SESSION_NONCE_HEADER]: nonce,
      [SESSION_SIGNATURE_HEADER]: base64url(signature),
    }
  }

  return {
    projectId: options.projectId,
    async request<T extends z.ZodMiniType>(
      method: 'GET' | 'POST',
      path: string,
      schema: T | undefined,
      body?: unknown,
      token?: string,
    ): Promise<z.output<T>> {
      const url = `/embedded/v1/${path}?projectId=${encodeURIComponent(options.projectId)}`
      const text = body === undefined ? undefined : JSON.stringify(body)
      const send = async () => {
        const headers: Record<string, string> = { 'x-wallet-site': options.site() }
        if (text !== undefined) headers['content-type'] = 'application/json'
        const keys = await options.sessionKey?.()
        if (keys) headers[SESSION_KEY_HEADER] = await publicKeyOf(keys.publicKey)
        if (token) headers.authorization = `Bearer ${token}`
        if (token && keys) {
          Object.assign(headers, await sign(keys, method, url, text ?? ''))
        }
        const skewUsed = skew
        const answer = await fetchImpl(url, {
          method,
          headers,
          credentials: 'omit',
          cache: 'no-store',
          ...(text === undefined ? {} : { body: text }),
        })
        const serverTime = Number(answer.headers.get(SESSION_TIME_HEADER))
        if (Number.isFinite(serverTime) && serverTime > 0) skew = serverTime - now()
        return { answer, skewMoved: Math.abs(skew - skewUsed) > SESSION_PROOF_WINDOW_MS / 2 }
      }
      let response: Response
      try {
        let sent = await send()
        // Signed by a clock the service does not share (the first request of a load): once more, dated
        // by the service's clock.
        if (token && sent.answer.status === 401 && sent.skewMoved) sent = await send()
        response = sent.answer
      } catch {
        throw new ApiError(0, { code: 'NETWORK', message: 'Something went wrong' })
      }
      const answer = await response.text()
      let json: unknown
      try {
        json = answer ? JSON.parse(answer) : undefined
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
