// The attacker of embedded-attacker.test.ts: everything the service has (tables, KEKs, logs, heap) -> a signature?
import { createDecipheriv } from 'node:crypto'
import { getHeapSnapshot } from 'node:v8'
import { sql } from 'drizzle-orm'
import { combine } from 'shamir-secret-sharing'
import { type Address, isAddressEqual, recoverMessageAddress } from 'viem'
import { privateKeyToAccount, signMessage } from 'viem/accounts'
import type { Db } from '../../../server/db/database.ts'
import { addressesOfKeys, withKeys } from '../../../src/frame/keys/derive.ts'
import { parseSecret } from '../../../src/frame/keys/secret.ts'

/** What the attacker took from the service. */
export interface Loot {
  /** `SELECT *` of every table. */
  tables: Record<string, Record<string, unknown>[]>
  /** Every key-encryption key the service is configured with. */
  keks: Buffer[]
  /** Every log line the service wrote. */
  logs: string[]
  /** The strings of a heap snapshot of the service's process (V8 snapshots hold strings, not buffers). */
  heapStrings: string[]
  /** Shares the attacker opened and kept earlier (the operator's copy of a recovery share, say). */
  kept?: Uint8Array[]
}

/**
 * Takes everything: a dump of every table, the KEKs, the log lines and a heap snapshot of this process.
 *
 * @example
 * const loot = await takeEverything(testDb.database.db, t.wallet.keks.all.map((kek) => kek.key), logs.lines)
 */
export async function takeEverything(db: Db, keks: Buffer[], logs: string[]): Promise<Loot> {
  const names = (await db.execute(
    sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
  )) as unknown as { rows: { table_name: string }[] }
  const tables: Loot['tables'] = {}
  for (const { table_name: name } of names.rows) {
    const dump = (await db.execute(sql.raw(`select * from "${name}"`))) as unknown as {
      rows: Record<string, unknown>[]
    }
    tables[name] = dump.rows
  }
  return { tables, keks, logs: [...logs], heapStrings: await heapStrings() }
}

/** The strings of a heap snapshot of this process (taken after a full collection, as V8 does). */
async function heapStrings(): Promise<string[]> {
  const chunks: Buffer[] = []
  for await (const chunk of getHeapSnapshot()) chunks.push(chunk as Buffer)
  const snapshot = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { strings: string[] }
  return snapshot.strings
}

const IV = 12
const TAG = 16
/** AES-256-GCM as the service seals (iv, body, tag), or undefined. */
function tryOpen(key: Buffer, sealed: Buffer, aad: string): Buffer | undefined {
  if (sealed.length < IV + TAG) return undefined
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV))
    decipher.setAAD(Buffer.from(aad))
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG))
    return Buffer.concat([decipher.update(sealed.subarray(IV, sealed.length - TAG)), decipher.final()])
  } catch {
    return undefined
  }
}

const bytesOf = (value: unknown): Buffer | undefined =>
  value instanceof Uint8Array ? Buffer.from(value) : undefined

/** Every plaintext the KEKs open in the tables, using the additional data the service's code uses. */
function openEverything(loot: Loot): Buffer[] {
  const dataKeys: Buffer[] = []
  for (const row of loot.tables.wallet_data_keys ?? []) {
    const wrapped = bytesOf(row.wrapped)
    if (!wrapped) continue
    for (const kek of loot.keks) {
      const key = tryOpen(kek, wrapped, `wallet-elements:data-key:v1:${row.id}:${row.user_id}`)
      if (key) dataKeys.push(key)
    }
  }
  const opened: Buffer[] = []
  for (const rows of Object.values(loot.tables)) {
    for (const row of rows) {
      const user = String(row.user_id ?? '')
      const aads = [
        `wallet-elements:private-key:v1:${user}:secp256k1`,
        `wallet-elements:private-key:v1:${user}:ed25519`,
        `wallet-elements:share:v1:${user}:${row.set_id}:auth`,
        `wallet-elements:share:v1:${user}:${row.set_id}:recovery`,
      ]
      for (const value of Object.values(row)) {
        const sealed = bytesOf(value)
        if (!sealed) continue
        for (const key of dataKeys)
          for (const aad of aads) {
            const plain = tryOpen(key, sealed, aad)
            if (plain) opened.push(plain)
          }
      }
    }
  }
  return opened
}

/** Words of text that may be a share (URL-safe base64) or a key (hex). */
function tokensOf(texts: readonly string[]): string[] {
  const tokens = new Set<string>()
  for (const text of texts)
    for (const token of text.split(/[^A-Za-z0-9_-]+/)) if (token.length >= 16) tokens.add(token)
  return [...tokens]
}

/**
 * Tries to sign for `target` with everything taken: every two shares of one set combined, every
 * 32-byte value opened or written out (hex) tried as a key. Answers the signature's proof or undefined.
 *
 * @example
 * const stolen = await tryToSign(loot, '0xAbc…')
 */
export async function tryToSign(loot: Loot, target: Address): Promise<{ how: string } | undefined> {
  const opened = openEverything(loot)
  const texts = [...loot.logs, ...loot.heapStrings, JSON.stringify(Object.values(loot.tables), bigints)]
  const tokens = tokensOf(texts)
  const shares = [...opened, ...(loot.kept ?? []).map((share) => Buffer.from(share))]
  const keys: Buffer[] = opened.filter((plain) => plain.length === 32)
  for (const token of tokens) {
    if (/^(0x)?[0-9a-fA-F]{64}$/.test(token)) keys.push(Buffer.from(token.replace(/^0x/, ''), 'hex'))
    const decoded = Buffer.from(token, 'base64url')
    if (decoded[0] === 1 && decoded.length >= 11 && decoded.length <= 100) shares.push(decoded)
    if (decoded.length === 32) keys.push(decoded)
  }
  for (const key of keys.slice(0, 20_000)) {
    try {
      if (isAddressEqual(privateKeyToAccount(`0x${key.toString('hex')}`).address, target))
        return proofOf(key, target, 'a 32-byte value was the key')
    } catch {}
  }
  const bySet = new Map<string, Buffer[]>()
  for (const share of shares) {
    const set = share.subarray(1, 9).toString('hex')
    const known = bySet.get(set) ?? []
    if (!known.some((other) => other.equals(share))) bySet.set(set, [...known, share])
  }
  for (const set of bySet.values())
    for (const [index, first] of set.entries())
      for (const second of set.slice(index + 1)) {
        const key = await keyOfShares(first, second, target)
        if (key) return proofOf(key, target, 'two shares of one set')
      }
  return undefined
}

/** The EVM key two shares open, if they open `target`'s. */
async function keyOfShares(first: Buffer, second: Buffer, target: Address): Promise<Buffer | undefined> {
  try {
    const secret = await combine([Uint8Array.from(first.subarray(9)), Uint8Array.from(second.subarray(9))])
    parseSecret(secret)
    return await withKeys(secret, (keys) =>
      isAddressEqual(addressesOfKeys(keys).eip155, target) ? Buffer.from(keys.secp256k1) : undefined,
    )
  } catch {
    return undefined
  }
}

/** A message signed with the stolen key, checked to recover to the target. */
async function proofOf(key: Buffer, target: Address, how: string) {
  const message = 'stolen'
  const signature = await signMessage({ message, privateKey: `0x${key.toString('hex')}` })
  return isAddressEqual(await recoverMessageAddress({ message, signature }), target) ? { how } : undefined
}

const bigints = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)
