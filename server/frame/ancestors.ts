import { createHash } from 'node:crypto'
import { FRAME_ANCESTORS_DEFAULT } from '../../src/protocol/constants.ts'
import { isOriginAllowed, normalizeOriginPattern } from '../projects/origins.ts'
import type { Project } from '../projects/store.ts'

/**
 * The origins that may embed the wallet frame for a project: the project's allow-list, plus
 * `http://localhost:*` and `http://127.0.0.1:*` in development (SPEC 9). Preview hosts come from the
 * project's own wildcard entries.
 *
 * @example
 * frameAncestorPatterns(project, true) // ['https://app.example.com', 'http://localhost:*', 'http://127.0.0.1:*']
 */
export function frameAncestorPatterns(project: Pick<Project, 'origins'>, development: boolean): string[] {
  return [...new Set([...project.origins, ...(development ? FRAME_ANCESTORS_DEFAULT : [])])]
}

/**
 * Whether a site (the origin that embeds the frame) may use the project's embedded wallet.
 *
 * @example
 * isSiteAllowed(project, 'http://127.0.0.1:5173', true)
 */
export function isSiteAllowed(
  project: Pick<Project, 'origins'>,
  site: string,
  development: boolean,
): boolean {
  return isOriginAllowed(frameAncestorPatterns(project, development), site)
}

/**
 * One allow-list pattern as CSP `frame-ancestors` sources. CSP wildcards only lead a host
 * (`*.example.com`), so a pattern with `*` inside a label widens to the labels after it; the frame's
 * own check (the same patterns, exactly) still refuses the origins CSP lets through.
 *
 * @example
 * cspSources('example.com') // ['http://example.com', 'https://example.com']
 * cspSources('https://pr-*.preview.example.com') // ['https://*.preview.example.com']
 */
export function cspSources(pattern: string): string[] {
  const normalized = normalizeOriginPattern(pattern)
  if (normalized === '*') return ['https:', 'http:']
  const match = /^(?:([a-z][a-z0-9+.-]*):\/\/)?([^:/]+)(?::(\d{1,5}|\*))?$/.exec(normalized)
  if (!match) return []
  const [, scheme, host = '', port] = match
  const labels = host.split('.')
  const last = labels.findLastIndex((label) => label.includes('*'))
  const cspHost = last === -1 ? host : ['*', ...labels.slice(last + 1)].join('.')
  if (cspHost === '*') return scheme ? [`${scheme}:`] : ['https:', 'http:']
  const hostPort = port === undefined ? cspHost : `${cspHost}:${port}`
  return (scheme ? [scheme] : ['http', 'https']).map((name) => `${name}://${hostPort}`)
}

/**
 * The CSP sources (`'sha256-…'`) of a built page's import maps, the only inline scripts the frame's
 * build writes (scripts/sriPlugin.ts: the integrity of every chunk a page may import).
 *
 * @example
 * inlineScriptHashes('<script type="importmap">{}</script>') // ["'sha256-RBNvo1WzZ4oRRq0W9+hknpT7T8If536DEMBg9hyq/4o='"]
 */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script type="importmap">([^<]*)<\/script>/g)].map(
    ([, text = '']) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`,
  )
}

/**
 * The `Content-Security-Policy` of the frame's page for a project: only the frame's own scripts (and
 * its build's import map, by hash), styles and API, and `frame-ancestors` from the project's allow-list.
 *
 * @example
 * reply.header('content-security-policy', frameCsp(frameAncestorPatterns(project, true)))
 */
export function frameCsp(ancestors: readonly string[], scripts: readonly string[] = []): string {
  const sources = [...new Set(ancestors.flatMap(cspSources))]
  return [
    "default-src 'none'",
    ["script-src 'self'", ...scripts].join(' '),
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${sources.length > 0 ? sources.join(' ') : "'none'"}`,
  ].join('; ')
}
