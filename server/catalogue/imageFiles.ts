import { createHash } from 'node:crypto'

/** Content types the image endpoints serve. */
export type ImageContentType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | 'image/svg+xml'

const startsWith = (bytes: Uint8Array, prefix: readonly number[], offset = 0) =>
  prefix.every((byte, index) => bytes[offset + index] === byte)

/**
 * The content type of an image, from its first bytes (not its file name); null when it is not a
 * format browsers show (for example a Photoshop file named `.jpeg`).
 *
 * @example
 * sniffImageType(await readFile('logo.png')) // 'image/png'
 */
export function sniffImageType(bytes: Uint8Array): ImageContentType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return 'image/gif'
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) {
    return 'image/webp'
  }
  const head = Buffer.from(bytes.subarray(0, 512))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return 'image/svg+xml'
  return null
}

/**
 * A strong ETag for image bytes (quoted, from their SHA-256), so it changes exactly when they do.
 *
 * @example
 * imageEtag(bytes) // '"k3x…"'
 */
export function imageEtag(bytes: Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/**
 * A simple SVG logo (the initial on a coloured square) for a wallet without a usable image.
 *
 * @example
 * placeholderLogo('Acme Wallet', '#3355ff')
 */
export function placeholderLogo(name: string, color = '#5b6472'): Buffer {
  const initial = escapeXml((name.trim()[0] ?? '?').toUpperCase())
  const fill = /^#[0-9a-fA-F]{3,8}$/.test(color) ? color : '#5b6472'
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96" role="img" aria-label="${escapeXml(name)}">` +
      `<rect width="96" height="96" rx="22" fill="${fill}"/>` +
      `<text x="48" y="63" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="44" ` +
      `font-weight="700" fill="#fff">${initial}</text></svg>`,
  )
}
