import * as z from 'zod/mini'
import { CaipNetworkIdSchema } from '../caip.ts'
import { AccountTypeSchema } from '../entities.ts'
import { SocialProviderSchema } from '../rules.ts'
import { embeddedEmail } from './email.ts'
import { compareCodeAlphabet, embeddedLimits } from './limits.ts'
import { previewNetwork } from './preview.ts'

// The embedded-wallet API: what the frame asks of the service on its own origin (`/embedded/v1/*`).
// The host page never reaches these routes (they answer the frame's origin only) and never sees a token.

export { embeddedEmail }

/** A one-time code as the service takes it: exactly 6 digits. */
export const otpCode = z
  .string()
  .check(z.regex(new RegExp(`^\\d{${embeddedLimits.otpLength}}$`), 'Enter the 6-digit code'))

/** Random ids the frame and the service hand each other: 16 to 64 URL-safe characters. */
export const opaqueId = z.string().check(z.regex(/^[A-Za-z0-9_-]{16,64}$/, 'Invalid id'))

/** The browser's own id for the frame (kept in the frame's partitioned storage). */
export const deviceId = opaqueId

/** The site the frame is embedded in, as the frame saw it (`event.origin` of the handshake). */
export const siteOrigin = z
  .string()
  .check(z.regex(/^https?:\/\/[^/\s?#]+$/, 'Invalid origin'), z.maxLength(255))

/**
 * Which way a sign-in continues (SPEC 4): approve this browser by e-mail link, type a code, or done.
 * `email/connect` answers VERIFY_OTP or CONNECT only (nothing tells whether an address has a wallet);
 * VERIFY_DEVICE comes from `email/verify`, once the code is proven.
 */
export const emailConnectAction = z.enum(['VERIFY_DEVICE', 'VERIFY_OTP', 'CONNECT'])
export type EmailConnectAction = z.infer<typeof emailConnectAction>

/** Which code an e-mail update asks for next (SPEC 4). */
export const emailUpdateAction = z.enum(['VERIFY_PRIMARY_OTP', 'VERIFY_SECONDARY_OTP'])
export type EmailUpdateAction = z.infer<typeof emailUpdateAction>

/**
 * The wallet user as the service knows it: the e-mail (none for a social sign-in without a verified
 * one), the social username, and one account per namespace (an EOA until smart accounts, part 3).
 */
export const embeddedUser = z.object({
  email: z.nullable(z.string()),
  userName: z.optional(z.string()),
  /**
   * Who gave `userName` (`farcaster`, `google`, …): the frame passes a Farcaster username (public) to
   * the page, never another provider's, which may be the e-mail or a real name (any script of the site can
   * open a frame of its own and ask).
   */
  identityProvider: z.optional(z.string().check(z.maxLength(32))),
  /** The profile picture a Farcaster sign-in gave (https). */
  userImage: z.optional(z.string()),
  accounts: z.object({
    eip155: z.object({ address: z.string(), type: AccountTypeSchema }),
    solana: z.object({ address: z.string(), type: AccountTypeSchema }),
  }),
  createdAt: z.string(),
  /** The keys were exported: Account offers to delete the wallet from the service. */
  exported: z.optional(z.boolean()),
})
export type EmbeddedUser = z.infer<typeof embeddedUser>

/** `POST /embedded/v1/email/connect`: start (or resume) a sign-in by e-mail. */
export const emailConnectRequest = z.object({
  email: embeddedEmail,
  deviceId,
  origin: siteOrigin,
})
export type EmailConnectRequest = z.infer<typeof emailConnectRequest>

/** Answer of `POST /embedded/v1/email/connect`; `loginId` names the code or the device approval. */
export const emailConnectResponse = z.object({
  action: emailConnectAction,
  loginId: z.optional(opaqueId),
  /** Seconds before another e-mail may be asked for. */
  resendAfterSeconds: z.optional(z.number()),
})
export type EmailConnectResponse = z.infer<typeof emailConnectResponse>

/** `POST /embedded/v1/email/verify`: the code the person typed. */
export const emailVerifyRequest = z.object({ loginId: opaqueId, otp: otpCode, deviceId })
export type EmailVerifyRequest = z.infer<typeof emailVerifyRequest>

/**
 * The code a device approval shows in the browser that is signing in; the person types it on the
 * mailed link's page, which approves nothing without it.
 */
export const compareCode = z
  .string()
  .check(z.regex(new RegExp(`^[${compareCodeAlphabet}]{${embeddedLimits.compareCodeLength}}$`)))

/** `POST /embedded/v1/device/wait`: waits (up to 25 s) for the person to approve this browser. */
export const deviceWaitRequest = z.object({ loginId: opaqueId, deviceId })
export type DeviceWaitRequest = z.infer<typeof deviceWaitRequest>

/** The secret of an approval link (`/device#…`), 43 URL-safe characters. */
export const approvalToken = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'Invalid approval link'))

/** `POST /embedded/v1/device/details` and `…/deny`: the link's secret. */
export const deviceApprovalRequest = z.object({ token: approvalToken })

/**
 * `POST /embedded/v1/device/approve`: the link's secret and the code the signing-in browser shows, as
 * typed (any case, spaces and dashes ignored; the service checks it, one try).
 */
export const deviceApproveRequest = z.object({
  token: approvalToken,
  code: z.string().check(z.minLength(1, 'Enter the code'), z.maxLength(32)),
})

/** What the approval page shows before the person approves a new browser. */
export const deviceDetailsResponse = z.object({
  email: z.string(),
  site: z.string(),
  browser: z.string(),
  requestedAt: z.string(),
  expiresAt: z.string(),
  status: z.enum(['pending', 'approved', 'denied', 'expired']),
})
export type DeviceDetailsResponse = z.infer<typeof deviceDetailsResponse>

/** `POST /embedded/v1/email/update`: the new address; a code goes to the current one first. */
export const emailUpdateRequest = z.object({ email: embeddedEmail })
/** Answer of the e-mail update steps. */
export const emailUpdateResponse = z.object({
  action: emailUpdateAction,
  updateId: opaqueId,
})
/** `POST /embedded/v1/email/update/primary` and `…/secondary`: a code of the update. */
export const emailUpdateOtpRequest = z.object({ updateId: opaqueId, otp: otpCode })
/** Answer of the last step: the address now stored. */
export const emailUpdatedResponse = z.object({ email: z.string() })

/**
 * A flow's binding secret (knowing a sign-in's ids is never enough to finish it): 256 random bits the frame
 * that starts a sign-in makes and keeps in memory; the service keeps only its SHA-256 and finishing the
 * flow needs the secret itself.
 */
export const bindingSecret = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'Invalid binding'))
/** The SHA-256 of a binding secret (of its text), URL-safe base64: what a start sends. */
export const bindingHash = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'Invalid binding'))

/** `POST /embedded/v1/social/start`: a social sign-in for this browser and site, bound to this frame. */
export const socialStartRequest = z.object({
  provider: SocialProviderSchema,
  deviceId,
  origin: siteOrigin,
  bindingHash,
})
export type SocialStartRequest = z.infer<typeof socialStartRequest>

/** Answer of `POST /embedded/v1/social/start`: the provider's authorization URL and the sign-in's id. */
export const socialStartResponse = z.object({ uri: z.string(), loginId: opaqueId })
export type SocialStartResponse = z.infer<typeof socialStartResponse>

/**
 * `POST /embedded/v1/social/finish`: after the provider's callback, the session of that sign-in. It
 * needs the binding secret of the frame that started it and the handover secret the callback page gave
 * (in the browser the provider sent back) to that frame; without a handover it only says whether the
 * callback is still awaited (`SOCIAL_PENDING`).
 */
export const socialFinishRequest = z.object({
  loginId: opaqueId,
  deviceId,
  binding: bindingSecret,
  handover: z.optional(bindingSecret),
})
export type SocialFinishRequest = z.infer<typeof socialFinishRequest>

/** The message the provider's callback page posts to the window that opened it. */
export const SOCIAL_CALLBACK_MESSAGE = 'wallet-elements:social-callback'

/**
 * What the callback page tells the window that opened it, at the exact origin of the site that started
 * the sign-in: done, with the sign-in's handover secret, which the modal passes to its frame
 * (CONNECT_SOCIAL) and `social/finish` needs. Alone it is worth nothing: finishing also needs the
 * binding secret that never leaves the frame that started the sign-in.
 */
export const socialCallbackMessage = z.object({
  type: z.literal(SOCIAL_CALLBACK_MESSAGE),
  handover: z.optional(bindingSecret),
})

/** A JSON-RPC request of the page, as the frame passes it on. */
export const walletRpcRequest = z.object({
  chainId: CaipNetworkIdSchema,
  method: z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'Invalid method')),
  params: z.optional(z.unknown()),
})
export type WalletRpcRequest = z.infer<typeof walletRpcRequest>

/** Answer of `POST /embedded/v1/rpc` and of an approved request. */
export const walletRpcResponse = z.object({ result: z.unknown() })

/**
 * The networks the service serves for the embedded wallet, and those of them with smart accounts (a
 * bundler); a frame that fails to fetch this has no smart account networks (SPEC 8).
 */
export const embeddedNetworksResponse = z.object({
  networks: z.array(previewNetwork),
  smartAccountNetworks: z.optional(z.array(CaipNetworkIdSchema)),
})

/**
 * `POST /embedded/v1/account-type`: the EVM account on `chainId`, after setting the preference to
 * `type` when it is given (SPEC 4: init smart account, set preferred account).
 */
export const accountTypeRequest = z.object({
  chainId: CaipNetworkIdSchema,
  type: z.optional(AccountTypeSchema),
  /**
   * Sets nothing: also answers the account `preview` would use on that network (the frame's approval
   * view shows it before the person approves a switch). Refused like `type` would be.
   */
  preview: z.optional(AccountTypeSchema),
})

/** The preference and the account requests on that network use: address, type and whether deployed. */
export const accountTypeResponse = z.object({
  preferredAccountType: AccountTypeSchema,
  account: z.object({
    address: z.string(),
    type: AccountTypeSchema,
    /** For a smart account: whether it has code yet (its first UserOperation deploys it). */
    smartAccountDeployed: z.optional(z.boolean()),
  }),
  /** Asked with `preview`: the account requests on that network would use with that preference. */
  preview: z.optional(z.object({ address: z.string(), type: AccountTypeSchema })),
})
export type AccountTypeResponse = z.infer<typeof accountTypeResponse>

export { type EmbeddedErrorCode, embeddedErrorCodes } from './errorCodes.ts'

/**
 * Error body of the embedded-wallet API: the API's usual body, plus `secondsLeft` (cooldowns),
 * `attemptsLeft` (a wrong code) and, for a refused or failed JSON-RPC request, its EIP-1193 or
 * JSON-RPC `rpcCode` and `rpcData`.
 *
 * @example
 * const { error } = embeddedErrorBody.parse(await response.json())
 */
export const embeddedErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    field: z.optional(z.string()),
    secondsLeft: z.optional(z.number()),
    attemptsLeft: z.optional(z.number()),
    rpcCode: z.optional(z.number()),
    rpcData: z.optional(z.unknown()),
  }),
})
export type EmbeddedErrorBody = z.infer<typeof embeddedErrorBody>

/** `POST /embedded/v1/farcaster/start`: a Farcaster sign-in channel for this browser and site. */
export const farcasterStartRequest = z.object({ deviceId, origin: siteOrigin, bindingHash })
export type FarcasterStartRequest = z.infer<typeof farcasterStartRequest>

/**
 * Answer of `POST /embedded/v1/farcaster/start`: the channel's URL (the QR code and the "open in app"
 * link), the sign-in's id, when the channel expires (ISO 8601), and the domain the sign-in message
 * names (the frame's host: what the person's Farcaster app shows as the site asking, which the view names
 * beside the page's own).
 */
export const farcasterStartResponse = z.object({
  loginId: opaqueId,
  url: z.string().check(z.regex(/^https?:\/\//), z.maxLength(2048)),
  expiresAt: z.string(),
  domain: z.string().check(z.minLength(1), z.maxLength(255)),
})
export type FarcasterStartResponse = z.infer<typeof farcasterStartResponse>

/**
 * `POST /embedded/v1/farcaster/finish`: asks the relay once; the session when the app approved. Only
 * with the binding secret of the frame that started it.
 */
export const farcasterFinishRequest = z.object({ loginId: opaqueId, deviceId, binding: bindingSecret })
export type FarcasterFinishRequest = z.infer<typeof farcasterFinishRequest>

/**
 * The nonce a Farcaster sign-in message names: what the service issued (16 random bytes in hex), and
 * what Sign In With Farcaster takes (at least 8 letters or digits).
 */
export const farcasterNonce = z.string().check(z.regex(/^[A-Za-z0-9]{8,64}$/, 'Invalid nonce'))

/**
 * `POST /embedded/v1/farcaster/mini-app/start`: a sign-in through the Farcaster app the page runs in
 * (a mini app), for this browser and site: no relay channel, the host app signs the message itself.
 */
export const farcasterMiniAppStartRequest = farcasterStartRequest
export type FarcasterMiniAppStartRequest = FarcasterStartRequest

/** Answer of `POST /embedded/v1/farcaster/mini-app/start`: the nonce for the host's `signIn`, and until when. */
export const farcasterMiniAppStartResponse = z.object({
  loginId: opaqueId,
  nonce: farcasterNonce,
  expiresAt: z.string(),
})
export type FarcasterMiniAppStartResponse = z.infer<typeof farcasterMiniAppStartResponse>

/** The signed Sign In With Farcaster message a host app answers (EIP-4361 text and its signature). */
export const farcasterApproval = z.object({
  message: z.string().check(z.minLength(1), z.maxLength(4096)),
  signature: z.string().check(z.regex(/^0x[0-9a-fA-F]{2,2048}$/)),
})

/**
 * `POST /embedded/v1/farcaster/mini-app/finish`: the host app's signed message, verified as the relay's
 * approvals are but for the site's own domain (a host names the mini app's domain); the session. Only
 * with the binding secret of the frame that started it.
 */
export const farcasterMiniAppFinishRequest = z.object({
  loginId: opaqueId,
  deviceId,
  binding: bindingSecret,
  ...farcasterApproval.shape,
})
export type FarcasterMiniAppFinishRequest = z.infer<typeof farcasterMiniAppFinishRequest>
