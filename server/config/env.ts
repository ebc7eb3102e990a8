import { z } from 'zod'
import { isCaip2 } from '../../src/protocol/api/index.ts'

/**
 * Small parsers of environment variables shared by every context's configuration slice
 * (server/<context>/config.ts); server/config.ts composes the slices.
 */

/** Thrown by `loadConfig` (server/config.ts) with one line per bad variable. */
export class ConfigError extends Error {
  override name = 'ConfigError'
  readonly problems: readonly string[]
  constructor(problems: readonly string[]) {
    super(`Invalid service configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    this.problems = problems
  }
}

/** The raw environment a slice reads variables from by name (beside its zod schema). */
export type RawEnv = Readonly<Partial<Record<string, string | undefined>>>

/** An empty or blank value counts as unset. */
export const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value

/**
 * A whole number from `min` to `max`, `fallback` when unset.
 *
 * @example
 * const shape = { PORT: integer('PORT', 0, 65535, 8787) }
 */
export function integer(name: string, min: number, max: number, fallback: number) {
  return z.preprocess(blankToUndefined, wholeNumber(name, min, max).default(fallback))
}

/**
 * Like {@link integer}, but absent (undefined) when not set, so the default lives with its feature.
 *
 * @example
 * const shape = { AUTH_SESSION_TTL: optionalInteger('AUTH_SESSION_TTL', 60, 31_536_000) }
 */
export function optionalInteger(name: string, min: number, max: number) {
  return z.preprocess(blankToUndefined, wholeNumber(name, min, max).optional())
}

/** A set variable's text as a whole number from `min` to `max`, with the message naming the variable. */
function wholeNumber(name: string, min: number, max: number) {
  return z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`))
}

/**
 * The non-empty, trimmed items of a comma-separated list.
 *
 * @example
 * commaItems('a, b,,c') // ['a', 'b', 'c']
 */
export function commaItems(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

/**
 * Whether `value` parses as an http:// or https:// URL.
 *
 * @example
 * isHttpUrl('https://example.com') // true
 */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

/**
 * `CAIP-2-id=URL, ...` (RPC_UPSTREAMS, BUNDLER_UPSTREAMS, HISTORY_UPSTREAMS); problems never quote a URL.
 *
 * @example
 * const shape = { RPC_UPSTREAMS: upstreamMap('RPC_UPSTREAMS', 'eip155:31337=http://127.0.0.1:8545') }
 */
export function upstreamMap(name: string, example: string) {
  return z.preprocess(
    (value) => (typeof value === 'string' ? value : undefined),
    z
      .string()
      .transform((value, context) => {
        const upstreams: Record<string, string> = {}
        // Problems name the entry by position and network, never its URL (which may hold an API key).
        for (const [index, item] of commaItems(value).entries()) {
          const separator = item.indexOf('=')
          const chainId = separator === -1 ? '' : item.slice(0, separator).trim()
          const url = separator === -1 ? '' : item.slice(separator + 1).trim()
          if (!isCaip2(chainId)) {
            context.addIssue({
              code: 'custom',
              message: `${name} entry ${index + 1}: expected CAIP-2-id=URL such as ${example}`,
            })
          } else if (!isHttpUrl(url)) {
            context.addIssue({
              code: 'custom',
              message: `${name} entry ${index + 1} (${chainId}): the URL after = must be http:// or https://`,
            })
          } else {
            upstreams[chainId] = url
          }
        }
        return upstreams
      })
      .optional(),
  )
}
