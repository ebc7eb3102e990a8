import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { createRoot } from 'react-dom/client'
import { type Hash, parseEther } from 'viem'
import {
  createConfig,
  http,
  useAccount,
  useConnect,
  useDisconnect,
  useSendTransaction,
  useSignMessage,
  useSwitchChain,
  useWaitForTransactionReceipt,
  WagmiProvider,
} from 'wagmi'
import { connector, Wallet } from './app-wallet'
import { localChain, localChain2 } from './chains'

const config = createConfig({
  chains: [localChain, localChain2],
  connectors: [connector],
  multiInjectedProviderDiscovery: false,
  transports: {
    [localChain.id]: http(localChain.rpcUrls.default.http[0]),
    [localChain2.id]: http(localChain2.rpcUrls.default.http[0]),
  },
})

const MESSAGE = 'Hello from a wagmi app'
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

function App() {
  const account = useAccount()
  const connect = useConnect()
  const disconnect = useDisconnect()
  const sign = useSignMessage()
  const send = useSendTransaction()
  const switchChain = useSwitchChain()
  const [hash, setHash] = useState<Hash>()
  const receipt = useWaitForTransactionReceipt({ hash, chainId: localChain.id })
  return (
    <main>
      <p>
        Status: <output id="status">{account.status}</output>
      </p>
      <p>
        Address: <output id="address">{account.address ?? ''}</output>
      </p>
      <p>
        Chain: <output id="chain">{account.chainId ?? ''}</output>
      </p>
      {account.status === 'disconnected' &&
        config.connectors.map((each) => (
          <button key={each.uid} type="button" onClick={() => connect.mutate({ connector: each })}>
            Connect with {each.name}
          </button>
        ))}
      <p>
        Connect error: <output id="connect-error">{connect.error?.name ?? ''}</output>
      </p>
      {account.status === 'connected' && (
        <>
          <button type="button" onClick={() => sign.mutate({ message: MESSAGE })}>
            Sign message
          </button>
          <button
            type="button"
            onClick={() =>
              send.mutate(
                { to: RECIPIENT, value: parseEther('0.01'), chainId: localChain.id },
                { onSuccess: setHash },
              )
            }
          >
            Send 0.01 ETH
          </button>
          {config.chains.map((chain) => (
            <button key={chain.id} type="button" onClick={() => switchChain.mutate({ chainId: chain.id })}>
              Switch to {chain.name}
            </button>
          ))}
          <button type="button" onClick={() => disconnect.mutate()}>
            Disconnect (wagmi)
          </button>
        </>
      )}
      <p>
        Signature: <output id="signature">{sign.data ?? ''}</output>
      </p>
      <p>
        Transaction: <output id="transaction">{hash ?? ''}</output>{' '}
        <output id="receipt">{receipt.data?.status ?? ''}</output>
      </p>
      <Wallet />
    </main>
  )
}

const queryClient = new QueryClient()

createRoot(document.getElementById('root') as HTMLElement).render(
  <WagmiProvider config={config}>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </WagmiProvider>,
)
