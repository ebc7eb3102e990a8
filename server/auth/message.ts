/**
 * What a sign-in message must say to be taken (SIWX): well formed, its `data` the text's own, for this
 * project's site and the requesting page, and within its times.
 */
import type { AuthenticateRequest } from '../../src/protocol/api/index.ts'
import { authLimits } from '../../src/protocol/api/index.ts'
import { parseSiwxMessage, type SiwxMessage } from '../../src/protocol/siwx/index.ts'
import { badRequest } from '../errors.ts'
import { isOriginAllowed } from '../projects/origins.ts'
import type { Project } from '../projects/store.ts'
import { AuthError, sessionExpired } from './errors.ts'

function invalidDomain(message: string): AuthError {
  return new AuthError(403, 'INVALID_DOMAIN', message, { field: 'message' })
}

/** The signed text as a message, or 400 naming what is wrong with it. */
export function parseMessage(text: string): SiwxMessage {
  try {
    return parseSiwxMessage(text)
  } catch (error) {
    const problem = error instanceof Error ? error.message.replace(/^Invalid sign-in message: /, '') : ''
    throw badRequest('message', `Invalid body field message: ${problem}`)
  }
}

/** The `data` the client sent must describe the text it had signed. */
export function checkData(message: SiwxMessage, data: AuthenticateRequest['data']): void {
  if (data === undefined) return
  const evm = message.chainId.startsWith('eip155:')
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue
    const expected = (message as unknown as Record<string, unknown>)[key]
    const same =
      key === 'accountAddress' && evm && typeof value === 'string' && typeof expected === 'string'
        ? value.toLowerCase() === expected.toLowerCase()
        : JSON.stringify(value) === JSON.stringify(expected)
    if (!same) throw badRequest(`data.${key}`, `Invalid body field data.${key}: does not match the message`)
  }
}

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null
  } catch {
    return null
  }
}

/**
 * The message must be for this project's site: its domain and URI on the allow-list (same patterns as
 * the `Origin` check), and both the request's origin when the request has one. A domain without a
 * scheme is allowed when it is with `http` or `https`.
 */
export function checkDomain(project: Project, message: SiwxMessage, requestOrigin: string | undefined): void {
  const uriOrigin = originOf(message.uri)
  if (uriOrigin === null) throw invalidDomain('The message URI must be an http or https URL')
  const schemes = message.scheme === undefined ? ['https', 'http'] : [message.scheme.toLowerCase()]
  const domainAllowed = schemes.some((scheme) => {
    const origin = originOf(`${scheme}://${message.domain}`)
    return origin !== null && isOriginAllowed(project.origins, origin)
  })
  if (!domainAllowed) {
    throw invalidDomain(`The message domain ${message.domain} is not on the project's allowed origins`)
  }
  if (!isOriginAllowed(project.origins, uriOrigin)) {
    throw invalidDomain(`The message URI ${message.uri} is not on the project's allowed origins`)
  }
  if (requestOrigin !== undefined) {
    const origin = originOf(requestOrigin)
    const scheme = origin === null ? '' : new URL(origin).protocol.slice(0, -1)
    const sameScheme = message.scheme === undefined || message.scheme.toLowerCase() === scheme
    if (origin === null || !sameScheme || originOf(`${scheme}://${message.domain}`) !== origin) {
      throw invalidDomain(
        `The message domain ${message.domain} is not the requesting page's (${requestOrigin})`,
      )
    }
    if (uriOrigin !== origin) {
      throw invalidDomain(
        `The message URI ${message.uri} is not on the requesting page's origin (${requestOrigin})`,
      )
    }
  }
}

/** Issued At may be a minute ahead of our clock, Not Before must have come, Expiration Time not passed. */
export function checkTimes(message: SiwxMessage, now: number): void {
  if (Date.parse(message.issuedAt) > now + authLimits.clockSkewMs) {
    throw sessionExpired({ notYet: true, field: 'message' })
  }
  if (message.notBefore !== undefined && Date.parse(message.notBefore) > now + authLimits.clockSkewMs) {
    throw sessionExpired({ notYet: true, field: 'message' })
  }
  if (message.expirationTime !== undefined && Date.parse(message.expirationTime) <= now) {
    throw sessionExpired({ field: 'message' })
  }
}
