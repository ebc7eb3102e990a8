import assert from 'node:assert/strict'
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { FarcasterConfig, ServiceConfig, SocialConfig } from '../../../server/config.ts'
import { type CaughtMail, type MailSink, startMailSink } from '../../../server/dev/mail/index.ts'
import { createEmbeddedWallet, type EmbeddedWallet } from '../../../server/embedded/index.ts'
import { type KekRing, kekRing } from '../../../server/embedded/kek.ts'
import { buildFrameApp } from '../../../server/frame/app.ts'
import { createMailer } from '../../../server/mail/mailer.ts'
import { createProject } from '../../../server/projects/store.ts'
import { createRpcForwarder } from '../../../server/rpc/forward.ts'
import { createFrameApi } from '../../../src/frame/api.ts'
import { frameStorage } from '../../../src/frame/storage.ts'
import {
  type AccountTypePreview,
  type ApprovalUi,
  createFrameWallet,
  type FrameAnswer,
  userRejected,
} from '../../../src/frame/wallet.ts'
import type { AppEvent, AppEventType, ApprovalPreview } from '../../../src/protocol/embedded/index.ts'
import {
  appEvent,
  type EmbeddedUser,
  emailConnectResponse,
  frameAnswerFor,
  SESSION_KEY_HEADER,
  SESSION_NONCE_HEADER,
  SESSION_SIGNATURE_HEADER,
  SESSION_TIME_HEADER,
  type SessionResponse,
  sessionProofPayload,
  sessionResponse,
} from '../../../src/protocol/embedded/index.ts'
import { MemoryStorage } from '../memoryStorage.ts'
import { deviceSharesOf } from './frame-device-shares.ts'
import { type TestDatabase, testLogger } from './helpers.ts'

export const FRAME_ORIGIN = 'http://127.0.0.1:8788'
export const SITE = 'https://shop.example'

/** The service's clock, moved by the tests. */
export const clock = { now: Date.parse('2026-11-23T12:00:00.000Z') }

/** A browser's session key as the frame makes one (ECDSA P-256), played by the tests. */
export interface TestSessionKey {
  privateKey: KeyObject
  /** SPKI, URL-safe base64: the `x-wallet-key` header. */
  publicKey: string
}

/** A new browser key, the one a session is bound to. */
export function newSessionKey(): TestSessionKey {
  const pair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  return {
    privateKey: pair.privateKey,
    publicKey: pair.publicKey.export({ format: 'der', type: 'spki' }).toString('base64url'),
  }
}

/** The proof headers of one session request, as the frame's api.ts makes them. */
export function proofHeaders(
  key: TestSessionKey,
  request: { method: string; url: string; body: string; time?: number; nonce?: string },
): Record<string, string> {
  const time = String(request.time ?? clock.now)
  const nonce = request.nonce ?? randomBytes(16).toString('base64url')
  const payload = sessionProofPayload({
    method: request.method,
    url: request.url,
    bodySha256: createHash('sha256').update(request.body).digest('hex'),
    time,
    nonce,
  })
  const signature = sign('sha256', Buffer.from(payload), { key: key.privateKey, dsaEncoding: 'ieee-p1363' })
  return {
    [SESSION_TIME_HEADER]: time,
    [SESSION_NONCE_HEADER]: nonce,
    [SESSION_SIGNATURE_HEADER]: signature.toString('base64url'),
  }
}

export interface EmbeddedTestApp {
  app: FastifyInstance
  wallet: EmbeddedWallet
  sink: MailSink
  config: ServiceConfig
  projectId: string
  /** A request as the frame makes it: same origin, the site header, JSON. */
  call(
    path: string,
    body?: unknown,
    options?: {
      token?: string
      site?: string
      origin?: string | null
      method?: 'GET' | 'POST'
      project?: string
      /** The client's address (default: a new one per call, so per-client limits stay out of the way). */
      ip?: string
      /**
       * The browser key the request shows and signs with (default: the app's one browser key);
       * null: none, as a copied token replayed from elsewhere would come.
       */
      key?: TestSessionKey | null
      /** Extra or replacing headers (a replayed signature, a forged time). */
      headers?: Record<string, string>
    },
  ): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, unknown> }>
  /** Mail the sink caught for an address, newest first. */
  mailTo(address: string): CaughtMail[]
  /** The browser key `call` uses by default. */
  browserKey: TestSessionKey
  close(): Promise<void>
}

/** A stand-in for the built frame: the pages the frame server serves (their content does not matter here). */
/** The fixture frame page's import map (the one inline script its CSP allows, by hash). */
export const FRAME_IMPORT_MAP = JSON.stringify({
  integrity: {
    '/assets/frame-abc.js': `sha384-${createHash('sha384').update('export {}').digest('base64')}`,
  },
})

async function frameFixture(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'frame-'))
  await mkdir(join(dir, 'assets'))
  await writeFile(
    join(dir, 'index.html'),
    // As the pinned build writes it (scripts/sriPlugin.ts): an import map with its chunks' integrity.
    `<!doctype html><html><head><title>frame</title><script type="importmap">${FRAME_IMPORT_MAP}</script></head><body></body></html>`,
  )
  await writeFile(
    join(dir, 'device.html'),
    '<!doctype html><html><head><title>device</title></head><body></body></html>',
  )
  await writeFile(
    join(dir, 'social.html'),
    '<!doctype html><html><head><title>social</title></head><body></body></html>',
  )
  await writeFile(
    join(dir, 'approve.html'),
    '<!doctype html><html><head><title>approve</title></head><body></body></html>',
  )
  await writeFile(join(dir, 'assets', 'frame-abc.js'), 'export {}')
  return dir
}

/**
 * The frame origin's app on a test database, with a real mail sink on loopback and a project that
 * allows {@link SITE}.
 *
 * @example
 * const t = await startEmbeddedTestApp(testDb, 'login')
 * const { body } = await t.call('/embedded/v1/email/connect', { email, deviceId, origin: SITE })
 */
export async function startEmbeddedTestApp(
  testDb: TestDatabase,
  projectId: string,
  overrides: {
    rpcUpstreams?: Record<string, string>
    bundlerUpstreams?: Record<string, string>
    deviceWaitMs?: number
    /** Another mail server's URL (one that refuses), or null: no `SMTP_URL`. Default: the sink. */
    smtpUrl?: string | null
    /** The social providers (default: none configured). */
    social?: SocialConfig
    /** The Farcaster relay and chain-10 RPC (default: the config's). */
    farcaster?: FarcasterConfig
    /** How long a Farcaster finish waits (default 0: it asks the relay once). */
    farcasterWaitMs?: number
    /** The project's hourly budget of sign-in mails (`WALLET_MAILS_PER_HOUR`; default the config's). */
    mailsPerHour?: number
    /** The operator's price source (`PRICE_SOURCE_URL`; default none). */
    priceSourceUrl?: string
    /** A logger whose lines the test reads (default: the silent test logger). */
    logger?: typeof testLogger
    /** The project is in the database already (written by an older schema); default: created here. */
    projectExists?: boolean
    /** The service's KEKs (default: one random key). */
    keks?: KekRing
    /** Sponsored gas: the paymaster's key, contracts and public URL (default: none). */
    paymaster?: Pick<ServiceConfig, 'paymasterSignerKey' | 'paymasterAddresses' | 'paymasterPublicUrl'>
    /** The Bitcoin node of each bip122 network (`BITCOIN_NODE_URLS`; default none). */
    bitcoinNodes?: Record<string, string>
  } = {},
): Promise<EmbeddedTestApp> {
  const frameDir = await frameFixture()
  const sink = await startMailSink({ port: 0 })
  const smtpUrl = overrides.smtpUrl === undefined ? sink.url : overrides.smtpUrl
  const mailer = smtpUrl === null ? null : createMailer({ smtpUrl, from: 'Wallet <wallet@localhost>' })
  const base = testDb.config({
    rpcUpstreams: overrides.rpcUpstreams ?? {},
    bundlerUpstreams: overrides.bundlerUpstreams ?? {},
    ...(overrides.priceSourceUrl === undefined ? {} : { priceSourceUrl: overrides.priceSourceUrl }),
    ...overrides.paymaster,
  })
  const config: ServiceConfig = {
    ...base,
    embedded: {
      ...base.embedded,
      frameDir,
      framePublicUrl: FRAME_ORIGIN,
      ...(overrides.mailsPerHour === undefined ? {} : { mailsPerHour: overrides.mailsPerHour }),
      ...(overrides.social ? { social: overrides.social } : {}),
      ...(overrides.farcaster ? { farcaster: overrides.farcaster } : {}),
      ...(overrides.bitcoinNodes ? { bitcoinNodes: overrides.bitcoinNodes } : {}),
    },
  }
  if (!overrides.projectExists)
    await createProject(testDb.database.db, { id: projectId, name: projectId, origins: [SITE] })
  const forwarder = createRpcForwarder()
  const now = () => clock.now
  const wallet = await createEmbeddedWallet(config, testDb.database.db, {
    forwarder,
    logger: overrides.logger ?? testLogger,
    mailer,
    keks: overrides.keks ?? kekRing([randomBytes(32)], 'memory'),
    now,
    deviceWaitMs: overrides.deviceWaitMs ?? 1_500,
    farcasterWaitMs: overrides.farcasterWaitMs ?? 0,
  })
  const app = await buildFrameApp(config, {
    wallet,
    database: testDb.database,
    logger: overrides.logger ?? testLogger,
    now,
  })
  const browserKey = newSessionKey()
  return {
    app,
    wallet,
    sink,
    config,
    projectId,
    browserKey,
    async call(path, body, options = {}) {
      const headers: Record<string, string> = { 'x-wallet-site': options.site ?? SITE }
      if (options.origin !== null) headers.origin = options.origin ?? FRAME_ORIGIN
      if (body !== undefined) headers['content-type'] = 'application/json'
      const separator = path.includes('?') ? '&' : '?'
      const method = options.method ?? (body === undefined ? 'GET' : 'POST')
      const url = `${path}${separator}projectId=${options.project ?? projectId}`
      const payload = body === undefined ? undefined : JSON.stringify(body)
      // As the frame does: its public key on every request, a signature on a session's.
      const key = options.key === undefined ? browserKey : options.key
      if (key) headers[SESSION_KEY_HEADER] = key.publicKey
      if (options.token) {
        headers.authorization = `Bearer ${options.token}`
        if (key) Object.assign(headers, proofHeaders(key, { method, url, body: payload ?? '' }))
      }
      Object.assign(headers, options.headers)
      const response = await app.inject({
        method,
        url,
        headers,
        remoteAddress: options.ip ?? `10.${randomBytes(3).join('.')}`,
        ...(payload === undefined ? {} : { payload }),
      })
      return {
        status: response.statusCode,
        body: response.body ? (JSON.parse(response.body) as Record<string, unknown>) : {},
        headers: response.headers,
      }
    },
    mailTo: (address) => sink.messages().filter((mail) => mail.to.includes(address.toLowerCase())),
    async close() {
      await app.close()
      wallet.close()
      forwarder.close()
      await sink.stop()
      await rm(frameDir, { recursive: true, force: true })
    },
  }
}

/** The 6-digit code of the newest mail to an address. */
export function codeIn(mail: CaughtMail | undefined): string {
  const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1]
  if (!code) throw new Error(`No code in the mail: ${mail?.subject}`)
  return code
}

/** A random device id as the frame makes one. */
export const newDeviceId = () => randomBytes(16).toString('base64url')

/** The frame storage (and so the session key) of each browser's storage: loads of one browser share it. */
const browserStorages = new WeakMap<Storage, ReturnType<typeof frameStorage>>()

/** The person at the approval view, played by the test: approves or rejects what is shown. */
function person(decision: 'approve' | 'reject', shown: (ApprovalPreview | AccountTypePreview)[]): ApprovalUi {
  return {
    async show(preview, sign) {
      shown.push(preview)
      if (decision === 'reject') throw userRejected()
      return sign()
    },
    cancel() {},
  }
}

/**
 * The frame's wallet (src/frame/wallet.ts) in this process, against a test app listening on `base`,
 * with the person at the approval view played by the test; `ask` checks each event and answer with
 * the shared schemas.
 *
 * @example
 * const frame = frameWallet(t, base)
 * await frame.ask('CONNECT_EMAIL', { email })
 */
export function frameWallet(
  t: EmbeddedTestApp,
  base: string,
  options: {
    decision?: 'approve' | 'reject'
    shown?: (ApprovalPreview | AccountTypePreview)[]
    storage?: Storage
    /** What the frame draws as who is signed in (its identity line). */
    identity?: (user: EmbeddedUser | undefined) => void
    /** The frame's fetch of the service (a test may stand between them, as an attacker would). */
    fetch?: typeof fetch
  } = {},
) {
  const storage = options.storage ?? new MemoryStorage()
  // No IndexedDB in Node: one key per storage, as a browser keeps it for every load of the frame.
  const keys = browserStorages.get(storage) ?? frameStorage(storage, t.projectId)
  browserStorages.set(storage, keys)
  const deviceShares = deviceSharesOf(storage)
  const frame = createFrameWallet({
    api: createFrameApi({
      projectId: t.projectId,
      site: () => SITE,
      fetch: (url, init) => (options.fetch ?? fetch)(`${base}${String(url)}`, init),
      sessionKey: keys.sessionKey,
    }),
    storage: keys,
    deviceShares,
    approvals: person(options.decision ?? 'approve', options.shown ?? []),
    look: { theme() {}, locale() {} },
    chainId: 'eip155:31337',
    site: SITE,
    ...(options.identity ? { identity: options.identity } : {}),
  })
  let id = 0
  const answers: FrameAnswer[] = []
  return {
    storage,
    answers,
    async ask<T extends AppEventType>(type: T, payload: Extract<AppEvent, { type: T }>['payload']) {
      const event = { id: String(++id), type, payload } as Extract<AppEvent, { type: T }>
      // Each event as the frame gets it: parsed with the shared schema first.
      assert.ok(appEvent.safeParse(event).success, `${type} parses`)
      const answer = await frame.handle(event)
      answers.push(answer)
      assert.ok(
        frameAnswerFor(type).safeParse({ id: event.id, ...answer }).success,
        `${type}'s answer parses`,
      )
      return answer
    },
  }
}

/**
 * Signs `email` in through the frame's API (a new device unless one is given, the code from the dev
 * inbox) and answers the session.
 *
 * @example
 * const session = await signInByEmail(t, 'ada@example.com')
 */
export async function signInByEmail(
  app: EmbeddedTestApp,
  email: string,
  deviceId = newDeviceId(),
): Promise<SessionResponse> {
  const started = await app.call('/embedded/v1/email/connect', { email, deviceId, origin: SITE })
  const { loginId } = emailConnectResponse.parse(started.body)
  const verified = await app.call('/embedded/v1/email/verify', {
    loginId,
    otp: codeIn(app.mailTo(email)[0]),
    deviceId,
  })
  return sessionResponse.parse(verified.body)
}

/** A flow's binding as the frame makes one: the secret it keeps, the hash `start` gets. */
export function newBinding(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url')
  return { secret, hash: createHash('sha256').update(secret).digest('base64url') }
}
