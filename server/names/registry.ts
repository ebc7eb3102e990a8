/**
 * The name registry (SPEC sections 5 and 7): wallet-side names under the service's suffix,
 * registered by a message the account signs (checked by sign-in's {@link SignatureChecker}: EIP-191,
 * EIP-1271, EIP-6492 and ed25519), one label per suffix and one name per address and suffix.
 */
import { and, eq, inArray } from 'drizzle-orm'
import type {
  AvatarUpdateBody,
  NameCheckResponse,
  NameRecord,
  NameRegisterBody,
  NameReleaseBody,
  NameReleaseResponse,
  ProfileResponse,
} from '../../src/protocol/api/index.ts'
import {
  NAME_MAX_LENGTH,
  NAME_MESSAGE_TTL_MS,
  parseAvatarUpdateMessage,
  parseNameRegistrationMessage,
  parseNameReleaseMessage,
} from '../../src/protocol/api/index.ts'
import type { SignatureChecker } from '../auth/signatures.ts'
import type { Db } from '../db/database.ts'
import { names } from '../db/schema.ts'
import { ServiceError } from '../errors.ts'
import { isOriginAllowed } from '../projects/origins.ts'
import type { Project } from '../projects/store.ts'

export interface NameRegistryOptions {
  /** The registry's suffix, e.g. `wallet.test` (`NAME_SUFFIX`). */
  suffix: string
  signatures: SignatureChecker
  now?: () => number
}

export interface NameRegistry {
  readonly suffix: string
  /** Whether a label is free, with up to 3 free names like it when it is not. */
  check(label: string): Promise<NameCheckResponse>
  /** Registers (or moves) the account's name; 409 `NAME_TAKEN` when another account holds it. */
  register(project: Project, body: NameRegisterBody): Promise<NameRecord>
  /**
   * Sets (or clears) the profile image of the account's name; 404 `NAME_NOT_FOUND` when it has none,
   * 400 `NAME_MESSAGE_INVALID` for a message that is not this update's, or not newer than the account's
   * last signed one (a replay).
   */
  setAvatar(project: Project, body: AvatarUpdateBody): Promise<NameRecord>
  /**
   * Releases the account's name (it becomes free for anyone); 404 `NAME_NOT_FOUND` when it has none,
   * 400 `NAME_MESSAGE_INVALID` for a message that is not this release, or not newer than the account's
   * last signed one (a replay). The account keeps its place in the registry, with no name, so an older
   * registration it signed cannot be replayed to take the name back.
   */
  release(project: Project, body: NameReleaseBody): Promise<NameReleaseResponse>
  /** The name's record; null when nobody holds it. */
  resolve(fullName: string): Promise<NameRecord | null>
  /** The address's names under this suffix (at most one). */
  reverse(address: string): Promise<string[]>
  profile(address: string): Promise<ProfileResponse>
}

/**
 * A released name's row keeps the account's place (its last signed message's time, against replays)
 * under a label no name can have (labels are letters, digits and hyphens).
 */
const RELEASED_PREFIX = '~'
const isReleased = (label: string) => label.startsWith(RELEASED_PREFIX)

/** EVM addresses are stored and compared lower-cased; Solana's base58 is case-sensitive. */
export const normalizeAddress = (address: string) =>
  address.startsWith('0x') ? address.toLowerCase() : address

const SUGGESTION_COUNT = 3

function nameError(
  statusCode: number,
  code: 'NAME_TAKEN' | 'NAME_NOT_FOUND' | 'NAME_MESSAGE_INVALID',
  message: string,
  field?: string,
) {
  return new ServiceError(statusCode, code, message, field === undefined ? {} : { field })
}

/** Names like `label` to offer when it is taken: digits and words after it, within the length limit. */
function candidates(label: string, seed: number): string[] {
  const base = label.slice(0, NAME_MAX_LENGTH - 4)
  const numbers = [seed % 100, (seed >> 7) % 1000, (seed >> 17) % 10_000].map((n) =>
    String(n).padStart(2, '0'),
  )
  return [
    ...new Set([
      ...numbers.map((n) => `${base}${n}`),
      `${base}-app`,
      `${base}-web3`,
      `the-${base}`.slice(0, NAME_MAX_LENGTH),
    ]),
  ]
}

/**
 * Makes the registry on the service's database.
 *
 * @example
 * const registry = createNameRegistry(db, { suffix: 'wallet.test', signatures })
 * await registry.check('alice') // { name: 'alice.wallet.test', available: true, suggestions: [] }
 */
export function createNameRegistry(db: Db, options: NameRegistryOptions): NameRegistry {
  const suffix = options.suffix.toLowerCase()
  const now = options.now ?? Date.now
  const full = (label: string) => `${label}.${suffix}`

  /**
   * The account's name row, locked for the transaction, for a signed message about it: the message
   * names that name, and is newer than the account's last signed message (registrations, images and
   * releases only move forward: an older one is a replay).
   */
  async function ownName(
    tx: Parameters<Parameters<Db['transaction']>[0]>[0],
    address: string,
    named: string,
    issuedAt: number,
    messages: { missing: string; other: (own: string) => string },
  ): Promise<typeof names.$inferSelect> {
    const [mine] = await tx
      .select()
      .from(names)
      .where(and(eq(names.suffix, suffix), eq(names.address, address)))
      .for('update')
    if (!mine || isReleased(mine.label)) throw nameError(404, 'NAME_NOT_FOUND', messages.missing, 'address')
    if (named.toLowerCase() !== full(mine.label))
      throw nameError(400, 'NAME_MESSAGE_INVALID', messages.other(full(mine.label)), 'message')
    if (mine.issuedAt.getTime() >= issuedAt)
      throw nameError(400, 'NAME_MESSAGE_INVALID', 'A newer message of this account exists', 'message')
    return mine
  }

  function toRecord(row: typeof names.$inferSelect): NameRecord {
    return {
      name: full(row.label),
      addresses: [{ address: row.address, chainId: row.chainId }],
      avatar: row.avatar,
      registeredAt: row.updatedAt.toISOString(),
    }
  }

  async function suggestions(label: string): Promise<string[]> {
    const offered = candidates(label, Math.floor(now() / 1000) ^ (label.length * 7919))
    const taken = await db
      .select({ label: names.label })
      .from(names)
      .where(and(eq(names.suffix, suffix), inArray(names.label, offered)))
    const takenLabels = new Set(taken.map((row) => row.label))
    return offered
      .filter((candidate) => !takenLabels.has(candidate))
      .slice(0, SUGGESTION_COUNT)
      .map(full)
  }

  async function holder(label: string) {
    if (isReleased(label)) return undefined
    const [row] = await db
      .select()
      .from(names)
      .where(and(eq(names.suffix, suffix), eq(names.label, label)))
    return row
  }

  /**
   * Checks a signed message's fields against the request and the project: the account and network,
   * the domain (one of the project's origins), the time (within 10 minutes), then the signature
   * (sign-in's checker: keys, EIP-1271 and EIP-6492 alike). Resolves to its `Issued At` in ms.
   */
  async function checkSigned(
    project: Project,
    fields: { domain: string; address: string; chainId: string; issuedAt: string },
    body: { address: string; chainId: string; message: string; signature: string },
  ): Promise<number> {
    if (
      normalizeAddress(fields.address) !== normalizeAddress(body.address) ||
      fields.chainId !== body.chainId
    ) {
      throw nameError(400, 'NAME_MESSAGE_INVALID', 'The message is for another account or network', 'message')
    }
    const allowed = ['https', 'http'].some((scheme) =>
      isOriginAllowed(project.origins, `${scheme}://${fields.domain}`),
    )
    if (!allowed) {
      throw nameError(
        403,
        'NAME_MESSAGE_INVALID',
        `The message domain ${fields.domain} is not on the project's allowed origins`,
        'message',
      )
    }
    const issuedAt = Date.parse(fields.issuedAt)
    const time = now()
    if (!Number.isFinite(issuedAt) || issuedAt > time + 60_000 || issuedAt < time - NAME_MESSAGE_TTL_MS) {
      throw nameError(
        400,
        'NAME_MESSAGE_INVALID',
        'The message was issued more than 10 minutes ago, or in the future',
        'message',
      )
    }
    await options.signatures.verify({
      chainId: body.chainId,
      address: body.address,
      message: body.message,
      signature: body.signature,
    })
    return issuedAt
  }

  return {
    suffix,

    async check(label) {
      const lower = label.toLowerCase()
      const available = (await holder(lower)) === undefined
      return { name: full(lower), available, suggestions: available ? [] : await suggestions(lower) }
    },

    async register(project, body) {
      const label = body.name.toLowerCase()
      const fields = parseNameRegistrationMessage(body.message)
      if (fields === null)
        throw nameError(
          400,
          'NAME_MESSAGE_INVALID',
          'The message is not a name registration message',
          'message',
        )
      const address = normalizeAddress(body.address)
      if (fields.name.toLowerCase() !== full(label)) {
        throw nameError(
          400,
          'NAME_MESSAGE_INVALID',
          `The message registers ${fields.name}, not ${full(label)}`,
          'message',
        )
      }
      const issuedAt = await checkSigned(project, fields, body)
      const time = now()
      return db
        .transaction(async (tx) => {
          const [held] = await tx
            .select()
            .from(names)
            .where(and(eq(names.suffix, suffix), eq(names.label, label)))
          if (held && held.address !== address) {
            throw new ServiceError(409, 'NAME_TAKEN', `${full(label)} is taken`, { field: 'name' })
          }
          const [mine] = await tx
            .select()
            .from(names)
            .where(and(eq(names.suffix, suffix), eq(names.address, address)))
          // A message older than the account's latest registration is a replay.
          if (mine && mine.issuedAt.getTime() >= issuedAt) {
            throw nameError(
              400,
              'NAME_MESSAGE_INVALID',
              'A newer registration of this account exists',
              'message',
            )
          }
          const values = {
            label,
            chainId: body.chainId,
            issuedAt: new Date(issuedAt),
            updatedAt: new Date(time),
          }
          const [row] = mine
            ? await tx.update(names).set(values).where(eq(names.id, mine.id)).returning()
            : await tx
                .insert(names)
                .values({ ...values, suffix, address })
                .returning()
          if (!row) throw new Error('The name was not written')
          return toRecord(row)
        })
        .catch((error: unknown) => {
          // Two registrations of one label at once: the unique index refuses the second.
          const code = error as { cause?: { code?: string }; code?: string }
          if ((code?.cause?.code ?? code?.code) === '23505') {
            throw new ServiceError(409, 'NAME_TAKEN', `${full(label)} is taken`, { field: 'name' })
          }
          throw error
        })
    },

    async setAvatar(project, body) {
      const fields = parseAvatarUpdateMessage(body.message)
      if (fields === null)
        throw nameError(400, 'NAME_MESSAGE_INVALID', 'The message is not a profile image message', 'message')
      if (fields.avatar !== body.avatar)
        throw nameError(400, 'NAME_MESSAGE_INVALID', 'The message sets another image', 'message')
      const issuedAt = await checkSigned(project, fields, body)
      const address = normalizeAddress(body.address)
      return db.transaction(async (tx) => {
        const mine = await ownName(tx, address, fields.name, issuedAt, {
          missing: 'The account has no name: register one first',
          other: (own) => `The message is for ${fields.name}, not ${own}`,
        })
        const [row] = await tx
          .update(names)
          .set({ avatar: body.avatar, issuedAt: new Date(issuedAt), updatedAt: new Date(now()) })
          .where(eq(names.id, mine.id))
          .returning()
        if (!row) throw new Error('The image was not written')
        return toRecord(row)
      })
    },

    async release(project, body) {
      const fields = parseNameReleaseMessage(body.message)
      if (fields === null)
        throw nameError(400, 'NAME_MESSAGE_INVALID', 'The message is not a name release message', 'message')
      const issuedAt = await checkSigned(project, fields, body)
      const address = normalizeAddress(body.address)
      return db.transaction(async (tx) => {
        const mine = await ownName(tx, address, fields.name, issuedAt, {
          missing: 'The account has no name to release',
          other: (own) => `The message releases ${fields.name}, not ${own}`,
        })
        await tx
          .update(names)
          .set({
            label: `${RELEASED_PREFIX}${mine.id}`,
            avatar: null,
            issuedAt: new Date(issuedAt),
            updatedAt: new Date(now()),
          })
          .where(eq(names.id, mine.id))
        return { released: full(mine.label) }
      })
    },

    async resolve(fullName) {
      const lower = fullName.toLowerCase()
      if (!lower.endsWith(`.${suffix}`)) return null
      const label = lower.slice(0, -suffix.length - 1)
      const row = await holder(label)
      return row ? toRecord(row) : null
    },

    async reverse(address) {
      const rows = await db
        .select({ label: names.label })
        .from(names)
        .where(and(eq(names.suffix, suffix), eq(names.address, normalizeAddress(address))))
      return rows.filter((row) => !isReleased(row.label)).map((row) => full(row.label))
    },

    async profile(address) {
      const [found] = await db
        .select()
        .from(names)
        .where(and(eq(names.suffix, suffix), eq(names.address, normalizeAddress(address))))
      const row = found && !isReleased(found.label) ? found : undefined
      return { address, name: row ? full(row.label) : null, avatar: row?.avatar ?? null }
    },
  }
}
