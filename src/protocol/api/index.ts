/**
 * Schemas of the companion service API (SPEC section 7): every request and response body, shared by
 * the modal (which checks every response) and the service (which checks every request). Built on
 * `zod/mini` so the browser bundle stays small.
 *
 * @example
 * import { getWalletsResponse } from './protocol/api/index.ts'
 * const { data, count } = getWalletsResponse.parse(await response.json())
 */
export * from './analytics.ts'
export * from './auth.ts'
export * from './avatars.ts'
export * from './blockchain.ts'
export * from './catalogue.ts'
export * from './common.ts'
export * from './errors.ts'
export * from './health.ts'
export * from './history.ts'
export * from './jsonRpc.ts'
export * from './limits.ts'
export * from './names.ts'
export * from './onramp.ts'
export * from './paymaster.ts'
