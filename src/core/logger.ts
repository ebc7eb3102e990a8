import { LOGGER_BUFFER_BYTES } from '../protocol/constants.ts'

export type LogLevel = 'info' | 'warn' | 'error'

/** One line of the client log: when, how bad, what, and the values that go with it (secrets removed). */
export interface LogEntry {
  time: number
  level: LogLevel
  message: string
  data?: unknown
}

export interface Logger {
  log(level: LogLevel, message: string, data?: unknown, time?: number): void
  /** The entries kept, oldest first. */
  entries(): LogEntry[]
}

// Values under these names are secrets whatever they hold (error codes are numbers and stay).
const SECRET_NAME = /sig|token|secret|key|pass|otp|code|cacao|auth|nonce|seed|mnemonic|cookie|session/i
// Signatures (65+ bytes of hex), JWTs, and every URL's path and query (an upstream's key often sits there).
const SECRET_TEXT = [
  /0x[0-9a-f]{128,}/gi,
  /\beyJ[\w-]+\.[\w-]+\.[\w-]*/g,
  /(\b[a-z][\w+.-]*:\/\/[^/\s?#]+)[^\s]*/gi,
]

function redactText(text: string): string {
  return SECRET_TEXT.reduce(
    (out, pattern, index) => out.replace(pattern, index === 2 ? '$1/…' : '[redacted]'),
    text,
  )
}

function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value)
  if (typeof value === 'bigint') return value.toString()
  if (typeof value !== 'object' || value === null) return value
  if (depth > 4) return '…'
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1))
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [
      name,
      SECRET_NAME.test(name) && typeof item !== 'number' ? '[redacted]' : redact(item, depth + 1),
    ]),
  )
}

/**
 * The client log of one modal, kept in memory up to about 1,024,000 bytes of JSON (SPEC section 9);
 * the oldest entries are dropped first. Signatures, tokens, codes, keys and URL paths never enter it.
 *
 * Loaded by `createClientLog` (clientLog.ts), which decides whether an entry is kept at all.
 *
 * @example
 * const logger = createLogger()
 * logger.log('warn', 'Pending transactions full', { dropped: hash }, Date.now())
 */
export function createLogger(maxBytes = LOGGER_BUFFER_BYTES): Logger {
  const kept: { entry: LogEntry; bytes: number }[] = []
  let bytes = 0
  const encoder = new TextEncoder()
  return {
    log(level, message, data, time = Date.now()) {
      const entry: LogEntry = { time, level, message: redactText(message) }
      if (data !== undefined) entry.data = redact(data)
      const size = encoder.encode(JSON.stringify(entry)).length
      kept.push({ entry, bytes: size })
      bytes += size
      while (bytes > maxBytes && kept.length > 0) bytes -= kept.shift()?.bytes ?? 0
    },
    entries: () => kept.map(({ entry }) => structuredClone(entry)),
  }
}
