/**
 * The local stand-in for the outside world's mail: an SMTP server on loopback (`smtp-server`) that
 * keeps what it is sent (parsed with `mailparser`) so the dev inbox page of the service, and the
 * end-to-end tests, read the codes and links a person would find in their mailbox.
 */
import { randomUUID } from 'node:crypto'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/** A message the sink caught. */
export interface CaughtMail {
  id: string
  from: string
  to: string[]
  subject: string
  text: string
  html: string
  /** Milliseconds since the epoch. */
  receivedAt: number
}

export interface MailSink {
  /** `smtp://127.0.0.1:PORT`: what the service's `SMTP_URL` points at. */
  url: string
  /** Messages newest first (the last {@link MAX_MESSAGES}). */
  messages(): readonly CaughtMail[]
  /** Calls `listener` for each new message; returns the unsubscribe function. */
  subscribe(listener: (mail: CaughtMail) => void): () => void
  /** Forgets every message caught so far (a shared test stack handed to its next test file). */
  clear(): void
  stop(): Promise<void>
}

const MAX_MESSAGES = 500
const MAX_MESSAGE_BYTES = 1024 * 1024

/**
 * Starts the mail sink on `host:port` (port 0: a free one).
 *
 * @example
 * const sink = await startMailSink({ host: '127.0.0.1', port: 2525 })
 * sink.subscribe((mail) => console.log(mail.subject))
 */
export async function startMailSink(options: { host?: string; port?: number } = {}): Promise<MailSink> {
  const host = options.host ?? '127.0.0.1'
  const caught: CaughtMail[] = []
  const listeners = new Set<(mail: CaughtMail) => void>()
  const server = new SMTPServer({
    // Its built-in certificate has expired (MACHINE-NOTES): no STARTTLS on loopback.
    disabledCommands: ['STARTTLS', 'AUTH'],
    hideSTARTTLS: true,
    authOptional: true,
    size: MAX_MESSAGE_BYTES,
    banner: 'wallet-elements dev mail sink',
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = session.envelope.rcptTo.map((address) => address.address.toLowerCase())
          const mail: CaughtMail = {
            id: randomUUID(),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to,
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            receivedAt: Date.now(),
          }
          caught.unshift(mail)
          caught.length = Math.min(caught.length, MAX_MESSAGES)
          for (const listener of listeners) listener(mail)
          callback()
        })
        .catch((error: Error) => callback(error))
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 2525, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  server.on('error', () => {})
  const address = server.server.address()
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 2525)
  return {
    url: `smtp://${host}:${port}`,
    messages: () => caught,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    clear: () => {
      caught.length = 0
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
