import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  newPrfSalt,
  openWithPasskey,
  openWithPassword,
  parseSealedShare,
  SCRYPT_PARAMETERS,
  sealWithPasskey,
  sealWithPassword,
} from '../../../src/frame/keys/recovery.ts'
import { createSecret } from '../../../src/frame/keys/secret.ts'
import { splitSecret } from '../../../src/frame/keys/shares.ts'

const userId = '7f1c2a4e-3b7d-4c55-9a0e-2d6f8b1e9c01'
const prf = (fill: number) => new Uint8Array(32).fill(fill)
const recoveryShare = async () => (await splitSecret(createSecret())).recovery
// The fastest cost the format accepts keeps the wrong-password cases quick; one test uses the real one.
const quick = { N: 2 ** 14, r: 8, p: 1 }

describe('the recovery share sealed with a passkey', () => {
  it('default: the PRF output that sealed it opens it; the record is JSON with its PRF salt', async () => {
    const share = await recoveryShare()
    const prfSalt = newPrfSalt()
    const sealed = await sealWithPasskey({ share, prfOutput: prf(1), prfSalt, userId })
    const stored = parseSealedShare(JSON.parse(JSON.stringify(sealed)))
    assert.equal(stored.version, 1)
    assert.deepEqual(stored.kdf, {
      name: 'hkdf-sha256-prf',
      prfSalt: Buffer.from(prfSalt).toString('base64'),
    })
    assert.ok(!Buffer.from(stored.ciphertext, 'base64').includes(Buffer.from(share.subarray(9, 17))))
    if (stored.kdf.name !== 'hkdf-sha256-prf') throw new Error('passkey record expected')
    assert.deepEqual(
      await openWithPasskey({ sealed: { ...stored, kdf: stored.kdf }, prfOutput: prf(1), userId }),
      share,
    )
  })

  it('error: another passkey, another user id, or an altered record: refused with its message', async () => {
    const share = await recoveryShare()
    const sealed = await sealWithPasskey({ share, prfOutput: prf(1), prfSalt: newPrfSalt(), userId })
    const refused = {
      name: 'WrongRecoveryPasskeyError',
      shortMessage: 'This passkey does not open the recovery share',
    }
    await assert.rejects(openWithPasskey({ sealed, prfOutput: prf(2), userId }), refused)
    await assert.rejects(openWithPasskey({ sealed, prfOutput: prf(1), userId: 'someone-else' }), refused)
    const bytes = Buffer.from(sealed.ciphertext, 'base64')
    bytes[0] = (bytes[0] ?? 0) ^ 1
    await assert.rejects(
      openWithPasskey({
        sealed: { ...sealed, ciphertext: bytes.toString('base64') },
        prfOutput: prf(1),
        userId,
      }),
      refused,
    )
    await assert.rejects(openWithPasskey({ sealed, prfOutput: new Uint8Array(16), userId }), {
      ...refused,
      details: 'The PRF output is not 32 bytes',
    })
  })
})

describe('the recovery share sealed with a password', () => {
  it('default: scrypt with the chosen parameters, carried in the record; the password opens it', async () => {
    const share = await recoveryShare()
    const started = performance.now()
    const sealed = await sealWithPassword({ share, password: 'correct horse battery staple', userId })
    const took = performance.now() - started
    assert.deepEqual(
      { N: sealed.kdf.N, r: sealed.kdf.r, p: sealed.kdf.p },
      { N: SCRYPT_PARAMETERS.N, r: SCRYPT_PARAMETERS.r, p: SCRYPT_PARAMETERS.p },
    )
    assert.equal(Buffer.from(sealed.kdf.salt, 'base64').length, 16)
    console.log(`scrypt N=${sealed.kdf.N} r=${sealed.kdf.r} p=${sealed.kdf.p} in Node: ${took.toFixed(0)} ms`)
    assert.deepEqual(
      await openWithPassword({ sealed, password: 'correct horse battery staple', userId }),
      share,
    )
  })

  it('error: a wrong password is refused with its message, as is another user id', async () => {
    const share = await recoveryShare()
    const sealed = await sealWithPassword({ share, password: 'correct horse', userId, scrypt: quick })
    const wrong = { name: 'WrongRecoveryPasswordError', shortMessage: 'Wrong recovery password' }
    await assert.rejects(openWithPassword({ sealed, password: 'correct horse!', userId }), wrong)
    await assert.rejects(
      openWithPassword({ sealed, password: 'correct horse', userId: 'someone-else' }),
      wrong,
    )
    // The same password typed in another Unicode normal form still opens it.
    const accented = await sealWithPassword({ share, password: 'caf\u00e9', userId, scrypt: quick })
    assert.deepEqual(await openWithPassword({ sealed: accented, password: 'cafe\u0301', userId }), share)
  })

  it('error: records of an unknown version, KDF or cost are refused before any work', () => {
    const invalid = {
      name: 'InvalidSealedShareError',
      shortMessage: 'The sealed recovery share is not in a known format',
    }
    const base = {
      version: 1,
      kdf: { name: 'scrypt', N: 2 ** 16, r: 8, p: 1, salt: Buffer.alloc(16).toString('base64') },
      iv: Buffer.alloc(12).toString('base64'),
      ciphertext: Buffer.alloc(48).toString('base64'),
    }
    assert.equal(parseSealedShare(base).kdf.name, 'scrypt')
    assert.throws(() => parseSealedShare({ ...base, version: 2 }), invalid)
    assert.throws(() => parseSealedShare({ ...base, kdf: { ...base.kdf, name: 'argon2id' } }), invalid)
    assert.throws(() => parseSealedShare({ ...base, kdf: { ...base.kdf, N: 2 ** 30 } }), invalid)
    assert.throws(() => parseSealedShare({ ...base, kdf: { ...base.kdf, salt: 'AAAA' } }), invalid)
    assert.throws(() => parseSealedShare({ ...base, iv: 'not base64!' }), invalid)
  })
})
