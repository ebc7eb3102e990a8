import type { FastifyInstance } from 'fastify'
import { escapeHtml } from '../../http/html.ts'
import type { CaughtMail, MailSink } from './index.ts'

/** Links in a mail's text become clickable (the approval link of a new browser). */
const linkify = (text: string) =>
  escapeHtml(text).replace(
    /https?:\/\/[^\s<]+/g,
    (url) => `<a href="${url}" target="_blank" rel="noopener">${url}</a>`,
  )

function page(messages: readonly CaughtMail[]): string {
  const items = messages
    .map(
      (mail) => `<article>
  <header><strong>${escapeHtml(mail.subject)}</strong><span>to ${escapeHtml(mail.to.join(', '))} · ${new Date(mail.receivedAt).toLocaleTimeString('en-GB')}</span></header>
  <pre>${linkify(mail.text)}</pre>
</article>`,
    )
    .join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="3"><title>Dev inbox · wallet-elements</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;padding:24px;background:#f8f9fa;color:#212529}
main{max-width:760px;margin:0 auto}h1{font-size:22px}p.note{color:#495057}
article{background:#fff;border:1px solid #dee2e6;border-radius:10px;padding:12px 16px;margin:12px 0}
header{display:flex;flex-wrap:wrap;justify-content:space-between;gap:8px}header span{color:#495057;font-size:13px}
pre{white-space:pre-wrap;word-break:break-word;font:14px/1.5 ui-monospace,monospace;margin:8px 0 0}
a{color:#1c4bd8}
</style></head>
<body><main><h1>Dev inbox</h1>
<p class="note">Mail the local stack sent (codes and approval links of the embedded wallet). Newest first; the page refreshes every 3 s. Development only: never run this in production.</p>
${items || '<p>No mail yet. Sign in with an e-mail address on the demo page.</p>'}
</main></body></html>`
}

/**
 * The dev inbox: `GET /dev/inbox` (a page a person reads the code on) and `GET /dev/inbox/messages`
 * (JSON, newest first, `?to=` filters by recipient; what the end-to-end tests read). Registered only
 * by the local stack, which also runs the mail sink.
 *
 * @example
 * await app.register(async (scope) => registerDevInbox(scope, sink))
 */
export function registerDevInbox(app: FastifyInstance, sink: MailSink): void {
  app.get('/dev/inbox', async (_request, reply) =>
    reply
      .header('cache-control', 'no-store')
      .header(
        'content-security-policy',
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      )
      .type('text/html; charset=utf-8')
      .send(page(sink.messages())),
  )
  app.get('/dev/inbox/messages', async (request, reply) => {
    const to = (request.query as { to?: unknown }).to
    const messages = sink
      .messages()
      .filter((mail) => typeof to !== 'string' || mail.to.includes(to.trim().toLowerCase()))
    return reply.header('cache-control', 'no-store').send({ messages })
  })
}
