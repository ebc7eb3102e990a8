/**
 * Origin allow-list patterns (SPEC section 5: the allow-list supports `*` wildcards).
 *
 * A pattern is `*` (any origin), or `[scheme://]host[:port]` where:
 * - `*` in the host stands for one or more characters of a host name, dots included, so
 *   `https://*.example.com` allows `https://app.example.com` and `https://a.b.example.com` but not
 *   `https://example.com` (list that one as well);
 * - the port must match exactly; a pattern without a port allows only the scheme's default port;
 *   `:*` allows any port;
 * - without a scheme, both `http` and `https` are allowed.
 * Origins are compared in lower case, as browsers serialise them.
 */

const patternShape =
  /^(?:\*|(?:([a-z][a-z0-9+.-]*):\/\/)?([a-z0-9*_-]+(?:\.[a-z0-9*_-]+)*)(?::(\d{1,5}|\*))?)$/

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
 * Whether a string is a valid allow-list pattern (after {@link normalizeOriginPattern}).
 *
 * @example
 * isOriginPattern('https://*.example.com') // true
 * isOriginPattern('https://example.com/path') // false
 */
export function isOriginPattern(pattern: string): boolean {
  const normalized = normalizeOriginPattern(pattern)
  const match = patternShape.exec(normalized)
  if (!match) return false
  const port = match[3]
  return port === undefined || port === '*' || Number(port) <= 65535
}

const compiled = new Map<string, RegExp>()

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
}

function compile(pattern: string): RegExp | null {
  const cached = compiled.get(pattern)
  if (cached) return cached
  const match = patternShape.exec(pattern)
  if (!match) return null
  if (pattern === '*') return /^.*$/
  const [, scheme, host = '', port] = match
  const schemePart = scheme === undefined ? 'https?' : escapeRegExp(scheme)
  const hostPart = host.split('*').map(escapeRegExp).join('[a-z0-9_.-]+')
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
