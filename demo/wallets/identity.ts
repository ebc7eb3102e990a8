/**
 * The Demo Wallet's name and icon, shared by its EVM side (EIP-6963) and its Solana side (Wallet
 * Standard): the modal merges the two into one wallet because the names match.
 */

export const DEMO_WALLET_RDNS = 'dev.wallet-elements.demo'
export const DEMO_WALLET_NAME = 'Demo Wallet'

const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="#5c7cfa"/><stop offset="1" stop-color="#364fc7"/></linearGradient></defs>
<rect width="96" height="96" rx="22" fill="url(#g)"/>
<path d="M22 30 58 19a5 5 0 0 1 6.4 4.8V30Z" fill="#bac8ff"/>
<rect x="16" y="28" width="62" height="46" rx="9" fill="#fff"/>
<rect x="52" y="41" width="30" height="20" rx="7" fill="#ffd43b"/>
<circle cx="61" cy="51" r="4" fill="#364fc7"/>
</svg>`

/**
 * The wallet's icon as an RFC 2397 data URI, as EIP-6963 and the Wallet Standard ask.
 *
 * @example
 * img.src = DEMO_WALLET_ICON
 */
export const DEMO_WALLET_ICON: `data:image/svg+xml;base64,${string}` = `data:image/svg+xml;base64,${btoa(ICON_SVG)}`

/** A v4 UUID for the EIP-6963 info, new on each page load. */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  // Pages on plain http origins other than loopback have no randomUUID; build a v4 UUID by hand.
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
