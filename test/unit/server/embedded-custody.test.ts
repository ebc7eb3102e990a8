import assert from 'node:assert/strict'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { eq, sql } from 'drizzle-orm'
import { bytesToHex, verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { runCustodyCli } from '../../../server/cli/custody.ts'
import { walletDataKeys, walletKeys, walletUsers } from '../../../server/db/schema.ts'
import { createCustody } from '../../../server/embedded/custody.ts'
import { kekRing, loadKekRing, parseKek, writeKekFile } from '../../../server/embedded/kek.ts'
import { codeHasher } from '../../../server/embedded/secrets.ts'
import { createProject } from '../../../server/projects/store.ts'
import { decodeBase58 } from '../../../src/protocol/siwx/base58.ts'
import { openTestDatabase, type TestDatabase } from './helpers.ts'

let testDb: TestDatabase
const projectId = 'custody-project'

before(async () => {
  testDb = await openTestDatabase('custody')
  await createProject(testDb.database.db, {
    id: projectId,
    name: 'Custody',
    origins: ['https://app.example'],
  })
})
after(async () => {
  await testDb?.close()
})

async function newUser(): Promise<string> {
  const id = randomUUID()
  await testDb.database.db.insert(walletUsers).values({ id, projectId, email: `${id}@example.com` })
  return id
}

describe('custody: keys under data keys under the KEK', () => {
  test('default: a user gets an EVM and a Solana key that sign for the addresses stored', async () => {
    const { db } = testDb.database
    const custody = createCustody(db, kekRing([randomBytes(32)], 'memory'))
    const userId = await newUser()
    const accounts = await custody.createKeys(db, userId)
    assert.match(accounts.secp256k1.address, /^0x[0-9a-fA-F]{40}$/)
    assert.match(accounts.ed25519.address, /^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    assert.deepEqual(await custody.accounts(userId), accounts)

    const signature = await custody.withKey(userId, 'secp256k1', (secret) =>
      privateKeyToAccount(bytesToHex(secret)).signMessage({ message: 'hello' }),
    )
    assert.ok(
      await verifyMessage({
        address: accounts.secp256k1.address as `0x${string}`,
        message: 'hello',
        signature,
      }),
    )
    const message = new TextEncoder().encode('hello solana')
    const solanaSignature = await custody.withKey(userId, 'ed25519', (secret) =>
      ed25519.sign(message, secret),
    )
    const publicKey = decodeBase58(accounts.ed25519.address)
    assert.ok(publicKey && ed25519.verify(solanaSignature, message, publicKey))
  })

  test('behavior: the key is zeroed after use, and the database holds no key in the clear', async () => {
    const { db } = testDb.database
    const custody = createCustody(db, kekRing([randomBytes(32)], 'memory'))
    const userId = await newUser()
    await custody.createKeys(db, userId)
    let kept: Uint8Array | undefined
    const secretHex = await custody.withKey(userId, 'secp256k1', (secret) => {
      kept = secret
      return Buffer.from(secret).toString('hex')
    })
    assert.ok(
      kept?.every((byte) => byte === 0),
      'the buffer handed out is zeroed afterwards',
    )
    // A dump of every column of the wallet tables: the private key appears nowhere.
    const dump = JSON.stringify(
      await db.execute(
        sql`select k.*, d.* from wallet_keys k join wallet_data_keys d on d.id = k.data_key_id where k.user_id = ${userId}`,
      ),
      (_key, value) =>
        typeof value === 'object' && value?.type === 'Buffer'
          ? Buffer.from(value.data).toString('hex')
          : value,
    )
    assert.ok(!dump.includes(secretHex))
  })

  test('error: a dump without the KEK opens nothing; another KEK fails; moving a ciphertext to another user or curve fails', async () => {
    const { db } = testDb.database
    const kek = randomBytes(32)
    const custody = createCustody(db, kekRing([kek], 'memory'))
    const alice = await newUser()
    const bob = await newUser()
    await custody.createKeys(db, alice)
    await custody.createKeys(db, bob)

    const stranger = createCustody(db, kekRing([randomBytes(32)], 'memory'))
    await assert.rejects(
      stranger.withKey(alice, 'secp256k1', () => 1),
      /is not configured/,
    )

    // Bob's EVM ciphertext copied onto Alice's row: the additional data (user, curve) refuses it.
    const [bobKey] = await db.select().from(walletKeys).where(eq(walletKeys.userId, bob)).limit(1)
    const [aliceKey] = await db.select().from(walletKeys).where(eq(walletKeys.userId, alice)).limit(1)
    assert.ok(bobKey && aliceKey)
    const original = aliceKey.encrypted
    await db.update(walletKeys).set({ encrypted: bobKey.encrypted }).where(eq(walletKeys.id, aliceKey.id))
    await assert.rejects(
      custody.withKey(alice, aliceKey.curve, () => 1),
      /does not open/,
    )
    // Alice's secp256k1 ciphertext on her ed25519 row: refused as well.
    await db.update(walletKeys).set({ encrypted: original }).where(eq(walletKeys.id, aliceKey.id))
    const otherCurve = aliceKey.curve === 'secp256k1' ? 'ed25519' : 'secp256k1'
    const [otherRow] = await db
      .select()
      .from(walletKeys)
      .where(sql`${walletKeys.userId} = ${alice} and ${walletKeys.curve} = ${otherCurve}`)
    assert.ok(otherRow)
    await db.update(walletKeys).set({ encrypted: original }).where(eq(walletKeys.id, otherRow.id))
    await assert.rejects(
      custody.withKey(alice, otherCurve, () => 1),
      /does not open/,
    )
  })

  test('behavior: rotation re-wraps every data key under the new KEK; accounts and signatures stay the same', async () => {
    const { db } = testDb.database
    const oldKek = randomBytes(32)
    const newKek = randomBytes(32)
    const before = createCustody(db, kekRing([oldKek], 'memory'))
    const userId = await newUser()
    const accounts = await before.createKeys(db, userId)
    const sign = (custody: typeof before) =>
      custody.withKey(userId, 'secp256k1', (secret) =>
        privateKeyToAccount(bytesToHex(secret)).signMessage({ message: 'same' }),
      )
    const signatureBefore = await sign(before)

    const rotating = createCustody(db, kekRing([newKek, oldKek], 'WALLET_KEK'))
    const result = await rotating.rewrap()
    assert.ok(result.rewrapped >= 1)
    // Users of the other tests have KEKs this ring lacks: named, left as they are.
    assert.ok(!result.missingKek.includes(kekRing([oldKek], 'memory').current.id))
    const [dataKey] = await db.select().from(walletDataKeys).where(eq(walletDataKeys.userId, userId))
    assert.equal(dataKey?.kekId, kekRing([newKek], 'memory').current.id)
    assert.ok(dataKey?.rewrappedAt)

    // Without the old KEK at all, the rotated user still signs, with the same account.
    const after = createCustody(db, kekRing([newKek], 'WALLET_KEK'))
    assert.deepEqual(await after.accounts(userId), accounts)
    assert.equal(await sign(after), signatureBefore)
    const status = await after.status()
    assert.ok(status.some((entry) => entry.current && entry.dataKeys >= 1))
  })
})

describe('key-encryption keys', () => {
  test('default: WALLET_KEK in base64 or hex; a development key file is created once, owner-only, outside the database', async () => {
    const text = randomBytes(32).toString('base64')
    assert.equal(parseKek(text).length, 32)
    assert.equal(parseKek(Buffer.from(text, 'base64').toString('hex')).toString('base64'), text)
    const folder = await mkdtemp(join(tmpdir(), 'kek-'))
    try {
      const file = join(folder, 'wallet-kek')
      const first = await loadKekRing({ kek: null, kekPrevious: [], kekFile: file, production: false })
      assert.equal(first.source, 'file')
      assert.equal((await stat(file)).mode & 0o777, 0o600)
      const again = await loadKekRing({ kek: null, kekPrevious: [], kekFile: file, production: false })
      assert.equal(again.current.id, first.current.id)
      assert.ok(!(await readFile(file, 'utf8')).includes(first.current.id))
      await writeKekFile(file, [randomBytes(32).toString('base64'), first.current.key.toString('base64')])
      const rotated = await loadKekRing({ kek: null, kekPrevious: [], kekFile: file, production: false })
      assert.notEqual(rotated.current.id, first.current.id)
      assert.ok(rotated.find(first.current.id))
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })

  test('behavior: a code mailed before a KEK rotation still matches while the old KEK is in WALLET_KEK_PREVIOUS', () => {
    const oldKek = randomBytes(32)
    const newKek = randomBytes(32)
    const stored = codeHasher(kekRing([oldKek], 'WALLET_KEK')).hash('login-1', '123456')
    const rotating = codeHasher(kekRing([newKek, oldKek], 'WALLET_KEK'))
    assert.ok(rotating.matches('login-1', '123456', stored))
    assert.ok(!rotating.matches('login-1', '123457', stored))
    assert.ok(!rotating.matches('login-2', '123456', stored))
    // New codes use the new KEK; once the old one is gone, its codes no longer match.
    assert.ok(
      codeHasher(kekRing([newKek], 'WALLET_KEK')).matches('x', '000001', rotating.hash('x', '000001')),
    )
    assert.ok(!codeHasher(kekRing([newKek], 'WALLET_KEK')).matches('login-1', '123456', stored))
  })

  test('error: production without WALLET_KEK refuses to start; a short or garbled key is refused without echoing it', async () => {
    await assert.rejects(
      loadKekRing({ kek: null, kekPrevious: [], kekFile: '/nonexistent', production: true }),
      /WALLET_KEK is required in production/,
    )
    const secretish = 'c2VjcmV0LXNlY3JldA=='
    assert.throws(
      () => parseKek(secretish),
      (error: Error) => /32 random bytes/.test(error.message) && !error.message.includes(secretish),
    )
  })
})

describe('npm run custody', () => {
  test('behavior: rotate-kek in development puts a new key in the key file, re-wraps, and the accounts still sign', async () => {
    const { db } = testDb.database
    const folder = await mkdtemp(join(tmpdir(), 'kek-cli-'))
    const lines: string[] = []
    const io = (kekFile: string) => ({
      database: testDb.database,
      config: { ...testDb.config().embedded, kek: null, kekPrevious: [], kekFile, production: false },
      out: (line: string) => lines.push(line),
      err: (line: string) => lines.push(`ERR ${line}`),
    })
    try {
      const file = join(folder, 'wallet-kek')
      const ring = await loadKekRing({ kek: null, kekPrevious: [], kekFile: file, production: false })
      const custody = createCustody(db, ring)
      const userId = await newUser()
      const accounts = await custody.createKeys(db, userId)
      // Other tests' users have other KEKs: the command names them and leaves them alone.
      const code = await runCustodyCli(['rotate-kek'], io(file))
      const fileKeys = (await readFile(file, 'utf8'))
        .split('\n')
        .filter((line) => line && !line.startsWith('#'))
      const after = kekRing(
        fileKeys.map((line) => parseKek(line)),
        'file',
      )
      assert.notEqual(after.current.id, ring.current.id)
      assert.ok(lines.some((line) => /^Re-wrapped \d+ data keys under kek-/.test(line)))
      assert.equal(code, 1, 'data keys of unknown KEKs are reported')
      const rotated = createCustody(db, after)
      assert.deepEqual(await rotated.accounts(userId), accounts)
      const signature = await rotated.withKey(userId, 'secp256k1', (secret) =>
        privateKeyToAccount(bytesToHex(secret)).signMessage({ message: 'after rotation' }),
      )
      assert.ok(
        await verifyMessage({
          address: accounts.secp256k1.address as `0x${string}`,
          message: 'after rotation',
          signature,
        }),
      )
      lines.length = 0
      assert.equal(await runCustodyCli(['status'], io(file)), 0)
      assert.ok(lines.some((line) => line.startsWith(after.current.id) && line.includes('(current)')))
      assert.equal(await runCustodyCli(['new-kek'], io(file)), 0)
      assert.equal(parseKek(lines.at(-1) ?? '').length, 32)
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })

  test('behavior: rotate-kek in production: WALLET_KEK the new key, WALLET_KEK_PREVIOUS the old; then the old can go', async () => {
    const { db } = testDb.database
    const oldKek = randomBytes(32).toString('base64')
    const newKek = randomBytes(32).toString('base64')
    const lines: string[] = []
    const io = (kek: string, kekPrevious: string[]) => ({
      database: testDb.database,
      config: { ...testDb.config().embedded, kek, kekPrevious, kekFile: '/nonexistent', production: true },
      out: (line: string) => lines.push(line),
      err: (line: string) => lines.push(`ERR ${line}`),
    })
    const userId = await newUser()
    const accounts = await createCustody(db, kekRing([parseKek(oldKek)], 'WALLET_KEK')).createKeys(db, userId)
    await runCustodyCli(['rotate-kek'], io(newKek, [oldKek]))
    assert.ok(lines.some((line) => /^Re-wrapped \d+ data keys under kek-/.test(line)))
    // The service restarted with only the new key: the same accounts, and they sign.
    const after = createCustody(db, kekRing([parseKek(newKek)], 'WALLET_KEK'))
    assert.deepEqual(await after.accounts(userId), accounts)
    await after.withKey(userId, 'ed25519', (secret) => assert.equal(secret.length, 32))
    lines.length = 0
    await runCustodyCli(['status'], io(newKek, []))
    assert.ok(lines.some((line) => line.startsWith(kekRing([parseKek(newKek)], 'WALLET_KEK').current.id)))
    assert.ok(!lines.some((line) => line.startsWith(kekRing([parseKek(oldKek)], 'WALLET_KEK').current.id)))
    // No WALLET_KEK in production: refused, nothing changed.
    lines.length = 0
    const refused = await runCustodyCli(['rotate-kek'], {
      ...io(newKek, []),
      config: { ...io(newKek, []).config, kek: null },
    })
    assert.equal(refused, 1)
    assert.match(lines.join('\n'), /WALLET_KEK is required in production/)
  })
})
