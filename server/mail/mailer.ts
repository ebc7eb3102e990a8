import nodemailer from 'nodemailer'

/** One message: plain text always, HTML beside it. */
export interface MailMessage {
  to: string
  subject: string
  text: string
  html: string
}

export interface Mailer {
  send(message: MailMessage): Promise<void>
  close(): void
}

/**
 * Sends mail over SMTP with nodemailer (`SMTP_URL`, e.g. `smtps://user:pass@mail.example.com:465`;
 * the dev stack points it at its local sink on 127.0.0.1:2525). Errors never carry the URL, which holds
 * the password.
 *
 * @example
 * const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:2525', from: 'Wallet <wallet@localhost>' })
 * await mailer.send({ to: 'ada@example.com', subject: 'Hi', text: 'Hi', html: '<p>Hi</p>' })
 */
export function createMailer(options: { smtpUrl: string; from: string; timeoutMs?: number }): Mailer {
  const url = new URL(options.smtpUrl)
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]'
  const timeout = options.timeoutMs ?? 10_000
  const transport = nodemailer.createTransport({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    // A local sink offers no usable TLS; anything else must upgrade to it.
    ...(loopback ? { ignoreTLS: true } : { requireTLS: url.protocol !== 'smtps:' }),
    pool: true,
    maxConnections: 4,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  })
  return {
    async send(message) {
      try {
        await transport.sendMail({ from: options.from, ...message })
      } catch (error) {
        const code = (error as { code?: unknown }).code
        throw new Error(
          `The mail server did not take the message${typeof code === 'string' ? ` (${code})` : ''}`,
        )
      }
    },
    close: () => transport.close(),
  }
}
