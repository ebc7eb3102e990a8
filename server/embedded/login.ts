/**
 * Sign-in to the embedded wallet by e-mail (SPEC 4), put together: the users (users.ts) and sessions
 * (sessions.ts) every way shares, the one-time codes (codes.ts) and their mails (loginMail.ts), and the
 * e-mail ways: a code (emailCode.ts), approval of a new browser (deviceApproval.ts) and changing the
 * address (emailChange.ts). Social and Farcaster sign-ins (social.ts, farcasterLogin.ts) use the same
 * users and sessions. Every limit is enforced in the database, so it holds for concurrent requests
 * and across instances.
 */
import type { EmbeddedUser, WalletKeyState } from '../../src/protocol/embedded/index.ts'
import type { Db } from '../db/database.ts'
import type { ServiceLogger } from '../logger.ts'
import type { Mailer } from '../mail/mailer.ts'
import { createCleanup } from './cleanup.ts'
import { createCodes } from './codes.ts'
import type { Custody } from './custody.ts'
import { createDeviceApproval } from './deviceApproval.ts'
import { createEmailChange } from './emailChange.ts'
import { createEmailCodeLogin } from './emailCode.ts'
import { createLoginMail } from './loginMail.ts'
import type { CodeHasher } from './secrets.ts'
import { createSessions, type WalletSession } from './sessions.ts'
import type { EmailThrottle } from './throttle.ts'
import { createUserKeys } from './userKeys.ts'
import { createUsers } from './users.ts'
import { createWalletExport } from './walletExport.ts'

export type { WalletSession } from './sessions.ts'

export interface LoginDependencies {
  db: Db
  custody: Custody
  codes: CodeHasher
  throttle: EmailThrottle
  /** Null when no `SMTP_URL` is configured: e-mail sign-in answers 503. */
  mailer: Mailer | null
  /** The frame's public origin, for approval links. */
  frameUrl: string
  now?: () => number
  logger?: ServiceLogger
  /** How long a device wait is held open (`embeddedLimits.deviceWaitMs`; shorter in tests). */
  deviceWaitMs?: number
  /**
   * Sign-in mails one project may send an hour, all addresses and clients together
   * (`WALLET_MAILS_PER_HOUR`; 0 turns the budget off).
   */
  projectMailsPerHour?: number
}

/**
 * The e-mail sign-in service, with the users and sessions of every sign-in way.
 *
 * @example
 * const login = createLoginService({ db, custody, codes, throttle, mailer, frameUrl })
 * const { action, loginId } = await login.connectEmail(project, { email, deviceId, origin }, {})
 */
export function createLoginService(deps: LoginDependencies) {
  const { db, logger } = deps
  const common = { ...(deps.now ? { now: deps.now } : {}), ...(logger ? { logger } : {}) }
  const users = createUsers({ db, custody: deps.custody, ...(logger ? { logger } : {}) })
  const keys = createUserKeys({
    db,
    custody: deps.custody,
    embeddedUserOf: users.embeddedUserOf,
    userById: users.userById,
    ...(logger ? { logger } : {}),
  })
  const sessions = createSessions({ db, users, keys, ...common })
  const codes = createCodes({ db, codes: deps.codes, ...(deps.now ? { now: deps.now } : {}) })
  const mail = createLoginMail({
    throttle: deps.throttle,
    mailer: deps.mailer,
    ...common,
    ...(deps.projectMailsPerHour === undefined ? {} : { projectMailsPerHour: deps.projectMailsPerHour }),
  })
  const devices = createDeviceApproval({
    db,
    sessions,
    codes: deps.codes,
    mail,
    frameUrl: deps.frameUrl,
    ...common,
    ...(deps.deviceWaitMs === undefined ? {} : { deviceWaitMs: deps.deviceWaitMs }),
  })
  const email = createEmailCodeLogin({
    users,
    sessions,
    codes,
    devices,
    mail,
    cleanUp: createCleanup(db, logger),
    ...(deps.now ? { now: deps.now } : {}),
  })
  const change = createEmailChange({ db, users, codes, mail, ...common })
  const leave = createWalletExport({ db, keys, codes, mail, ...common })

  return {
    users,
    sessions,
    keys,
    requireSession: sessions.requireSession,
    signOut: sessions.signOut,
    signOutEverywhere: sessions.signOutEverywhere,

    /**
     * `GET me`: where the person's keys stand, and once they have accounts the user, with whether their
     * keys were exported (Account then offers deletion).
     */
    async me(session: WalletSession): Promise<{ user?: EmbeddedUser; keys: WalletKeyState }> {
      const { keys: state, user } = await sessions.whoAndKeys(
        await users.userById(session.userId),
        session.projectId,
      )
      if (!user) return { keys: state }
      return {
        keys: state,
        user: (await leave.exported(session.userId)) ? { ...user, exported: true } : user,
      }
    },

    connectEmail: email.connectEmail,
    verifyCode: email.verifyCode,

    waitForDevice: devices.waitForDevice,
    deviceDetails: devices.deviceDetails,
    approveDevice: devices.approveDevice,
    denyDevice: devices.denyDevice,

    startEmailUpdate: change.startEmailUpdate,
    verifyPrimary: change.verifyPrimary,
    verifySecondary: change.verifySecondary,

    mailExportCode: leave.mailCode,
    exportKeys: leave.exportKeys,
    deleteWallet: leave.deleteWallet,
  }
}

export type LoginService = ReturnType<typeof createLoginService>
