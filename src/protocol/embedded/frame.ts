import * as z from 'zod/mini'
import { CaipNetworkIdSchema } from '../caip.ts'
import { AccountTypeSchema } from '../entities.ts'
import { AccentSchema, SocialProviderSchema, ThemeModeSchema } from '../rules.ts'
import {
  bindingSecret,
  compareCode,
  emailConnectAction,
  emailUpdateAction,
  embeddedEmail,
  farcasterApproval,
  farcasterNonce,
} from './api.ts'

// Messages between the modal (the "app") and the embedded-wallet frame (SPEC section 7). One window
// message starts a load's channel (the handshake); everything after goes over its MessageChannel port.
// Both sides parse every message with these schemas; what does not parse is dropped.

/** Type of the one window message the frame listens for: the modal's handshake. */
export const FRAME_HANDSHAKE = 'wallet-elements:frame-handshake'

/** A per-load nonce: 22 to 64 URL-safe characters (the modal uses 128 random bits). */
export const frameNonce = z.string().check(z.regex(/^[A-Za-z0-9_-]{22,64}$/))

/**
 * The handshake, posted by the modal to the frame's exact origin with one `MessagePort`. The frame
 * accepts it only from `window.parent`, from an allowed origin, with the nonce of its own load.
 */
export const frameHandshake = z.object({ type: z.literal(FRAME_HANDSHAKE), nonce: frameNonce })

/** Ids of app requests, so each answer finds its request. */
export const requestId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/))

const empty = z.object({})

/** Metadata of the site, shown by the frame (the approval view and the approval mail). */
export const dappMetadata = z.object({
  name: z.string().check(z.maxLength(200)),
  description: z.string().check(z.maxLength(500)),
  url: z.string().check(z.maxLength(500)),
  icons: z.array(z.string().check(z.maxLength(2000))).check(z.maxLength(4)),
})

/** A code as typed: the service checks it (6 digits, SPEC 5) and answers with its own message. */
const typedCode = z.string().check(z.maxLength(64))

/**
 * Payload of each app event (SPEC section 7).
 */
export const appEventPayloads = {
  SWITCH_NETWORK: z.object({ chainId: CaipNetworkIdSchema }),
  CONNECT_EMAIL: z.object({ email: embeddedEmail }),
  CONNECT_DEVICE: empty,
  CONNECT_OTP: z.object({ otp: typedCode }),
  /** `handover`: the callback page's one-time secret for this sign-in, passed on by the modal. */
  CONNECT_SOCIAL: z.object({
    provider: SocialProviderSchema,
    uri: z.optional(z.string()),
    handover: z.optional(bindingSecret),
  }),
  /**
   * `start` opens a Farcaster sign-in channel (answer: its URL for the QR code and when it expires);
   * `finish` waits (up to 20 s) for the visitor's approval in their Farcaster app and connects.
   * Inside a Farcaster mini app: `mini-app-start` answers the nonce for the host app's own sign-in,
   * and `mini-app-finish` takes the host's signed message and connects.
   */
  CONNECT_FARCASTER: z.union([
    z.object({ step: z.enum(['start', 'finish', 'mini-app-start']) }),
    z.object({ step: z.literal('mini-app-finish'), ...farcasterApproval.shape }),
  ]),
  GET_USER: z.object({
    chainId: z.optional(CaipNetworkIdSchema),
    preferredAccountType: z.optional(AccountTypeSchema),
  }),
  GET_SOCIAL_REDIRECT_URI: z.object({ provider: SocialProviderSchema }),
  /** `everywhere`: every session of the person ends, in every browser. */
  SIGN_OUT: z.object({ everywhere: z.optional(z.boolean()) }),
  IS_CONNECTED: empty,
  GET_CHAIN_ID: empty,
  GET_SMART_ACCOUNT_ENABLED_NETWORKS: empty,
  INIT_SMART_ACCOUNT: empty,
  SET_PREFERRED_ACCOUNT: z.object({ type: AccountTypeSchema }),
  RPC_REQUEST: z.object({
    chainId: CaipNetworkIdSchema,
    method: z.string().check(z.maxLength(64)),
    params: z.optional(z.unknown()),
  }),
  UPDATE_EMAIL: z.object({ email: embeddedEmail }),
  UPDATE_EMAIL_PRIMARY_OTP: z.object({ otp: typedCode }),
  UPDATE_EMAIL_SECONDARY_OTP: z.object({ otp: typedCode }),
  SYNC_THEME: z.object({ themeMode: ThemeModeSchema, accent: z.optional(AccentSchema) }),
  SYNC_DAPP_DATA: z.object({
    projectId: z.string().check(z.maxLength(128)),
    /** The SDK the app is (optional: the frame knows the site from its handshake). */
    sdkType: z.optional(z.string().check(z.maxLength(64))),
    sdkVersion: z.optional(z.string().check(z.maxLength(64))),
    metadata: dappMetadata,
    /** The modal's `locale` option; without it the frame reads the browser's languages, as the modal does. */
    locale: z.optional(z.string().check(z.regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/))),
  }),
  RELOAD: empty,
  /** The modal closed while the frame showed a request: the frame rejects it (4001). */
  CANCEL_APPROVAL: empty,
  /**
   * Export: the frame mails a fresh code and shows, on its own origin, the code form, a
   * warning and the keys. The answer says only whether the keys were shown; they never leave the frame.
   */
  EXPORT_WALLET: empty,
  /** After an export: a second fresh code, then the service deletes the wallet and every session. */
  DELETE_WALLET: empty,
  /**
   * Recovery: the frame shows, on its own origin, what the wallet's recovery needs: on a browser
   * without this wallet's key, "Recover your wallet"; in user custody without a recovery method, its
   * set-up (`sign-in`: only for keys made in this session; `account`: asked from Account). A wallet
   * whose recovery share the operator still holds in user custody (its project left operator custody)
   * is asked at `sign-in` and on `visit` (a restored session's first connection in a page load). The
   * answer says only how the wallet can be recovered now.
   */
  SECURE_WALLET: z.object({ reason: z.enum(['sign-in', 'account', 'visit']) }),
  /**
   * Passkeys, Connect: the frame shows "Continue with a passkey" and "Create a passkey" on its
   * own origin (WebAuthn needs the person's click in the frame); answers once signed in or closed.
   */
  CONNECT_PASSKEY: empty,
  /** Account: the frame shows the person's passkeys, with Add and Remove; answers when closed. */
  MANAGE_PASSKEYS: empty,
} as const

export type AppEventType = keyof typeof appEventPayloads
export type AppEventPayload<T extends AppEventType> = z.infer<(typeof appEventPayloads)[T]>

/**
 * The embedded wallet's user (SPEC 3). It lives here, not among the entities the first paint loads.
 *
 * @example
 * WalletUserSchema.parse({ email: 'a@b.co', address: '0xab16…', chainId: 1, accounts: [], preferredAccountType: 'eoa', smartAccountDeployed: false })
 */
export const WalletUserSchema = z.object({
  email: z.optional(z.nullable(z.string())),
  address: z.string(),
  chainId: z.union([z.number(), z.string()]),
  accounts: z.array(z.object({ address: z.string(), type: AccountTypeSchema })),
  userName: z.optional(z.string()),
  /** The profile picture of a Farcaster sign-in (https). */
  userImage: z.optional(z.string()),
  preferredAccountType: z.optional(AccountTypeSchema),
  smartAccountDeployed: z.boolean(),
})
export type WalletUser = z.infer<typeof WalletUserSchema>

/** An account of the embedded wallet, in one namespace. */
export const frameAccount = z.object({
  namespace: z.enum(['eip155', 'solana', 'bip122']),
  address: z.string(),
  type: AccountTypeSchema,
})
export type FrameAccount = z.infer<typeof frameAccount>

/**
 * How the embedded wallet can be recovered on a new browser (from its recovery share): who can (`custody`)
 * and the ways its recovery share is sealed (none yet: only this browser opens it). Shared in spirit with
 * protocol/embedded/keys.ts, kept here so the page's first paint loads no key schemas.
 */
export const walletRecovery = z.object({
  custody: z.enum(['user', 'operator']),
  methods: z.array(z.enum(['passkey', 'password', 'operator'])),
})
export type WalletRecovery = z.infer<typeof walletRecovery>

/** The wallet user of `GET_USER` (SPEC 3), with the accounts of every namespace and its recovery. */
export const frameUser = z.object({
  ...WalletUserSchema.shape,
  accounts: z.array(frameAccount),
  /** The person exported their keys: Account offers "Delete wallet", after a reload too. */
  exported: z.optional(z.boolean()),
  recovery: z.optional(walletRecovery),
})
export type FrameUser = z.infer<typeof frameUser>

/** Payload of each success answer. */
export const frameSuccessPayloads = {
  SWITCH_NETWORK: z.object({ chainId: CaipNetworkIdSchema }),
  CONNECT_EMAIL: z.object({ action: emailConnectAction, resendAfterSeconds: z.optional(z.number()) }),
  CONNECT_DEVICE: empty,
  /**
   * Connected (nothing to say), or VERIFY_DEVICE: the code was right but this browser is new for that
   * address; the modal shows `compareCode`, which the person types on the mailed link's page.
   */
  CONNECT_OTP: z.object({
    action: z.optional(z.literal('VERIFY_DEVICE')),
    compareCode: z.optional(compareCode),
  }),
  CONNECT_SOCIAL: empty,
  /** `start`: the channel; `finish`: connected (nothing to say). */
  CONNECT_FARCASTER: z.union([
    z.object({
      url: z.string().check(z.regex(/^https?:\/\//), z.maxLength(2048)),
      expiresAt: z.string().check(z.maxLength(64)),
      /** The host the sign-in message names: what the Farcaster app shows as the site. */
      domain: z.string().check(z.minLength(1), z.maxLength(255)),
    }),
    /** `mini-app-start`: the nonce the host app's sign-in message must name. */
    z.object({ nonce: farcasterNonce }),
    empty,
  ]),
  GET_USER: frameUser,
  GET_SOCIAL_REDIRECT_URI: z.object({ uri: z.string() }),
  SIGN_OUT: empty,
  IS_CONNECTED: z.object({ isConnected: z.boolean() }),
  GET_CHAIN_ID: z.object({ chainId: CaipNetworkIdSchema }),
  GET_SMART_ACCOUNT_ENABLED_NETWORKS: z.object({ smartAccountEnabledNetworks: z.array(CaipNetworkIdSchema) }),
  INIT_SMART_ACCOUNT: empty,
  SET_PREFERRED_ACCOUNT: empty,
  RPC_REQUEST: z.object({ result: z.unknown() }),
  UPDATE_EMAIL: z.object({ action: emailUpdateAction }),
  UPDATE_EMAIL_PRIMARY_OTP: z.object({ action: emailUpdateAction }),
  UPDATE_EMAIL_SECONDARY_OTP: z.object({ email: z.string() }),
  SYNC_THEME: empty,
  SYNC_DAPP_DATA: empty,
  RELOAD: empty,
  CANCEL_APPROVAL: empty,
  EXPORT_WALLET: z.object({ exported: z.boolean() }),
  DELETE_WALLET: z.object({ deleted: z.boolean() }),
  SECURE_WALLET: z.object({ recovery: walletRecovery }),
  /** `connected`: a session is open (then the app connects as after any sign-in); false: closed. */
  CONNECT_PASSKEY: z.object({ connected: z.boolean() }),
  /** How many passkeys the person has when the view closed. */
  MANAGE_PASSKEYS: z.object({ passkeys: z.number() }),
} as const satisfies Record<AppEventType, z.ZodMiniType>

export type FrameSuccessPayload<T extends AppEventType> = z.infer<(typeof frameSuccessPayloads)[T]>

/**
 * Payload of every error answer: the message shown (`An error occurred` when the frame gives none),
 * an EIP-1193 or API code, and the seconds to wait after `Please try again after N seconds`.
 */
export const frameErrorPayload = z.object({
  message: z.optional(z.string().check(z.maxLength(1000))),
  code: z.optional(z.union([z.number(), z.string().check(z.maxLength(64))])),
  secondsLeft: z.optional(z.number()),
  /** For a wrong code: tries left before it is void. */
  attemptsLeft: z.optional(z.number()),
  data: z.optional(z.unknown()),
})
export type FrameErrorPayload = z.infer<typeof frameErrorPayload>

const appEventTypes = Object.keys(appEventPayloads) as AppEventType[]

/**
 * Any app event: `{ id, type, payload }`.
 *
 * @example
 * const event = appEvent.safeParse(message.data)
 */
export const appEvent = z.union(
  appEventTypes.map((type) =>
    z.object({ id: requestId, type: z.literal(type), payload: appEventPayloads[type] }),
  ) as unknown as [z.ZodMiniObject, ...z.ZodMiniObject[]],
)
export type AppEvent = {
  [T in AppEventType]: { id: string; type: T; payload: AppEventPayload<T> }
}[AppEventType]

/**
 * An answer of the frame to one app event: `{ id, type: 'X_SUCCESS' | 'X_ERROR', payload }`. The app
 * parses it with the schema of the request it made ({@link frameAnswerFor}).
 */
export function frameAnswerFor<T extends AppEventType>(type: T) {
  return z.union([
    z.object({ id: requestId, type: z.literal(`${type}_SUCCESS`), payload: frameSuccessPayloads[type] }),
    z.object({ id: requestId, type: z.literal(`${type}_ERROR`), payload: frameErrorPayload }),
  ])
}

/** The envelope of any frame answer, before it is matched to its request. */
export const frameAnswerEnvelope = z.object({
  id: requestId,
  type: z.string().check(z.regex(/^[A-Z_]+_(SUCCESS|ERROR)$/)),
  payload: z.unknown(),
})

/**
 * What the frame says without being asked: ready (answers the handshake with its nonce), show or hide
 * the approval view (with the height it needs), and the session ending on the service.
 */
// Unions, not discriminated unions: zod's core lives in the first paint, and a discriminated union's
// code would be added there for this lazily loaded use.
export const frameNotice = z.union([
  z.object({ type: z.literal('FRAME_READY'), payload: z.object({ nonce: frameNonce, version: z.number() }) }),
  z.object({ type: z.literal('APPROVAL_SHOW'), payload: z.object({ height: z.number() }) }),
  z.object({ type: z.literal('APPROVAL_RESIZE'), payload: z.object({ height: z.number() }) }),
  z.object({ type: z.literal('APPROVAL_HIDE'), payload: empty }),
  z.object({ type: z.literal('SESSION_ENDED'), payload: empty }),
])
export type FrameNotice = z.infer<typeof frameNotice>

/**
 * The frame's URL query (SPEC section 7): `projectId`, `chainId` (CAIP-2), `version` (4) and
 * `enableLogger`. The handshake nonce travels in the fragment, which no server sees.
 *
 * @example
 * frameQuery.parse(Object.fromEntries(new URLSearchParams(location.search)))
 */
export const frameQuery = z.object({
  projectId: z.string().check(z.regex(/^[A-Za-z0-9_][A-Za-z0-9_-]{0,127}$/)),
  chainId: z.optional(CaipNetworkIdSchema),
  version: z.optional(z.string().check(z.regex(/^\d{1,3}$/))),
  enableLogger: z.optional(z.enum(['true', 'false'])),
})
export type FrameQuery = z.infer<typeof frameQuery>
