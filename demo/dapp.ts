/**
 * A site's own code on the modal's providers, unchanged from what it would write for a browser wallet:
 * viem over `getProvider('eip155')`, @solana/web3.js over `getProvider('solana')`. The end-to-end
 * tests drive it through `window.dapp`.
 */
import { Connection, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { createPublicClient, createWalletClient, custom, defineChain, http, parseEther } from 'viem'

const localChain = defineChain({
  id: 31337,
  name: 'Local Chain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [import.meta.env.VITE_LOCAL_RPC_URL ?? 'http://127.0.0.1:8545'] } },
})
const solanaUrl = import.meta.env.VITE_LOCAL_SOLANA_RPC_URL ?? 'http://127.0.0.1:8899'

const modal = () => {
  const element = document.querySelector('wallet-modal')
  if (!element) throw new Error('No <wallet-modal> on the page')
  return element
}

const wallet = () =>
  createWalletClient({ chain: localChain, transport: custom(modal().getProvider('eip155')) })

const dapp = {
  async signMessage(message: string) {
    const client = wallet()
    const [account] = await client.requestAddresses()
    if (!account) throw new Error('No account')
    return client.signMessage({ account, message })
  },
  async sendEth(to: `0x${string}`, ether: string) {
    const client = wallet()
    const [account] = await client.requestAddresses()
    if (!account) throw new Error('No account')
    const hash = await client.sendTransaction({ account, to, value: parseEther(ether) })
    const receipt = await createPublicClient({
      chain: localChain,
      transport: http(),
    }).waitForTransactionReceipt({ hash })
    return { hash, status: receipt.status }
  },
  async sendSol(to: string, sol: number) {
    const provider = modal().getProvider('solana')
    const from = provider.address
    if (!from) throw new Error('No Solana account')
    const connection = new Connection(solanaUrl, 'confirmed')
    const { blockhash } = await connection.getLatestBlockhash()
    const transaction = new Transaction({ feePayer: new PublicKey(from), recentBlockhash: blockhash }).add(
      SystemProgram.transfer({
        fromPubkey: new PublicKey(from),
        toPubkey: new PublicKey(to),
        lamports: Math.round(sol * LAMPORTS_PER_SOL),
      }),
    )
    return provider.sendTransaction(transaction, connection)
  },
}

declare global {
  interface Window {
    dapp: typeof dapp
  }
}
window.dapp = dapp

const result = document.getElementById('result') as HTMLOutputElement
const show = (promise: Promise<unknown>) =>
  promise.then(
    (value) => {
      result.textContent = JSON.stringify(value, null, 2)
    },
    (error: unknown) => {
      result.textContent = error instanceof Error ? error.message : String(error)
    },
  )
const self = (namespace: 'eip155' | 'solana') =>
  modal().walletConfig.$connections.get()[namespace]?.accounts[0] ?? ''
document
  .getElementById('sign')
  ?.addEventListener('click', () => void show(dapp.signMessage('Hello from the dapp')))
document
  .getElementById('send-eth')
  ?.addEventListener('click', () => void show(dapp.sendEth(self('eip155') as `0x${string}`, '0.01')))
document
  .getElementById('send-sol')
  ?.addEventListener('click', () => void show(dapp.sendSol(self('solana'), 0.01)))
