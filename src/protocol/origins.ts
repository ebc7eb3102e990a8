/**
 * Origin allow-list patterns (SPEC section 5: the allow-list supports `*` wildcards).
 *
 * A pattern is `*` (any origin), or `[scheme://]host[:port]` where:
 * - a `*` may stand only in the leftmost label of the host, and matches within that one label: a whole
 *   `*` label is exactly one label, so `https://*.example.com` allows `https://app.example.com` but not
 *   `https://a.b.example.com` nor `https://example.com` (list those as well); `https://my-app-*.vercel.app`
 *   allows `https://my-app-git-main.vercel.app` but not `https://my-app-x.y.vercel.app`;
 * - the port must match exactly; a pattern without a port allows only the scheme's default port;
 *   `:*` allows any port;
 * - without a scheme, both `http` and `https` are allowed.
 * Origins are compared in lower case, as browsers serialise them.
 */

const patternShape =
  /^(?:\*|(?:([a-z][a-z0-9+.-]*):\/\/)?([a-z0-9*_-]+(?:\.[a-z0-9_-]+)*)(?::(\d{1,5}|\*))?)$/

/**
 * Normalises a pattern as it will be stored: trimmed, lower case, without a trailing slash.
 *
 * @example
 * normalizeOriginPattern(' HTTPS://App.Example.com/ ') // 'https://app.example.com'
 */
export function normalizeOriginPattern(pattern: string): string {
  return pattern.trim().toLowerCase().replace(/\/+$/, '')
}

/**
 * Whether a string is a valid allow-list pattern (after {@link normalizeOriginPattern}): `*` only in the
 * leftmost label of the host, and never as the whole host.
 *
 * @example
 * isOriginPattern('https://*.example.com') // true
 * isOriginPattern('https://app.*.example.com') // false
 * isOriginPattern('https://example.com/path') // false
 */
export function isOriginPattern(pattern: string): boolean {
  const normalized = normalizeOriginPattern(pattern)
  const match = patternShape.exec(normalized)
  if (!match) return false
  const [, , host = '', port] = match
  if (normalized !== '*' && host.includes('*') && !host.includes('.')) return false
  return port === undefined || port === '*' || Number(port) <= 65535
}

/**
 * Domains where anyone can publish a site (from the private part of the Public Suffix List): a wildcard
 * over one of them lets strangers in.
 */
export const sharedHostingSuffixes: readonly string[] = [
  'amplifyapp.com',
  'appspot.com',
  'azurestaticapps.net',
  'azurewebsites.net',
  'bitbucket.io',
  'blogspot.com',
  'cloudfront.net',
  'codesandbox.io',
  'csb.app',
  'deno.dev',
  'firebaseapp.com',
  'fly.dev',
  'framer.app',
  'github.io',
  'gitlab.io',
  'glitch.me',
  'herokuapp.com',
  'loca.lt',
  'myshopify.com',
  'netlify.app',
  'ngrok-free.app',
  'ngrok.app',
  'ngrok.io',
  'now.sh',
  'onrender.com',
  'pages.dev',
  'r2.dev',
  'railway.app',
  'readthedocs.io',
  'replit.dev',
  'repl.co',
  'stackblitz.io',
  'surge.sh',
  'trycloudflare.com',
  'vercel.app',
  'web.app',
  'webflow.io',
  'wixsite.com',
  'workers.dev',
]

/**
 * A warning when a pattern lets in sites nobody controls: `*` (any origin), a wildcard on a shared
 * hosting domain (`https://*.vercel.app`, `https://my-app-*.vercel.app`) or over a whole top-level domain.
 * Null when there is nothing to warn about.
 *
 * @example
 * originPatternWarning('https://*.github.io') // 'https://*.github.io allows sites on github.io, …'
 */
export function originPatternWarning(pattern: string): string | null {
  const normalized = normalizeOriginPattern(pattern)
  if (normalized === '*') return '* allows every origin: any site can use this project'
  const host = patternShape.exec(normalized)?.[2] ?? ''
  if (!host.includes('*')) return null
  const suffix = host.slice(host.indexOf('.') + 1)
  const shared = sharedHostingSuffixes.find((domain) => suffix === domain || suffix.endsWith(`.${domain}`))
  if (shared !== undefined) {
    return (
      `${normalized} allows sites on ${shared}, a shared hosting domain where anyone can publish one ` +
      `(${normalized.replace('*', 'attacker')} would pass): list your own origins, or use your own domain`
    )
  }
  if (!suffix.includes('.')) return `${normalized} allows every site under the top-level domain .${suffix}`
  return null
}

const compiled = new Map<string, RegExp>()

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
}

function compile(pattern: string): RegExp | null {
  const cached = compiled.get(pattern)
  if (cached) return cached
  if (!isOriginPattern(pattern)) return null
  const match = patternShape.exec(pattern)
  if (!match) return null
  if (pattern === '*') return /^.*$/
  const [, scheme, host = '', port] = match
  const schemePart = scheme === undefined ? 'https?' : escapeRegExp(scheme)
  // One label at most: no dots in what the wildcard stands for.
  const hostPart = host.split('*').map(escapeRegExp).join('[a-z0-9_-]+')
  const portPart = port === undefined ? '' : port === '*' ? '(?::\\d{1,5})?' : `:${port}`
  const regExp = new RegExp(`^${schemePart}://${hostPart}${portPart}$`)
  // Bounded: patterns come from the database and are few; avoid growing without limit anyway.
  if (compiled.size > 10_000) compiled.clear()
  compiled.set(pattern, regExp)
  return regExp
}

/**
 * Whether `origin` (an `Origin` header value) is allowed by `pattern`.
 *
 * @example
 * originMatches('https://*.example.com', 'https://app.example.com') // true
 * originMatches('http://localhost:5173', 'http://localhost:4173') // false
 */
export function originMatches(pattern: string, origin: string): boolean {
  return compile(normalizeOriginPattern(pattern))?.test(origin.toLowerCase()) ?? false
}

/**
 * Whether any pattern of an allow-list allows `origin`.
 *
 * @example
 * isOriginAllowed(['http://localhost:5173', 'https://*.example.com'], 'https://shop.example.com') // true
 */
export function isOriginAllowed(patterns: readonly string[], origin: string): boolean {
  return patterns.some((pattern) => originMatches(pattern, origin))
}
