import { InvalidResponseError, RequestTimeoutError, toBaseError } from '../errors/index.ts'
import type { Eip1193Provider } from './types.ts'

/**
 * Signing and sending wait for the person to read what they sign, so they get no timeout. Every
 * other request, connection prompts included, times out (SPEC section 9: 10 s), so a wallet that
 * hangs leaves the modal usable with the error shown and a retry.
 */
const INTERACTIVE = new Set(['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction'])

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
  let timer: ReturnType<typeof setTimeout> | undefined
  const request = Promise.resolve().then(() => provider.request(args))
  try {
    if (INTERACTIVE.has(args.method)) return await request
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RequestTimeoutError({ method: args.method, timeoutMs })), timeoutMs)
    })
    return await Promise.race([request, timeout])
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
