import { defineChain } from 'viem'

// The local chains' RPC URLs come from the page's URL (the test's stack runs them on free ports).
const search = new URLSearchParams(location.search)

const local = (id: number, name: string, url: string) =>
  defineChain({
    id,
    name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  })

export const localChain = local(31337, 'Local Chain', search.get('rpc') ?? 'http://127.0.0.1:8545')
export const localChain2 = local(31338, 'Local Chain 2', search.get('rpc2') ?? 'http://127.0.0.1:8546')
