/**
 * The key of a balance in `$balances`: network and address (EVM addresses in lower case; Solana's
 * base58 is case-sensitive).
 *
 * @example
 * balanceKey('eip155:1', '0xAb…') // 'eip155:1:0xab…'
 */
export const balanceKey = (caipNetworkId: string, address: string) =>
  `${caipNetworkId}:${caipNetworkId.startsWith('eip155:') ? address.toLowerCase() : address}`
