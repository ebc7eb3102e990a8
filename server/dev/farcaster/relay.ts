/**
 * A local stand-in for the Farcaster auth relay (relay.farcaster.xyz), speaking its channel routes as
 * `@farcaster/auth-client` calls them: `POST /v1/channel` (an app opens a channel: 201 with
 * `channelToken`, `url`, `nonce`), `GET /v1/channel/status` (bearer channel token: 202 while
 * pending, 200 once completed with the message, signature, fid, username, pfpUrl) and
 * `POST /v1/channel/authenticate` (the Farcaster app, with the bearer channel token and the relay key
 * in `X-Farcaster-Auth-Relay-Key`, delivers the signed approval). Channels expire; an unknown or
 * expired channel token is 401, as at the real relay. Loopback only; dev and tests.
 *
 * One route is the stand-in's own: `POST /v1/channel/decline` (same credentials as authenticate) marks
 * the channel `declined`, so the demo app's Decline reaches the page. The real relay has no decline:
 * a Farcaster app that declines leaves the channel pending until it expires, which the service shows
 * as an expired code.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { z } from 'zod'

const CHANNEL_TTL_MS = 5 * 60_000
const MAX_CHANNELS = 1_000
const MAX_BODY_BYTES = 16_384

const text = z.string().min(1).max(2_048)
const createRequest = z.object({
  siweUri: z.url().max(2_048),
  domain: text,
  nonce: z.optional(z.string().regex(/^[A-Za-z0-9]{8,64}$/)),
  notBefore: z.optional(text),
  expirationTime: z.optional(text),
  requestId: z.optional(text),
  redirectUrl: z.optional(z.url().max(2_048)),
  acceptAuthAddress: z.optional(z.boolean()),
})
const authenticateRequest = z.object({
  message: z.string().min(1).max(4_096),
  signature: z.string().regex(/^0x[0-9a-fA-F]{2,2048}$/),
  authMethod: z.optional(z.enum(['custody', 'authAddress'])),
  fid: z.number().int().positive(),
  username: z.optional(z.string().max(64)),
  bio: z.optional(z.string().max(512)),
  displayName: z.optional(z.string().max(128)),
  pfpUrl: z.optional(z.url().max(2_048)),
})

interface Channel {
  state: 'pending' | 'completed' | 'declined'
  nonce: string
  url: string
  signatureParams: z.infer<typeof createRequest>
  acceptAuthAddress: boolean
  approval?: z.infer<typeof authenticateRequest>
  metadata: { ip: string; userAgent: string }
  expiresAt: number
}

export interface FarcasterRelayOptions {
  /** 0 for a free port. */
  port: number
  /** The Farcaster app's sign-in page the channel URL opens (the demo app in dev). */
  appUrl: string
  /** The key a Farcaster app presents to deliver approvals. */
  relayKey: string
  /** Channel lifetime (default 5 minutes). */
  ttlMs?: number
  now?: () => number
}

export interface FarcasterRelay {
  url: string
  stop(): Promise<void>
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** A JSON body of at most `limit` bytes (the stand-ins' requests are small). */
export async function readJson(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  let size = 0
  const chunks: Buffer[] = []
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw new Error('too large')
    chunks.push(chunk)
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'))
}

/**
 * Starts the relay stand-in on 127.0.0.1.
 *
 * @example
 * const relay = await startFarcasterRelay({ port: 0, appUrl: 'http://127.0.0.1:8792/', relayKey })
 * const app = createAppClient({ relay: relay.url, ethereum: viemConnector({ rpcUrl }) })
 */
export async function startFarcasterRelay(options: FarcasterRelayOptions): Promise<FarcasterRelay> {
  const now = options.now ?? Date.now
  const ttl = options.ttlMs ?? CHANNEL_TTL_MS
  const channels = new Map<string, Channel>()

  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    response.end(JSON.stringify(body))
  }
  const channelOf = (request: IncomingMessage) => {
    const token = /^Bearer ([A-Za-z0-9_-]{1,64})$/.exec(request.headers.authorization ?? '')?.[1]
    const channel = token ? channels.get(token) : undefined
    if (!token || !channel) return undefined
    if (channel.expiresAt <= now()) {
      channels.delete(token)
      return undefined
    }
    return channel
  }
  const statusOf = (channel: Channel) => ({
    state: channel.state,
    nonce: channel.nonce,
    url: channel.url,
    ...(channel.approval ?? {}),
    signatureParams: channel.signatureParams,
    metadata: channel.metadata,
    acceptAuthAddress: channel.acceptAuthAddress,
  })

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const path = new URL(request.url ?? '/', 'http://relay').pathname
    if (request.method === 'POST' && path === '/v1/channel') {
      const parsed = createRequest.safeParse(await readJson(request).catch(() => undefined))
      if (!parsed.success) return send(response, 400, { error: 'Validation error' })
      for (const [token, channel] of channels) if (channel.expiresAt <= now()) channels.delete(token)
      if (channels.size >= MAX_CHANNELS) return send(response, 429, { error: 'Too many channels' })
      const channelToken = randomBytes(24).toString('base64url')
      const nonce = parsed.data.nonce ?? randomBytes(12).toString('hex')
      const url = new URL(options.appUrl)
      url.searchParams.set('channelToken', channelToken)
      url.searchParams.set('nonce', nonce)
      url.searchParams.set('siweUri', parsed.data.siweUri)
      url.searchParams.set('domain', parsed.data.domain)
      channels.set(channelToken, {
        state: 'pending',
        nonce,
        url: url.href,
        signatureParams: { ...parsed.data, nonce },
        acceptAuthAddress: parsed.data.acceptAuthAddress ?? true,
        metadata: { ip: request.socket.remoteAddress ?? '', userAgent: request.headers['user-agent'] ?? '' },
        expiresAt: now() + ttl,
      })
      return send(response, 201, { channelToken, url: url.href, nonce })
    }
    if (request.method === 'GET' && path === '/v1/channel/status') {
      const channel = channelOf(request)
      if (!channel) return send(response, 401, { error: 'Unauthorized' })
      return send(response, channel.state === 'pending' ? 202 : 200, statusOf(channel))
    }
    if (request.method === 'POST' && path === '/v1/channel/authenticate') {
      const key = request.headers['x-farcaster-auth-relay-key']
      if (typeof key !== 'string' || !sameSecret(key, options.relayKey))
        return send(response, 401, { error: 'Unauthorized' })
      const channel = channelOf(request)
      if (!channel) return send(response, 401, { error: 'Unauthorized' })
      const parsed = authenticateRequest.safeParse(await readJson(request).catch(() => undefined))
      if (!parsed.success) return send(response, 400, { error: 'Validation error' })
      if (channel.state !== 'pending') return send(response, 409, { error: 'Channel already completed' })
      channel.state = 'completed'
      channel.approval = parsed.data
      return send(response, 201, statusOf(channel))
    }
    if (request.method === 'POST' && path === '/v1/channel/decline') {
      const key = request.headers['x-farcaster-auth-relay-key']
      if (typeof key !== 'string' || !sameSecret(key, options.relayKey))
        return send(response, 401, { error: 'Unauthorized' })
      const channel = channelOf(request)
      if (!channel) return send(response, 401, { error: 'Unauthorized' })
      if (channel.state !== 'pending') return send(response, 409, { error: 'Channel already completed' })
      channel.state = 'declined'
      return send(response, 200, statusOf(channel))
    }
    return send(response, 404, { error: 'Not found' })
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => send(response, 400, { error: 'Bad request' }))
  })
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
