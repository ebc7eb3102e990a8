/**
 * Upstream URLs may hold API keys (in the path, the query, the password or a host label), and the errors
 * of HTTP clients quote them: `getaddrinfo ENOTFOUND key.rpc.example`, viem's `URL: https://…/v3/KEY`.
 * What the service logs about an upstream failure goes through here first.
 */

/** The parts of an upstream URL that must not be shown: the whole URL and each piece that may be a key. */
export function upstreamUrlSecrets(url: string): string[] {
  const pieces = new Set<string>([url, url.replace(/\/+$/, '')])
  try {
    const parsed = new URL(url)
    pieces.add(parsed.href)
    pieces.add(`${parsed.host}${parsed.pathname}`)
    if (parsed.username) pieces.add(decodeURIComponent(parsed.username))
    if (parsed.password) pieces.add(decodeURIComponent(parsed.password))
    const hostIsName = !/^[\d.]+$|^\[/.test(parsed.hostname) && parsed.hostname !== 'localhost'
    if (hostIsName) pieces.add(parsed.hostname)
    for (const segment of parsed.pathname.split('/')) if (segment.length >= 6) pieces.add(segment)
    for (const value of parsed.searchParams.values()) if (value.length >= 6) pieces.add(value)
  } catch {
    // Not a URL: the whole string is all there is to hide.
  }
  return [...pieces].filter((piece) => piece.length > 0).sort((a, b) => b.length - a.length)
}

/**
 * `text` with every secret piece of every URL replaced by `[upstream]`.
 *
 * @example
 * redactUpstreamUrls('URL: https://rpc.example/v3/KEY123456', ['https://rpc.example/v3/KEY123456'])
 * // 'URL: [upstream]'
 */
export function redactUpstreamUrls(text: string, urls: readonly string[]): string {
  let redacted = text
  for (const url of urls) {
    for (const piece of upstreamUrlSecrets(url)) redacted = redacted.split(piece).join('[upstream]')
  }
  return redacted
}

/** What may be logged about why an upstream call failed. */
export interface UpstreamFailureSummary {
  /** The error's class, for example `HttpRequestError` or `TimeoutError`. */
  type: string
  /** The first system error code on the cause chain, for example `ECONNREFUSED` or `ENOTFOUND`. */
  code?: string
  /** HTTP status the upstream answered, when there was one. */
  status?: number
  /** A short description without addresses, host names or URLs. */
  message?: string
}

/**
 * A loggable summary of an upstream failure: the error's type, its system error code, the HTTP status and
 * viem's `shortMessage` (which names no URL), with the upstream's URL pieces taken out for good measure.
 * Never the error's message or its causes, which quote host names and URLs.
 *
 * @example
 * logger.warn({ chainId, upstream: summarizeUpstreamFailure(error, [url]) }, 'Upstream failed')
 */
export function summarizeUpstreamFailure(error: unknown, urls: readonly string[]): UpstreamFailureSummary {
  const summary: UpstreamFailureSummary = {
    type: error instanceof Error ? error.name : typeof error,
  }
  let current: unknown = error
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    const { code, status } = current as { code?: unknown; status?: unknown }
    if (summary.code === undefined && typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) {
      summary.code = code
    }
    if (summary.status === undefined && typeof status === 'number') summary.status = status
    current = current.cause
  }
  const shortMessage = (error as { shortMessage?: unknown } | null)?.shortMessage
  if (typeof shortMessage === 'string') summary.message = redactUpstreamUrls(shortMessage, urls)
  return summary
}
