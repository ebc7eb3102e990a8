/** The params of the wallet's methods: the shared field schemas, and how a mismatch is answered. */
import { isAddress } from 'viem'
import * as z from 'zod/mini'
import { EmbeddedError } from '../errors.ts'

/** JSON-RPC's `Invalid params` (-32602), with the reason. */
export function invalidParams(message: string): EmbeddedError {
  return new EmbeddedError(400, 'BAD_REQUEST', message, { rpcCode: -32602, field: 'params' })
}

/**
 * The params of a request, checked with a schema; a mismatch is JSON-RPC's `Invalid params`.
 *
 * @example
 * const [id] = paramsOf(z.tuple([hex]), request.params, 'wallet_getCallsStatus')
 */
export function paramsOf<T extends z.ZodMiniType>(schema: T, params: unknown, method: string): z.output<T> {
  const parsed = z.safeParse(schema, params)
  if (!parsed.success) throw invalidParams(`Invalid params of ${method}`)
  return parsed.data
}

export const hex = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/))
export const quantity = z.string().check(z.regex(/^0x[0-9a-fA-F]{1,64}$/))
export const address = z.string().check(z.refine((value) => isAddress(value, { strict: false })))
export const base58 = z.string().check(z.regex(/^[1-9A-HJ-NP-Za-km-z]{1,2000}$/))
export const base64 = z.string().check(z.regex(/^[A-Za-z0-9+/]{1,1700000}={0,2}$/))

/** EVM chain id of a CAIP-2 id. */
export const evmChainId = (chainId: string) => Number(chainId.split(':')[1])

/** EVM chain id of a CAIP-2 id as a hex quantity, as EIP-5792 and EIP-7811 key their answers. */
export const evmChainHex = (chainId: string) => `0x${evmChainId(chainId).toString(16)}`
