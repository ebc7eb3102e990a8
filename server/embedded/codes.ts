/**
 * One-time codes by e-mail (sign-in, each step of an e-mail change, export and deletion): 6 digits, valid 10
 * minutes and once, 5 wrong tries void a code. Every limit holds in the database, so across concurrent requests
 * and instances.
 */
import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm'
import { embeddedLimits } from '../../src/protocol/embedded/index.ts'
import type { Db } from '../db/database.ts'
import { walletCodes } from '../db/schema.ts'
import { actionNotAllowed, EmbeddedError } from './errors.ts'
import type { CodeHasher } from './secrets.ts'
import { newCode, newId } from './secrets.ts'

/** What a code was mailed for; a code proves only that. */
export type CodePurpose = 'login' | 'update-primary' | 'update-secondary' | 'export' | 'delete'

/** A code (or an approval link) that cannot be used any more. */
export function codeExpired(
  message = 'This code has expired or was already used: ask for a new one',
): EmbeddedError {
  return new EmbeddedError(400, 'CODE_EXPIRED', message, { attemptsLeft: 0 })
}

/** What a new code is for: the address, its purpose, and the browser it is bound to (when one asked). */
interface NewCode {
  projectId: string
  email: string
  purpose: CodePurpose
  deviceId?: string
}

export interface CodesDependencies {
  db: Db
  codes: CodeHasher
  now?: () => number
}

/**
 * The one-time codes.
 *
 * @example
 * const codes = createCodes({ db, codes: codeHasher(keks) })
 * const { id, code } = await codes.insertCode({ projectId, email, purpose: 'login', deviceId })
 */
export function createCodes(deps: CodesDependencies) {
  const { db, codes } = deps
  const now = deps.now ?? Date.now

  /** A new code for an address (only its hash is stored); `deviceId` binds it to the browser that asked. */
  async function insertCode(input: NewCode): Promise<{ id: string; code: string }> {
    const id = newId()
    const code = newCode()
    const time = now()
    await db.insert(walletCodes).values({
      id,
      projectId: input.projectId,
      email: input.email,
      purpose: input.purpose,
      codeHash: codes.hash(id, code),
      deviceId: input.deviceId ?? null,
      createdAt: new Date(time),
      expiresAt: new Date(time + embeddedLimits.otpTtlMs),
    })
    return { id, code }
  }

  return {
    insertCode,

    /**
     * A new code, mailed by `send`: once it is sent it is the only live code of its purpose for that
     * address (older ones are voided: one live code per address), and a code whose mail fails is deleted.
     *
     * @example
     * const { id } = await codes.mailNewCode({ projectId, email, purpose: 'login', deviceId }, (code) => mail(…))
     */
    async mailNewCode(input: NewCode, send: (code: string) => Promise<unknown>) {
      const code = await insertCode(input)
      try {
        await send(code.code)
      } catch (error) {
        await db.delete(walletCodes).where(eq(walletCodes.id, code.id))
        throw error
      }
      await db
        .update(walletCodes)
        .set({ voidedAt: new Date(now()) })
        .where(
          and(
            eq(walletCodes.projectId, input.projectId),
            eq(walletCodes.email, input.email),
            eq(walletCodes.purpose, input.purpose),
            ne(walletCodes.id, code.id),
            isNull(walletCodes.usedAt),
            isNull(walletCodes.voidedAt),
          ),
        )
      return code
    },

    /**
     * Checks a typed code against a stored one, counting the try atomically (the `attempts < 5` test and
     * the increment are one statement), then uses it once.
     */
    async checkCode(projectId: string, codeId: string, purpose: CodePurpose, otp: string, deviceId?: string) {
      const time = new Date(now())
      if (deviceId !== undefined) {
        // The browser first: a code asked for by another browser is refused without a try or its use.
        const [bound] = await db
          .select({ deviceId: walletCodes.deviceId })
          .from(walletCodes)
          .where(and(eq(walletCodes.id, codeId), eq(walletCodes.projectId, projectId)))
          .limit(1)
        if (bound && bound.deviceId !== deviceId) throw actionNotAllowed()
      }
      const [row] = await db
        .update(walletCodes)
        .set({ attempts: sql`${walletCodes.attempts} + 1` })
        .where(
          and(
            eq(walletCodes.id, codeId),
            eq(walletCodes.projectId, projectId),
            eq(walletCodes.purpose, purpose),
            ...(deviceId === undefined ? [] : [eq(walletCodes.deviceId, deviceId)]),
            isNull(walletCodes.usedAt),
            isNull(walletCodes.voidedAt),
            gt(walletCodes.expiresAt, time),
            lt(walletCodes.attempts, embeddedLimits.otpMaxAttempts),
          ),
        )
        .returning()
      if (!row) throw codeExpired()
      if (!codes.matches(row.id, otp, row.codeHash)) {
        const left = embeddedLimits.otpMaxAttempts - row.attempts
        if (left <= 0) {
          await db.update(walletCodes).set({ voidedAt: time }).where(eq(walletCodes.id, row.id))
          throw codeExpired('Too many wrong codes: this one no longer works, ask for a new one')
        }
        throw new EmbeddedError(
          400,
          'INVALID_CODE',
          `Invalid code: ${left} ${left === 1 ? 'try' : 'tries'} left`,
          {
            attemptsLeft: left,
          },
        )
      }
      const used = await db
        .update(walletCodes)
        .set({ usedAt: time })
        .where(and(eq(walletCodes.id, row.id), isNull(walletCodes.usedAt), isNull(walletCodes.voidedAt)))
        .returning({ id: walletCodes.id })
      if (used.length === 0) throw codeExpired()
      return row
    },
  }
}

export type Codes = ReturnType<typeof createCodes>
