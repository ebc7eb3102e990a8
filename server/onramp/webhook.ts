import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * The on-ramp provider's webhook signature, both ends of it: the provider (and the dev stand-in that
 * plays it) signs, the service checks. Hex HMAC-SHA256 of `timestamp.body` under the shared secret.
 */

/**
 * Signs a webhook body as the provider does.
 *
 * @example
 * const signature = signWebhook(secret, String(Date.now()), body)
 */
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
}

/**
 * Whether `signature` (as sent, any string) is the signature of `timestamp.body`, compared in constant
 * time.
 *
 * @example
 * if (!isWebhookSigned(secret, timestamp, raw, signature)) throw unauthorized()
 */
export function isWebhookSigned(secret: string, timestamp: string, body: string, signature: string): boolean {
  const expected = Buffer.from(signWebhook(secret, timestamp, body), 'hex')
  const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
