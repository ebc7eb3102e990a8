import { InvalidResponseError, RequestTimeoutError, toBaseError } from '../errors/index.ts'
import type { Eip1193Provider } from './types.ts'

/**
 * Signing and sending wait for the person to read what they sign, so they get no timeout. Every
 * other request, connection prompts included, times out (SPEC section 9: 10 s), so a wallet that
 * hangs leaves the modal usable with the error shown and a retry.
 */
const INTERACTIVE = new Set([
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'wallet_sendCalls',
  'wallet_grantPermissions',
  'wallet_requestExecutionPermissions',
  'wallet_revokePermissions',
])

/**
 * Sends one request to a wallet. Reads time out (a hanging wallet must not freeze the modal);
 * every failure becomes a typed error that keeps the wallet's own as `cause`.
 *
 * @example
 * const chainId = await walletRequest(provider, { method: 'eth_chainId' }, 10_000)
 */
export async function walletRequest(
  provider: Eip1193Provider,
  args: { method: string; params?: unknown },
  timeoutMs: number,
): Promise<unknown> {
  const request = Promise.resolve().then(() => provider.request(args))
  if (!INTERACTIVE.has(args.method)) return withTimeout(args.method, request, timeoutMs)
  try {
    return await request
  } catch (error) {
    throw toBaseError(error)
  }
}

/**
 * Races a wallet call against `timeoutMs` (`Request timed out` naming `method`); every failure
 * becomes a typed error.
 *
 * @example
 * const { accounts } = await withTimeout('standard:connect', feature.connect(), 10_000)
 */
export async function withTimeout<T>(method: string, promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new RequestTimeoutError({ method, timeoutMs })), timeoutMs)
      }),
    ])
  } catch (error) {
    throw toBaseError(error)
  } finally {
    clearTimeout(timer)
  }
}

/** Parses a wallet answer, turning a malformed one into an `InvalidResponseError`. */
export function expectShape<T>(method: string, value: unknown, parse: (value: unknown) => T | undefined): T {
  const parsed = parse(value)
  if (parsed === undefined) throw new InvalidResponseError({ method, received: value })
  return parsed
}
