// AES-256-GCM through WebCrypto, with a fresh 96-bit IV per seal and additional data that binds the use.
const IV_BYTES = 12

/** A sealed value: the IV and the ciphertext with its 16-byte tag. */
export interface Sealed {
  iv: Uint8Array
  ciphertext: Uint8Array
}

const encoder = new TextEncoder()

/**
 * The same bytes typed for WebCrypto, which wants an ArrayBuffer-backed view; ours always are (never
 * a SharedArrayBuffer).
 *
 * @example
 * await crypto.subtle.importKey('raw', buffer(prfOutput), 'HKDF', false, ['deriveKey'])
 */
export const buffer = (bytes: Uint8Array) => bytes as Uint8Array<ArrayBuffer>

/**
 * Encrypts `plaintext` under `key` (AES-GCM, 256 bits) with `aad` as additional data.
 *
 * @example
 * const sealed = await seal(key, share, 'wallet-elements:device-share:v1:user-1')
 */
export async function seal(key: CryptoKey, plaintext: Uint8Array, aad: string): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
  const ciphertext = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(aad) },
    key,
    buffer(plaintext),
  )
  return { iv, ciphertext: new Uint8Array(ciphertext) }
}

/**
 * Decrypts a sealed value; undefined when the key, the additional data or the bytes do not match
 * (the caller throws its own typed error).
 *
 * @example
 * const share = await open(key, sealed, 'wallet-elements:device-share:v1:user-1')
 */
export async function open(key: CryptoKey, sealed: Sealed, aad: string): Promise<Uint8Array | undefined> {
  if (sealed.iv.length !== IV_BYTES) return undefined
  try {
    const plaintext = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: buffer(sealed.iv), additionalData: encoder.encode(aad) },
      key,
      buffer(sealed.ciphertext),
    )
    return new Uint8Array(plaintext)
  } catch {
    return undefined
  }
}
