/** A message to sign as the preview shows it: its text when readable, else its bytes in hex. */
import { bytesToHex } from 'viem'
import type { ApprovalPreview } from '../index.ts'

/** Text when the bytes are readable UTF-8 without control characters, else undefined. */
function readable(bytes: Uint8Array): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    const control = [...text].some((character) => {
      const code = character.charCodeAt(0)
      return (code < 32 && code !== 9 && code !== 10 && code !== 13) || code === 127
    })
    return control ? undefined : text
  } catch {
    return undefined
  }
}

/**
 * The preview of the exact bytes that will be signed.
 *
 * @example
 * messagePreview(new TextEncoder().encode('Hello')) // { text: 'Hello' }
 */
export function messagePreview(bytes: Uint8Array): ApprovalPreview['message'] {
  const text = readable(bytes)
  return text === undefined ? { hex: bytesToHex(bytes) } : { text }
}
