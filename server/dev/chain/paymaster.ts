/**
 * The verifying paymaster on the local chain (contracts/WalletPaymaster.sol): deployed at start by its own
 * dev account (beyond the ten funded ones, so no planned address moves), trusting the signer of this run's
 * `PAYMASTER_SIGNER_KEY`, and funded with a deposit at EntryPoint v0.8 from that account.
 */
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  getAddress,
  getContractAddress,
  http,
  parseEther,
  toHex,
} from 'viem'
import { entryPoint08Address } from 'viem/account-abstraction'
import { compileContracts } from './compile.ts'
import { DEV_ACCOUNT_COUNT, devAccount, LOCAL_NODE_TIMEOUT_MS } from './index.ts'

/** The dev account that deploys, owns and funds the paymaster. */
export const PAYMASTER_OWNER_INDEX = DEV_ACCOUNT_COUNT + 2

/** The paymaster's functions the stack and the tests call. */
export const walletPaymasterAbi = [
  {
    type: 'function',
    name: 'deposit',
    stateMutability: 'payable',
    inputs: [],
    outputs: [],
  },
  {
    type: 'function',
    name: 'getDeposit',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'signer',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'address' }],
  },
] as const

/**
 * Where the paymaster lands on a fresh chain (its owner's first transaction), so the service can be told
 * before the chain is up.
 *
 * @example
 * const paymaster = planPaymaster() // PAYMASTER_ADDRESSES=eip155:31337=${paymaster}
 */
export function planPaymaster(): Address {
  return getContractAddress({ from: devAccount(PAYMASTER_OWNER_INDEX).address, nonce: 0n })
}

export type DeployPaymasterParameters = {
  /** The local chain's JSON-RPC URL. */
  url: string
  chainId: number
  /** The address of `PAYMASTER_SIGNER_KEY` (the service's signing key). */
  signer: Address
  /** The deposit at the EntryPoint, in wei (10 ETH by default). */
  deposit?: bigint
}

/**
 * Deploys a WalletPaymaster trusting `signer` and deposits for it at the EntryPoint. Resolves to its address.
 *
 * @example
 * const signerKey = generatePrivateKey()
 * const paymaster = await deployPaymaster({ url: chain.url, chainId: 31337, signer: privateKeyToAddress(signerKey) })
 */
export async function deployPaymaster({
  url,
  chainId,
  signer,
  deposit = parseEther('10'),
}: DeployPaymasterParameters): Promise<Address> {
  const { WalletPaymaster } = await compileContracts()
  if (!WalletPaymaster) throw new Error('deployPaymaster: contracts/WalletPaymaster.sol did not compile')
  const chain = {
    id: chainId,
    name: `Local ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  } satisfies Chain
  const transport = http(url, { retryCount: 0, timeout: LOCAL_NODE_TIMEOUT_MS })
  const client = createPublicClient({ chain, transport })
  const owner = devAccount(PAYMASTER_OWNER_INDEX)
  const wallet = createWalletClient({ chain, transport, account: owner })
  await client.request({
    method: 'hardhat_setBalance' as 'eth_chainId',
    params: [owner.address, toHex(deposit + parseEther('10'))] as never,
  })
  const hash = await wallet.deployContract({
    abi: WalletPaymaster.abi,
    bytecode: WalletPaymaster.bytecode,
    args: [entryPoint08Address, owner.address, signer],
  })
  const { contractAddress, status } = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  if (status !== 'success' || !contractAddress) throw new Error('deployPaymaster: the deployment failed')
  const funded = await client.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: contractAddress,
      abi: walletPaymasterAbi,
      functionName: 'deposit',
      value: deposit,
    }),
    pollingInterval: 50,
  })
  if (funded.status !== 'success') throw new Error('deployPaymaster: the deposit failed')
  // Checksummed: the receipt's is lowercase, and the stack compares it with planPaymaster()'s.
  return getAddress(contractAddress)
}
