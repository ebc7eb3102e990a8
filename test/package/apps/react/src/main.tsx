import type {} from 'wallet-elements/react'
import 'wallet-elements/elements'
import { useState } from 'react'
import { createRoot } from 'react-dom/client'
import type { WalletEvent } from 'wallet-elements'
import { Counter } from './Counter'

function App() {
  const [address, setAddress] = useState('')
  return (
    <main>
      <Counter />
      <wallet-modal
        theme="dark"
        networks="eip155:1"
        debug=""
        config={{
          networks: ['eip155:1', 'eip155:8453'],
          features: ['send'],
          rpcUrls: { 'eip155:1': ['https://rpc-a.example', 'https://rpc-b.example'] },
        }}
        onwallet-connect={(event: WalletEvent<'connect'>) => setAddress(event.detail.address)}
      />
      <wallet-button label="Connect" size="lg" />
      <p>{address}</p>
    </main>
  )
}

createRoot(document.getElementById('root') as HTMLElement).render(<App />)
