// The app with the modal: wagmi connects through wallet-elements.
import type {} from 'wallet-elements/react'
import 'wallet-elements/elements'
import { walletElements } from 'wallet-elements/wagmi'
import { localChain, localChain2 } from './chains'

export const connector = walletElements()

export function Wallet() {
  return (
    <>
      <wallet-modal
        networks="eip155:31337,eip155:31338"
        config={{
          rpcUrls: {
            'eip155:31337': localChain.rpcUrls.default.http[0],
            'eip155:31338': localChain2.rpcUrls.default.http[0],
          },
        }}
      />
      <wallet-button />
    </>
  )
}
