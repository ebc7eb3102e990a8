import * as z from 'zod/mini'

/** A `0x`-prefixed hex string. */
export type Hex = `0x${string}`

/**
 * An EVM address: 40 hex characters, `0x` prefix optional.
 *
 * @example
 * EvmAddressSchema.parse('0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb')
 */
export const EvmAddressSchema = z
  .string()
  .check(z.regex(/^(0x)?[0-9a-fA-F]{40}$/, { error: 'Invalid EVM address' }))

/**
 * A Solana address: 32 to 44 base58 characters.
 *
 * @example
 * SolanaAddressSchema.parse('7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv')
 */
export const SolanaAddressSchema = z
  .string()
  .check(z.regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, { error: 'Invalid Solana address' }))

/**
 * A hex string: `0x` then hex digits (`0x` alone is empty data).
 *
 * @example
 * HexSchema.parse('0xdeadbeef') // '0xdeadbeef'
 */
export const HexSchema = z.pipe(
  z.string(),
  z.custom<Hex, string>((value) => /^0x[0-9a-fA-F]*$/.test(value), { error: 'Invalid hex string' }),
)
