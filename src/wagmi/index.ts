/**
 * `wallet-elements/wagmi`: a wagmi connector (wagmi 2 and 3, `@wagmi/core` 2 and 3) that connects
 * through the modal, so an app written against wagmi's hooks gets every way in the modal offers.
 * wagmi, `@wagmi/core` and viem are the app's own (optional peer dependencies): none of them is bundled.
 *
 * @example
 * import { createConfig, http } from 'wagmi'
 * import { mainnet } from 'wagmi/chains'
 * import { walletElements } from 'wallet-elements/wagmi'
 *
 * const config = createConfig({ chains: [mainnet], connectors: [walletElements()], transports: { [mainnet.id]: http() } })
 * @module
 */
export type { WalletElementsParameters } from './connector.ts'
export { walletElements } from './connector.ts'
