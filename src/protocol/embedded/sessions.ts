import * as z from 'zod/mini'
import { compareCode, embeddedUser, opaqueId } from './api.ts'
import { signingPlanResponse, walletKeyState } from './keys.ts'
import { approvalPreview } from './preview.ts'

// The service's answers that carry where the person's keys stand or what the frame is to sign. Only
// the frame and the service read them: the modal's chunks import api.ts for the frame protocol and
// must not load the key and signing-plan schemas (the first paint's budget).

/** A new session for the frame: its bearer token (kept by the frame only) and the user. */
export const sessionResponse = z.object({
  token: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'Invalid session token')),
  expiresAt: z.string(),
  /**
   * The user, once their keys exist (state `ready`); before that the frame sets the keys up (`keys`)
   * and reads the user from `GET me`. The page never sees a user without accounts.
   */
  user: z.optional(embeddedUser),
  /** Where the person's keys stand: what the frame does before it answers the sign-in. */
  keys: walletKeyState,
  /** The person's first sign-in (their account was just made): the site's default account type applies. */
  newUser: z.optional(z.boolean()),
})
export type SessionResponse = z.infer<typeof sessionResponse>

/** Answer of `GET /embedded/v1/me`: the user once their keys exist, and where the keys stand. */
export const meResponse = z.object({ user: z.optional(embeddedUser), keys: z.optional(walletKeyState) })
export type MeResponse = z.infer<typeof meResponse>

/**
 * Answer of `POST /embedded/v1/email/verify`: a session, or (a known address on a browser it never
 * approved, after the code was proven) VERIFY_DEVICE with the approval's id and the code to type on
 * the mailed link's page.
 */
export const emailVerifyResponse = z.union([
  sessionResponse,
  z.object({ action: z.literal('VERIFY_DEVICE'), loginId: opaqueId, compareCode }),
])
export type EmailVerifyResponse = z.infer<typeof emailVerifyResponse>

/** Answer of `POST /embedded/v1/device/wait`: still pending, or approved with a session. */
export const deviceWaitResponse = z.union([
  z.object({ status: z.literal('pending') }),
  z.object({ status: z.literal('approved'), session: sessionResponse }),
  z.object({ status: z.literal('denied') }),
])
export type DeviceWaitResponse = z.infer<typeof deviceWaitResponse>

/** Answer of `POST /embedded/v1/requests`: the stored request's id and its preview. */
export const approvalResponse = z.object({
  id: opaqueId,
  preview: approvalPreview,
  /** What the frame signs once the person approves: exactly this, and nothing else. */
  signing: signingPlanResponse,
})
export type ApprovalResponse = z.infer<typeof approvalResponse>
