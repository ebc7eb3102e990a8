import { escapeHtml } from '../http/html.ts'
import type { MailMessage } from './mailer.ts'

/** The site's host as shown in mail (`app.example.com`, `127.0.0.1:5173`). */
const hostOf = (site: string) => {
  try {
    return new URL(site).host
  } catch {
    return site
  }
}

function layout(
  title: string,
  paragraphs: string[],
  highlight?: string,
  button?: { label: string; href: string },
) {
  const body = [
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>`,
    ...(highlight
      ? [
          `<p style="font-size:32px;letter-spacing:8px;font-weight:700;font-family:ui-monospace,monospace;margin:16px 0">${escapeHtml(highlight)}</p>`,
        ]
      : []),
    ...(button
      ? [
          `<p style="margin:24px 0"><a href="${escapeHtml(button.href)}" style="background:#3b5bdb;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(button.label)}</a></p>`,
        ]
      : []),
    ...paragraphs.map((paragraph) => `<p style="margin:0 0 12px;color:#495057">${escapeHtml(paragraph)}</p>`),
  ].join('\n')
  return `<!doctype html><html><body style="font:15px/1.5 system-ui,sans-serif;color:#212529;margin:0;padding:24px;background:#f8f9fa"><div style="max-width:480px;margin:0 auto;background:#fff;border-radius:12px;padding:24px">${body}</div></body></html>`
}

/**
 * The sign-in code mail.
 *
 * @example
 * loginCodeMail({ to: 'ada@example.com', code: '123456', site: 'https://app.example', minutes: 10 })
 */
export function loginCodeMail(input: {
  to: string
  code: string
  site: string
  minutes: number
}): MailMessage {
  const host = hostOf(input.site)
  const lines = [
    `Enter this code on ${host} to sign in to your wallet. It expires in ${input.minutes} minutes and works once.`,
    'If you did not ask for it, ignore this mail: nobody can sign in without the code.',
  ]
  return {
    to: input.to,
    subject: `${input.code} is your sign-in code`,
    text: [`Your sign-in code: ${input.code}`, '', ...lines].join('\n'),
    html: layout('Your sign-in code', lines, input.code),
  }
}

/**
 * The new-browser approval mail: a link to the frame's origin, sent once the sign-in code was proven.
 * The page it opens approves only with the short code the signing-in browser shows, so the mail says
 * where the request came from and that the code is on that browser, never in the mail.
 *
 * @example
 * deviceApprovalMail({ to, link: 'https://wallet.example/device#…', site, browser: 'Chrome on Linux', requestedAt: new Date(), minutes: 15 })
 */
export function deviceApprovalMail(input: {
  to: string
  link: string
  site: string
  browser: string
  requestedAt: Date
  minutes: number
}): MailMessage {
  const host = hostOf(input.site)
  const when = `${input.requestedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`
  const lines = [
    `Someone is signing in to your wallet on ${host} from a browser it has not seen before (${input.browser}), at ${when}.`,
    `If it was you, open the link within ${input.minutes} minutes and type the code that browser shows. If it was not you, do not open it: nothing is approved without that code.`,
  ]
  return {
    to: input.to,
    subject: `Approve a new browser for ${host}`,
    text: ['Approve this browser:', input.link, '', ...lines].join('\n'),
    html: layout('Approve a new browser', lines, undefined, {
      label: 'Review and approve',
      href: input.link,
    }),
  }
}

/**
 * A code of an e-mail change: to the current address first, then to the new one.
 *
 * @example
 * emailUpdateCodeMail({ to, code, site, newEmail, step: 'current', minutes: 10 })
 */
export function emailUpdateCodeMail(input: {
  to: string
  code: string
  site: string
  newEmail: string
  step: 'current' | 'new'
  minutes: number
}): MailMessage {
  const host = hostOf(input.site)
  const lines =
    input.step === 'current'
      ? [
          `Someone asked on ${host} to change your wallet's e-mail address to ${input.newEmail}.`,
          `Enter this code to confirm it was you. It expires in ${input.minutes} minutes. If it was not you, ignore this mail: nothing changes without the code.`,
        ]
      : [
          `Enter this code on ${host} to confirm this address for your wallet. It expires in ${input.minutes} minutes.`,
        ]
  return {
    to: input.to,
    subject: `${input.code} is your code to change your e-mail`,
    text: [`Your code: ${input.code}`, '', ...lines].join('\n'),
    html: layout(
      input.step === 'current' ? 'Confirm the change' : 'Confirm your new address',
      lines,
      input.code,
    ),
  }
}

/**
 * The code that lets a signed-in person see their keys (`export`) or delete their wallet (`delete`).
 *
 * @example
 * exportCodeMail({ to, code: '123456', site: 'https://app.example', purpose: 'export', minutes: 10 })
 */
export function exportCodeMail(input: {
  to: string
  code: string
  site: string
  purpose: 'export' | 'delete'
  minutes: number
}): MailMessage {
  const host = hostOf(input.site)
  const what =
    input.purpose === 'export'
      ? 'to show your wallet’s private keys'
      : 'to delete your wallet from the service'
  const lines = [
    `Someone signed in to your wallet on ${host} asked ${what}.`,
    `Enter this code to confirm it was you. It expires in ${input.minutes} minutes. If it was not you, do not share this code with anyone, and sign out everywhere from your account.`,
  ]
  const title = input.purpose === 'export' ? 'Export your wallet' : 'Delete your wallet'
  return {
    to: input.to,
    subject: `${input.code} is your code to ${input.purpose === 'export' ? 'export' : 'delete'} your wallet`,
    text: [`Your code: ${input.code}`, '', ...lines].join('\n'),
    html: layout(title, lines, input.code),
  }
}
