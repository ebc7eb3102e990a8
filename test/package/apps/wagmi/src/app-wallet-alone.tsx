// The same app without wallet-elements (`vite build --mode alone`): wagmi's own browser-wallet connector.
import { injected } from 'wagmi'

export const connector = injected()

export function Wallet() {
  return null
}
