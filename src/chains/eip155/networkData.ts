import type { Network } from '../../protocol/entities.ts'

/** One row of the generated EVM network table (`npm run networks`, from `viem/chains`). */
export type Eip155NetworkData = Omit<
  Network,
  'id' | 'chainNamespace' | 'caipNetworkId' | 'testnet' | 'assets'
> & {
  id: number
  testnet?: true
}
