import * as z from 'zod/mini'
import { InvalidResponseError } from '../../errors/index.ts'
import { validate } from '../../protocol/validation.ts'
import { isSolanaAddress } from './address.ts'

/**
 * One Solana JSON-RPC call, supplied by the caller (routed through the project's RPC proxy). It
 * resolves with the `result` member and throws the node's error itself.
 *
 * @example
 * const rpc: SolanaRpc = (method, params) => rpcRequest(fetch, url, method, params)
 */
export type SolanaRpc = (method: string, params: readonly unknown[]) => Promise<unknown>

/** A base58 address as nodes return it. */
export const AddressSchema = z.string().check(z.refine(isSolanaAddress, { error: 'Invalid Solana address' }))

/** A u64 sent as a decimal string (token amounts). */
export const U64StringSchema = z.string().check(
  z.refine((text) => /^\d{1,20}$/.test(text) && BigInt(text) < 2n ** 64n, {
    error: 'Expected a u64 decimal string',
  }),
)

/** A non-negative integer sent as a JSON number (lamports, slots). */
export const UnsignedSchema = z.int().check(z.nonnegative())

/**
 * The `{ context, value }` envelope most Solana methods answer with; only `value` is kept.
 *
 * @example
 * withContext(UnsignedSchema) // getBalance
 */
export function withContext<T extends z.ZodMiniType>(value: T) {
  return z.object({ context: z.object({ slot: UnsignedSchema }), value })
}

/**
 * Calls `rpc` and checks the answer against `schema`, so nothing malformed gets past the boundary.
 * A mismatch throws `InvalidResponseError` naming the method and what was wrong where.
 *
 * @example
 * const { value } = await solanaRequest(rpc, 'getBalance', [address], withContext(UnsignedSchema))
 */
export async function solanaRequest<T extends z.ZodMiniType>(
  rpc: SolanaRpc,
  method: string,
  params: readonly unknown[],
  schema: T,
): Promise<z.output<T>> {
  const answer = await rpc(method, params)
  const result = validate(schema, answer)
  if (result.ok) return result.value
  const where = result.path.length > 0 ? `${result.path.map(String).join('.')}: ` : ''
  throw new InvalidResponseError({ method, received: answer, details: `${where}${result.message}` })
}
