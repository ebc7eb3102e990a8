/**
 * Sign In With Farcaster for the embedded wallet, through an auth relay (SPEC 1, 7).
 * `start` opens a relay channel with our nonce and our domain (the frame's host) and gives the frame
 * the channel's URL for the QR code; `finish` asks the relay about the channel once: pending, expired,
 * declined, or completed with the visitor's approval, which is verified against the ID and key
 * registries before the fid's user (one embedded wallet per fid) gets a session. A channel is used
 * once, by the frame that opened it: `finish` needs that frame's binding secret, of which `start` got
 * only the hash, so knowing the sign-in's ids is not enough to take its session.
 */
import { randomBytes } from 'node:crypto'
import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import * as z from 'zod/mini'
import type {
  FarcasterFinishRequest,
  FarcasterMiniAppFinishRequest,
  FarcasterMiniAppStartRequest,
  FarcasterMiniAppStartResponse,
  FarcasterStartRequest,
  FarcasterStartResponse,
  SessionResponse,
} from '../../src/protocol/embedded/index.ts'
import type { FarcasterConfig } from '../config.ts'
import type { Db } from '../db/database.ts'
import { walletFarcasterLogins } from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import type { Project } from '../projects/store.ts'
import { actionNotAllowed, EmbeddedError } from './errors.ts'
import { createFarcasterVerifier, type FarcasterVerifier } from './farcaster.ts'
import { newId, secretHash } from './secrets.ts'
import type { Sessions } from './sessions.ts'
import type { SocialService } from './social.ts'

/** How long a channel is ours to finish (the relay may keep it longer; we do not). */
export const FARCASTER_LOGIN_TTL_MS = 5 * 60_000
/** A relay that does not answer in this time fails the request. */
const RELAY_TIMEOUT_MS = 10_000
/** How long `finish` waits for the approval before answering pending (the frame asks again). */
const FINISH_WAIT_MS = 20_000
/** How often the relay is asked while `finish` waits. */
const RELAY_POLL_MS = 500
/** The most of a relay answer we read. */
const MAX_RELAY_ANSWER_BYTES = 32_768

const channelToken = z.string().check(z.regex(/^[A-Za-z0-9_.~-]{8,256}$/))
const httpUrl = z.string().check(z.regex(/^https?:\/\/[^\s]+$/), z.maxLength(2048))

/** `POST /v1/channel` at the relay: 201 with the channel. */
const createdChannel = z.object({ channelToken, url: httpUrl, nonce: z.string() })

/**
 * `GET /v1/channel/status` at the relay: `pending` (202) or `completed` (200) with the approval.
 * `declined` is what the dev stand-in says when the demo app declines; the real relay leaves such a
 * channel pending until it expires.
 */
const channelStatus = z.object({
  state: z.enum(['pending', 'completed', 'declined']),
  message: z.optional(z.string().check(z.maxLength(4096))),
  signature: z.optional(z.string().check(z.regex(/^0x[0-9a-fA-F]{2,2048}$/))),
  fid: z.optional(z.number()),
  username: z.optional(z.string()),
  pfpUrl: z.optional(z.string()),
})

export interface FarcasterDependencies {
  db: Db
  /** The sessions every sign-in way shares (the login service carries them). */
  login: { sessions: Pick<Sessions, 'openSessionFor'> }
  /** Its `userOf` keeps identities: a fid is provider `farcaster` with the fid as subject. */
  social: Pick<SocialService, 'userOf'>
  config: FarcasterConfig
  /** The frame's public URL: the sign-in's URI, its host our domain. */
  frameUrl: string
  now?: () => number
  logger?: ServiceLogger
  /** Accept http profile pictures (the dev stand-ins); production keeps https ones only. */
  allowHttp?: boolean
  /** A verifier of approvals (default: `@farcaster/auth-client` against `config.rpcUrl`). */
  verifier?: FarcasterVerifier
  /** How long `finish` waits for a pending channel (default 20 s; 0: ask the relay once). */
  waitMs?: number
}

function failed(message: string, status = 400): EmbeddedError {
  return new EmbeddedError(status, 'FARCASTER_FAILED', message)
}

function expired(): EmbeddedError {
  return new EmbeddedError(410, 'FARCASTER_EXPIRED', 'This Farcaster code expired: get a new one')
}

/**
 * The Farcaster sign-in service.
 *
 * @example
 * const farcaster = createFarcasterService({ db, login, social, config: config.embedded.farcaster, frameUrl })
 * const { url, loginId } = await farcaster.start(project, { deviceId, origin })
 */
export function createFarcasterService(deps: FarcasterDependencies) {
  const { db, login, config } = deps
  const now = deps.now ?? Date.now
  const frame = new URL(deps.frameUrl)
  const domain = frame.host
  const verify = deps.verifier ?? createFarcasterVerifier({ rpcUrl: config.rpcUrl, domain })

  /** One call to the relay, its answer read up to a limit; never logs the relay's URL or the token. */
  async function relay(path: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
    let response: Response
    try {
      response = await fetch(`${config.relayUrl}${path}`, {
        ...init,
        redirect: 'error',
        signal: AbortSignal.timeout(RELAY_TIMEOUT_MS),
      })
    } catch (cause) {
      deps.logger?.warn({ problem: (cause as Error).name }, 'Farcaster relay unreachable')
      throw failed('Could not reach Farcaster: try again', 502)
    }
    const text = await response.text()
    if (text.length > MAX_RELAY_ANSWER_BYTES) throw failed('Farcaster gave an answer too long', 502)
    let body: unknown
    try {
      body = text === '' ? undefined : JSON.parse(text)
    } catch {
      body = undefined
    }
    return { status: response.status, body }
  }

  /** An https picture (or http from the dev stand-ins), short enough to keep; anything else is dropped. */
  const pictureOf = (value: string | undefined) => {
    if (!value || value.length > 2048) return null
    const protocol = URL.canParse(value) ? new URL(value).protocol : ''
    return protocol === 'https:' || (deps.allowHttp && protocol === 'http:') ? value : null
  }

  /** The sign-in `body` names, of this project, browser and site, with the starting frame's secret, unused. */
  const loginOf = (project: Project, body: FarcasterFinishRequest, site: string) =>
    and(
      eq(walletFarcasterLogins.id, body.loginId),
      eq(walletFarcasterLogins.projectId, project.id),
      eq(walletFarcasterLogins.deviceId, body.deviceId),
      eq(walletFarcasterLogins.site, site),
      eq(walletFarcasterLogins.bindingHash, secretHash(body.binding)),
      isNull(walletFarcasterLogins.consumedAt),
    )

  /** Uses up the sign-in `where` names, if it is still unused: answers it, or nothing (two at once: one wins). */
  const claim = async (where: ReturnType<typeof loginOf>) => {
    const [claimed] = await db
      .update(walletFarcasterLogins)
      .set({ consumedAt: new Date(now()) })
      .where(where)
      .returning()
    return claimed
  }

  const farcasterOn = (project: Project) => {
    if (!project.features.farcaster)
      throw new EmbeddedError(403, 'FORBIDDEN', 'Farcaster sign-in is off for this project')
  }

  /** Keeps a sign-in in progress (5 minutes, single use); answers its id and expiry. */
  async function keep(
    project: Project,
    body: FarcasterStartRequest,
    nonce: string,
    channelToken: string | null,
  ): Promise<{ id: string; expiresAt: Date }> {
    const id = newId()
    const time = now()
    const expiresAt = new Date(time + FARCASTER_LOGIN_TTL_MS)
    await db.insert(walletFarcasterLogins).values({
      id,
      projectId: project.id,
      channelToken,
      nonce,
      deviceId: body.deviceId,
      site: body.origin,
      bindingHash: Buffer.from(body.bindingHash, 'base64url'),
      createdAt: new Date(time),
      expiresAt,
    })
    return { id, expiresAt }
  }

  /** The fid's user (one embedded wallet per fid) and a session for this browser and site. */
  async function sessionFor(
    project: Project,
    signIn: { fid: string },
    profile: { username?: string | null; pictureUrl?: string | null },
    deviceId: string,
    site: string,
    sessionKey: string,
  ): Promise<SessionResponse> {
    const userId = await deps.social.userOf(project.id, 'farcaster', {
      subject: signIn.fid,
      email: null,
      emailVerified: false,
      ...profile,
    })
    deps.logger?.info({ projectId: project.id }, 'Farcaster sign-in')
    return login.sessions.openSessionFor(userId, project.id, deviceId, site, sessionKey)
  }

  return {
    /** `POST /farcaster/start`: a new relay channel with our nonce and domain. */
    async start(project: Project, body: FarcasterStartRequest): Promise<FarcasterStartResponse> {
      farcasterOn(project)
      const nonce = randomBytes(16).toString('hex')
      const answer = await relay('/v1/channel', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ siweUri: deps.frameUrl, domain, nonce }),
      })
      const channel = createdChannel.safeParse(answer.body)
      if (answer.status !== 201 || !channel.success || channel.data.nonce !== nonce) {
        deps.logger?.warn({ status: answer.status }, 'Farcaster relay did not open a channel')
        throw failed('Farcaster could not start the sign-in: try again', 502)
      }
      const { id, expiresAt } = await keep(project, body, nonce, channel.data.channelToken)
      return { loginId: id, url: channel.data.url, expiresAt: expiresAt.toISOString(), domain }
    },

    /**
     * `POST /farcaster/finish`: waits (up to 20 s, asking the relay every 500 ms) for the channel to
     * settle. Still pending is `FARCASTER_PENDING` (ask again); expired, declined and every refusal
     * end the sign-in; a verified approval is a session.
     */
    async finish(
      project: Project,
      body: FarcasterFinishRequest,
      site: string,
      sessionKey: string,
      gone?: AbortSignal,
    ): Promise<SessionResponse> {
      const mine = and(
        loginOf(project, body, site),
        // A relay channel's sign-in (a mini app's has none to ask about).
        isNotNull(walletFarcasterLogins.channelToken),
      )
      const [row] = await db.select().from(walletFarcasterLogins).where(mine).limit(1)
      if (!row?.channelToken) throw actionNotAllowed()
      const { channelToken } = row
      const deadline = Date.now() + (deps.waitMs ?? FINISH_WAIT_MS)
      let status: z.infer<typeof channelStatus>
      for (;;) {
        if (row.expiresAt.getTime() <= now()) throw expired()
        const answer = await relay('/v1/channel/status', {
          headers: { authorization: `Bearer ${channelToken}` },
        })
        if (answer.status === 401 || answer.status === 404) throw expired()
        const parsed = channelStatus.safeParse(answer.body)
        if (!parsed.success || (answer.status !== 200 && answer.status !== 202)) {
          deps.logger?.warn({ status: answer.status }, 'Farcaster relay gave no channel status')
          throw failed('Farcaster did not answer: try again', 502)
        }
        status = parsed.data
        if (status.state !== 'pending') break
        if (gone?.aborted || Date.now() + RELAY_POLL_MS > deadline)
          throw new EmbeddedError(409, 'FARCASTER_PENDING', 'Waiting for approval in the Farcaster app')
        await new Promise((resolve) => setTimeout(resolve, RELAY_POLL_MS))
      }
      // Settled: the channel is used up whatever comes next (two polls at once: one wins).
      if (!(await claim(mine))) throw actionNotAllowed()
      if (status.state === 'declined')
        throw new EmbeddedError(400, 'FARCASTER_DECLINED', 'The request was declined in the Farcaster app')
      const { message, signature } = status
      if (!message || !signature) throw failed('This Farcaster approval could not be verified')
      const signIn = await verify({ message, signature: signature as `0x${string}`, nonce: row.nonce })
      const profile = {
        username: status.username?.slice(0, 100) || null,
        pictureUrl: pictureOf(status.pfpUrl),
      }
      return sessionFor(project, signIn, profile, body.deviceId, site, sessionKey)
    },

    /**
     * `POST /farcaster/mini-app/start`: a sign-in through the Farcaster app the page runs in (a mini
     * app). No relay: the host app signs the message (`sdk.actions.signIn`) with the nonce answered here.
     */
    async startMiniApp(
      project: Project,
      body: FarcasterMiniAppStartRequest,
    ): Promise<FarcasterMiniAppStartResponse> {
      farcasterOn(project)
      const nonce = randomBytes(16).toString('hex')
      const { id, expiresAt } = await keep(project, body, nonce, null)
      return { loginId: id, nonce, expiresAt: expiresAt.toISOString() }
    },

    /**
     * `POST /farcaster/mini-app/finish`: the host app's signed message, verified as a relay's approval
     * (our nonce, the fid's custody or auth address on the ID and key registries) except for the
     * domain: a host signs for the mini app's domain, which must be this sign-in's site's host. Used
     * once, whatever the outcome; a verified fid is a session for this browser and site.
     */
    async finishMiniApp(
      project: Project,
      body: FarcasterMiniAppFinishRequest,
      site: string,
      sessionKey: string,
    ): Promise<SessionResponse> {
      const claimed = await claim(
        and(loginOf(project, body, site), isNull(walletFarcasterLogins.channelToken)),
      )
      if (!claimed) throw actionNotAllowed()
      if (claimed.expiresAt.getTime() <= now()) throw expired()
      const signIn = await verify({
        message: body.message,
        signature: body.signature as `0x${string}`,
        nonce: claimed.nonce,
        domain: new URL(site).host,
      })
      // The host's profile of the person (its context) is not signed: none is taken from it, and the name
      // and picture an earlier relay sign-in of the fid brought stay.
      return sessionFor(project, signIn, {}, body.deviceId, site, sessionKey)
    },
  }
}

export type FarcasterService = ReturnType<typeof createFarcasterService>
