/**
 * The key of a balance in `$balances`: network and address.
 *
 * @example
 * balanceKey('eip155:1', '0xAb…') // 'eip155:1:0xab…'
 */
export const balanceKey = (caipNetworkId: string, address: string) =>
  `${caipNetworkId}:${address.toLowerCase()}`
