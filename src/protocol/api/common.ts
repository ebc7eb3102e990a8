import * as z from 'zod/mini'

const caip2Namespace = /^[-a-z0-9]{3,8}$/
const caip2Reference = /^[-_a-zA-Z0-9]{1,32}$/

/**
 * Whether a string is a CAIP-2 network id: exactly two non-empty colon-separated parts (SPEC section 5),
 * with the characters CAIP-2 allows in each.
 *
 * @example
 * isCaip2('eip155:1') // true
 * isCaip2('eip155') // false
 */
export function isCaip2(value: string): boolean {
  const parts = value.split(':')
  if (parts.length !== 2) return false
  const [namespace = '', reference = ''] = parts
  return caip2Namespace.test(namespace) && caip2Reference.test(reference)
}

/**
 * A CAIP-2 network id such as `eip155:1`; fails with the spec's message `Invalid CAIP-2 network id`.
 *
 * @example
 * caip2NetworkId.parse('eip155:31337')
 */
export const caip2NetworkId = z.string().check(z.refine(isCaip2, 'Invalid CAIP-2 network id'))

/** The characters a project id may use: letters, digits, `_` and `-`, up to 128, not starting with `-`. */
export const projectIdPattern = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,127}$/

/**
 * A project id as the service stores it.
 *
 * @example
 * projectId.parse('dev-project')
 */
export const projectId = z.string().check(z.regex(projectIdPattern, 'Expected letters, digits, _ or -'))

const sdkValuePattern = /^[\w.@/+-]{1,64}$/

/**
 * The query parameters every API request carries besides `projectId`: `st` (SDK type, for example
 * `wallet-elements`) and `sv` (SDK version, for example `wallet-elements-0.1.0`).
 *
 * @example
 * const query = new URLSearchParams({ projectId: 'dev-project', st: 'wallet-elements', sv: '0.1.0' })
 */
export const sdkQuery = z.object({
  st: z.string().check(z.regex(sdkValuePattern, 'Expected 1 to 64 letters, digits or . @ / + - _')),
  sv: z.string().check(z.regex(sdkValuePattern, 'Expected 1 to 64 letters, digits or . @ / + - _')),
})

export type SdkQuery = z.infer<typeof sdkQuery>

/**
 * A whole number sent as a query string, checked to lie in `[min, max]`.
 *
 * @example
 * queryInteger(1, 100).parse('40') // 40
 */
export function queryInteger(min: number, max: number) {
  return z.pipe(
    z.string().check(z.regex(/^\d{1,9}$/, 'Expected a whole number')),
    z.pipe(
      z.transform((value: string) => Number(value)),
      z.number().check(z.gte(min, `Expected at least ${min}`), z.lte(max, `Expected at most ${max}`)),
    ),
  )
}

/**
 * Splits a comma-separated query value into trimmed, non-empty items.
 *
 * @example
 * splitCommaList(' a, ,b ') // ['a', 'b']
 */
export function splitCommaList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

/**
 * A comma-separated query value, parsed into a list of at most `max` items that each match `item`.
 *
 * @example
 * commaList(caip2NetworkId, 10).parse('eip155:1,solana:mainnet')
 */
export function commaList<T extends z.ZodMiniType<string, string>>(item: T, max: number) {
  return z.pipe(
    z.string(),
    z.pipe(
      z.transform(splitCommaList),
      z.array(item).check(z.maxLength(max, `Expected at most ${max} comma-separated values`)),
    ),
  )
}

/** Ids of wallets and images: letters, digits and `: . _ -`, up to 128 characters. */
export const resourceId = z
  .string()
  .check(z.regex(/^[A-Za-z0-9:._-]{1,128}$/, 'Expected 1 to 128 letters, digits or : . _ -'))
