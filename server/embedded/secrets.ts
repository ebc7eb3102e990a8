import { createHash, createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import { embeddedLimits } from '../../src/protocol/embedded/index.ts'
import type { KekRing } from './kek.ts'

/**
 * A random id handed to the frame (`loginId`, `updateId`, request ids): 128 bits, URL-safe.
 *
 * @example
 * newId() // 'Qk3v…' (22 characters)
 */
export function newId(): string {
  return randomBytes(16).toString('base64url')
}

/** A bearer secret (session token, approval link): 256 bits, URL-safe, 43 characters. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url')
}

/** What the database keeps of a bearer secret: its SHA-256 (the secret has 256 bits of entropy). */
export function secretHash(secret: string): Buffer {
  return createHash('sha256').update(secret).digest()
}

/** A one-time code: 6 digits, uniformly random. */
export function newCode(): string {
  return String(randomInt(0, 10 ** embeddedLimits.otpLength)).padStart(embeddedLimits.otpLength, '0')
}

/**
 * Hashes one-time codes with a key derived from the KEK: six digits are quick to guess offline, so a
 * database dump alone must not let anyone test them. New codes use the current KEK; a code mailed
 * before a KEK rotation still matches under the previous KEKs of the ring (`WALLET_KEK_PREVIOUS`).
 *
 * @example
 * const codes = codeHasher(keks)
 * const stored = codes.hash(codeId, '123456')
 * codes.matches(codeId, '123456', stored) // true
 */
export function codeHasher(keks: KekRing) {
  const keys = keks.all.map((kek) =>
    Buffer.from(hkdfSync('sha256', kek.key, Buffer.alloc(0), 'wallet-elements one-time codes', 32)),
  )
  const hashWith = (key: Buffer, codeId: string, code: string) =>
    createHmac('sha256', key).update(`${codeId}:${code}`).digest()
  const [current] = keys
  if (!current) throw new Error('No key-encryption key')
  return {
    hash: (codeId: string, code: string) => hashWith(current, codeId, code),
    matches(codeId: string, code: string, stored: Buffer): boolean {
      return keys.some((key) => {
        const candidate = hashWith(key, codeId, code)
        return candidate.length === stored.length && timingSafeEqual(candidate, stored)
      })
    },
  }
}

export type CodeHasher = ReturnType<typeof codeHasher>

/**
 * A short description of a browser from its User-Agent, for the approval mail and page
 * (`Chrome on Linux`); never the whole header.
 *
 * @example
 * browserLabel('Mozilla/5.0 (X11; Linux x86_64) … Chrome/126.0 Safari/537.36') // 'Chrome on Linux'
 */
export function browserLabel(userAgent: string | undefined): string {
  const ua = userAgent ?? ''
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\/|Chromium\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'A browser'
  const system = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux|X11/.test(ua)
            ? 'Linux'
            : undefined
  return system ? `${browser} on ${system}` : browser
}
