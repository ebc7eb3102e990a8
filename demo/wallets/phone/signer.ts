// What the Demo Phone Wallet needs of a chain namespace beyond eip155 (bip122, polkadot, cosmos): its
// account on a requested chain, the methods it serves, and each request's summary and action.
import type { Action } from './requests.ts'

export type NamespaceSigner = {
  readonly namespace: 'bip122' | 'polkadot' | 'cosmos'
  /** The account's address on a CAIP-2 chain of the namespace, or undefined for one it does not serve. */
  addressOn(chain: string): string | undefined
  /** The methods it answers (a session offers those the dapp asked for). */
  readonly methods: readonly string[]
  /** Events it emits. */
  readonly events: readonly string[]
  /**
   * The request understood, or undefined for a method it does not serve; throws (or rejects with) a
   * WalletRpcError to refuse. A promise when the summary needs the chain first (a payment built from
   * the node's coins is shown as it will be signed).
   */
  actionFor(
    method: string,
    params: unknown,
    chainId: string,
    id: number,
  ): Action | undefined | Promise<Action | undefined>
}

/** The request's params as an object (WalletConnect's non-EVM methods take one object). */
export function paramsObject(params: unknown): Record<string, unknown> {
  const value = Array.isArray(params) ? params[0] : params
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
}
