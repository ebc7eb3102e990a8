/**
 * EIP-1193 error 4900, built lazily so the error catalogue stays off the first paint. Apart from
 * `actions/getProvider.ts`, which loads the Solana methods that throw it on demand.
 *
 * @example
 * throw await disconnectedError()
 */
export const disconnectedError = async () =>
  new (await import('../errors/rpc.ts')).ProviderDisconnectedError()
