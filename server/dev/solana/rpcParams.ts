// The parameters of the Solana JSON-RPC methods: their schemas, limits and the wire transaction's decoding.
import { PublicKey } from '@solana/web3.js'
import { z } from 'zod'
import { decodeBase58, decodeBase64 } from './codec.ts'
import { invalidParams } from './errors.ts'

/** The most accounts one request names (getMultipleAccounts, simulateTransaction's `accounts`). */
export const MAX_MULTIPLE_ACCOUNTS = 100
const MAX_BASE58_TRANSACTION = 1_683
const MAX_BASE64_TRANSACTION = 1_644

export const address = z.string().transform((text, ctx) => {
  try {
    const key = new PublicKey(text)
    if (key.toBase58() === text) return key
  } catch {}
  ctx.addIssue({ code: 'custom', message: `Invalid public key: ${text}` })
  return z.NEVER
})

export const signature = z.string().refine((text) => {
  try {
    return decodeBase58(text).length === 64
  } catch {
    return false
  }
}, 'Invalid signature')

export const commitment = z.enum([
  'processed',
  'confirmed',
  'finalized',
  'recent',
  'single',
  'singleGossip',
  'root',
  'max',
])

export const contextConfig = z
  .looseObject({
    commitment: commitment.optional(),
    minContextSlot: z.number().int().nonnegative().optional(),
  })
  .nullish()

const accountEncoding = z.enum(['binary', 'base58', 'base64', 'base64+zstd', 'jsonParsed'])

export const accountConfig = z
  .looseObject({
    commitment: commitment.optional(),
    minContextSlot: z.number().int().nonnegative().optional(),
    encoding: accountEncoding.optional(),
    dataSlice: z
      .object({ offset: z.number().int().nonnegative(), length: z.number().int().nonnegative() })
      .optional(),
  })
  .nullish()

export const transactionEncoding = z.enum(['base58', 'base64'])

/** Parses `params` (absent = []) or throws the validator's -32602. */
export function parse<T>(schema: z.ZodType<T>, params: unknown): T {
  if (params !== undefined && !Array.isArray(params)) throw invalidParams('params must be an array')
  const result = schema.safeParse(params ?? [])
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const where = issue && issue.path.length > 0 ? `param ${issue.path.join('.')}: ` : ''
  throw invalidParams(`${where}${issue?.message ?? 'invalid'}`)
}

/** Methods whose only parameter is an optional context config. */
export const noParams = z.tuple([contextConfig.optional()])

/** A wire transaction of `sendTransaction` / `simulateTransaction`, within the validator's size limits. */
export function decodeWire(text: string, encoding: 'base58' | 'base64'): Uint8Array {
  const max = encoding === 'base58' ? MAX_BASE58_TRANSACTION : MAX_BASE64_TRANSACTION
  if (text.length > max) {
    throw invalidParams(
      `${encoding} encoded transaction too large: ${text.length} bytes (max: encoded ${max})`,
    )
  }
  try {
    return encoding === 'base58' ? decodeBase58(text) : decodeBase64(text)
  } catch {
    throw invalidParams(`invalid ${encoding} encoding`)
  }
}
