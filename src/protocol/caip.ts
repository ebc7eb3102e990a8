import * as z from 'zod/mini'
import { ValidationError } from '../errors/validation.ts'
import type { ValidationResult } from './validation.ts'

/**
 * Chain namespaces the modal knows (SPEC 3).
 *
 * @example
 * ChainNamespaceSchema.parse('solana') // 'solana'
 */
export const ChainNamespaceSchema = z.enum(['eip155', 'solana', 'polkadot', 'bip122', 'cosmos'])
export type ChainNamespace = z.infer<typeof ChainNamespaceSchema>

/** A CAIP-2 network id, `namespace:reference`. */
export type CaipNetworkId = `${string}:${string}`
/** A CAIP-10 account id, `namespace:reference:address`. */
export type CaipAddress = `${string}:${string}:${string}`

const CAIP2_MESSAGE = 'Invalid CAIP-2 network id'
const CAIP10_MESSAGE = 'Invalid CAIP-10 address'

const hasParts = (value: string, count: number) => {
  const parts = value.split(':')
  return parts.length === count && parts.every((part) => part.length > 0)
}

/**
 * A CAIP-2 network id: exactly 2 non-empty colon-separated parts.
 *
 * @example
 * CaipNetworkIdSchema.parse('eip155:1') // 'eip155:1'
 */
export const CaipNetworkIdSchema = z.pipe(
  z.string(),
  z.custom<CaipNetworkId, string>((value) => hasParts(value, 2), { error: CAIP2_MESSAGE }),
)

/**
 * A CAIP-10 address: exactly 3 non-empty colon-separated parts.
 *
 * @example
 * CaipAddressSchema.parse('eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb')
 */
export const CaipAddressSchema = z.pipe(
  z.string(),
  z.custom<CaipAddress, string>((value) => hasParts(value, 3), { error: CAIP10_MESSAGE }),
)

/**
 * Splits a CAIP-2 network id; throws a `ValidationError` with the spec's message if malformed.
 *
 * @example
 * parseCaipNetworkId('eip155:1') // { namespace: 'eip155', reference: '1' }
 */
export function parseCaipNetworkId(id: string): { namespace: string; reference: string } {
  if (!hasParts(id, 2))
    throw new ValidationError(CAIP2_MESSAGE, { details: `Received ${JSON.stringify(id)}` })
  const [namespace = '', reference = ''] = id.split(':')
  return { namespace, reference }
}

/**
 * Splits a CAIP-10 address; throws a `ValidationError` with the spec's message if malformed.
 *
 * @example
 * parseCaipAddress('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv')
 * // { namespace: 'solana', reference: '5eykt4…', address: '7S3P…', caipNetworkId: 'solana:5eykt4…' }
 */
export function parseCaipAddress(address: string): {
  namespace: string
  reference: string
  address: string
  caipNetworkId: CaipNetworkId
} {
  if (!hasParts(address, 3))
    throw new ValidationError(CAIP10_MESSAGE, { details: `Received ${JSON.stringify(address)}` })
  const [namespace = '', reference = '', account = ''] = address.split(':')
  return { namespace, reference, address: account, caipNetworkId: `${namespace}:${reference}` }
}

/**
 * Joins a CAIP-2 network id and an account address into a CAIP-10 address.
 *
 * @example
 * toCaipAddress('eip155:1', '0xab16…') // 'eip155:1:0xab16…'
 */
export function toCaipAddress(networkId: CaipNetworkId, address: string): CaipAddress {
  const caipAddress = `${networkId}:${address}` as const
  parseCaipAddress(caipAddress)
  return caipAddress
}

/**
 * Parses a comma- or whitespace-separated list of CAIP-2 network ids (the `networks` attribute),
 * dropping repeats. Fails with the first bad entry's message and its index as `path`.
 *
 * @example
 * parseCaipNetworkIdList('eip155:1, eip155:10') // { ok: true, value: ['eip155:1', 'eip155:10'] }
 * parseCaipNetworkIdList('eip155') // { ok: false, message: 'Invalid CAIP-2 network id', path: [0] }
 */
export function parseCaipNetworkIdList(text: string): ValidationResult<CaipNetworkId[]> {
  const items = text.split(/[\s,]+/).filter(Boolean)
  const index = items.findIndex((item) => !hasParts(item, 2))
  if (index !== -1) return { ok: false, message: CAIP2_MESSAGE, path: [index] }
  return { ok: true, value: [...new Set(items as CaipNetworkId[])] }
}
