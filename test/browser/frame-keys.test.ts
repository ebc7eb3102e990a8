// The device share at rest in the frame origin's IndexedDB (src/frame/keys/deviceShare.ts), in Chromium.
import { deviceShareStore } from '../../src/frame/keys/deviceShare.ts'
import { createSecret } from '../../src/frame/keys/secret.ts'
import { splitSecret } from '../../src/frame/keys/shares.ts'
import { keyStore } from '../../src/frame/storage.ts'
import { assert, equal } from './helpers.ts'

const store = deviceShareStore(indexedDB)
const readRecord = (userId: string) =>
  keyStore<Record<string, unknown>>(indexedDB, 'readonly', (s) => s.get(`device-share:${userId}`))
const writeRecord = (userId: string, record: unknown) =>
  keyStore(indexedDB, 'readwrite', (s) => s.put(record, `device-share:${userId}`))
const newShare = async () => (await splitSecret(createSecret())).device

const contains = (haystack: Uint8Array, needle: Uint8Array) =>
  haystack.some((_, at) => needle.every((byte, index) => haystack[at + index] === byte))

/** The error `run` rejects with (fails when it resolves). */
async function rejection(
  run: () => Promise<unknown>,
): Promise<Error & { shortMessage?: string; details?: string }> {
  try {
    await run()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a rejection')
}

describe('the device share at rest', () => {
  it('default: saved, loaded back; the stored record holds no share in the clear', async () => {
    const share = await newShare()
    await store.save('user-a', share)
    const loaded = await store.load('user-a')
    equal(loaded?.join(), share.join(), 'the share comes back')
    const record = await readRecord('user-a')
    equal(Object.keys(record).sort().join(), 'ciphertext,iv,key,version', 'the record’s fields')
    for (const value of Object.values(record)) {
      if (value instanceof Uint8Array)
        assert(!contains(value, share.subarray(9, 17)), 'a share’s bytes in the clear')
    }
    equal(await store.load('nobody'), undefined, 'no record, no share')
  })

  it('behavior: the wrapping key is non-extractable: exportKey throws', async () => {
    await store.save('user-b', await newShare())
    const { key } = (await readRecord('user-b')) as { key: CryptoKey }
    equal(key.extractable, false, 'extractable')
    equal(key.algorithm.name, 'AES-GCM', 'algorithm')
    for (const format of ['raw', 'jwk'] as const) {
      const error = await rejection(() => crypto.subtle.exportKey(format, key))
      equal(error.name, 'InvalidAccessError', `exportKey(${format})`)
    }
  })

  it('behavior: delete forgets the record', async () => {
    await store.save('user-c', await newShare())
    await store.delete('user-c')
    equal(await store.load('user-c'), undefined, 'after delete')
    equal(await readRecord('user-c'), undefined, 'the raw record')
  })

  it('error: another user id’s record does not open (its additional data names the user)', async () => {
    await store.save('user-d', await newShare())
    await writeRecord('user-e', await readRecord('user-d'))
    const error = await rejection(() => store.load('user-e'))
    equal(error.name, 'DeviceShareUnreadableError', 'name')
    equal(error.shortMessage, 'The wallet share on this device cannot be opened', 'message')
    equal(error.details, 'The stored record does not open: altered, or another user’s', 'details')
  })

  it('error: a tampered record (ciphertext, IV, another key, a readable key) is refused', async () => {
    await store.save('user-f', await newShare())
    const record = (await readRecord('user-f')) as { key: CryptoKey; iv: Uint8Array; ciphertext: Uint8Array }
    const flip = (bytes: Uint8Array, at: number) => {
      const copy = bytes.slice()
      copy[at] = (copy[at] ?? 0) ^ 1
      return copy
    }
    const otherKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ])
    const readableKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, [
      'encrypt',
      'decrypt',
    ])
    const cases: [string, unknown, string][] = [
      [
        'ciphertext',
        { ...record, ciphertext: flip(record.ciphertext, 3) },
        'The stored record does not open: altered, or another user’s',
      ],
      [
        'tag',
        { ...record, ciphertext: flip(record.ciphertext, record.ciphertext.length - 1) },
        'The stored record does not open: altered, or another user’s',
      ],
      [
        'iv',
        { ...record, iv: flip(record.iv, 0) },
        'The stored record does not open: altered, or another user’s',
      ],
      [
        'another key',
        { ...record, key: otherKey },
        'The stored record does not open: altered, or another user’s',
      ],
      ['a readable key', { ...record, key: readableKey }, 'The stored record is not in a known format'],
      [
        'a share in the clear',
        { version: 1, share: record.ciphertext },
        'The stored record is not in a known format',
      ],
    ]
    for (const [what, tampered, details] of cases) {
      await writeRecord('user-f', tampered)
      const error = await rejection(() => store.load('user-f'))
      equal(error.name, 'DeviceShareUnreadableError', what)
      equal(error.details, details, what)
    }
  })
})
