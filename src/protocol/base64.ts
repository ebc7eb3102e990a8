/**
 * Standard base64 of bytes and back, in the browser without `Buffer` (Solana transactions travel as
 * base64 between the page, the wallets and the RPC).
 *
 * @example
 * fromBase64(toBase64(new Uint8Array([1, 2, 3]))) // Uint8Array [1, 2, 3]
 */
export function toBase64(bytes: Uint8Array): string {
  let text = ''
  for (const byte of bytes) text += String.fromCharCode(byte)
  return btoa(text)
}

/** Bytes of standard base64 text; throws (`atob`'s error) on text that is not base64. */
export function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0))
}

/**
 * URL-safe base64 of bytes without padding (RFC 4648 section 5): ids, binding secrets and hashes.
 *
 * @example
 * toBase64Url(new Uint8Array([251, 255])) // '-_8'
 */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** Bytes of URL-safe base64 text, padded or not; throws (`atob`'s error) on text that is not base64. */
export function fromBase64Url(text: string): Uint8Array {
  const standard = text.replaceAll('-', '+').replaceAll('_', '/')
  return fromBase64(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='))
}

/**
 * 128 random bits as URL-safe base64 (22 characters): the frame handshake's nonce, device ids.
 *
 * @example
 * randomId() // 'b7Vq0Xr…'
 */
export function randomId(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(16)))
}
