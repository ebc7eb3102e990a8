/**
 * ENS on the local chain: a registry, an offchain resolver for the service's name suffix
 * whose reads go to the service's EIP-3668 gateway, and the universal resolver viem's `getEnsAddress`
 * and `getEnsName` call (contracts/DevEns.sol, compiled by compile.ts). Deployed from an account of its own (the test
 * mnemonic's index 10, funded and impersonated on the node), so the market's addresses do not move.
 */
import {
  type Address,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  labelhash,
  namehash,
  parseEther,
  toHex,
} from 'viem'
import { compileContracts } from './compile.ts'
import { DEV_ACCOUNT_COUNT, devAccount } from './index.ts'
import { assertMined, jsonRpc } from './market.ts'

export interface LocalEns {
  registry: Address
  resolver: Address
  universalResolver: Address
}

export interface DeployEnsParameters {
  /** The chain's JSON-RPC URL (a fresh Hardhat node). */
  url: string
  /** The name suffix the resolver answers for, e.g. `wallet.test`. */
  suffix: string
  /** The gateway URL template, e.g. `http://127.0.0.1:8787/names/v1/gateway/{sender}/{data}.json`. */
  gatewayUrl: string
  /** The address of the gateway's signing key. */
  signer: Address
}

/** Where the reverse names of Ethereum addresses live (ENSIP-19, coin type 60). */
const REVERSE_DOMAIN = 'addr.reverse'

const deployer = () => devAccount(DEV_ACCOUNT_COUNT).address

/**
 * The addresses the contracts get on a fresh chain (known before they are deployed).
 *
 * @example
 * planEns().universalResolver
 */
export function planEns(): LocalEns {
  const [registry, resolver, universalResolver] = [0n, 1n, 2n].map((nonce) =>
    getContractAddress({ from: deployer(), nonce }),
  ) as [Address, Address, Address]
  return { registry, resolver, universalResolver }
}

/**
 * Deploys the registry, the resolver (owner of `suffix`) and the universal resolver.
 *
 * @example
 * const ens = await deployEns({ url: chain.url, suffix: 'wallet.test', gatewayUrl, signer })
 */
export async function deployEns({ url, suffix, gatewayUrl, signer }: DeployEnsParameters): Promise<LocalEns> {
  const { DevEnsRegistry, DevOffchainResolver, DevUniversalResolver } = await compileContracts()
  if (!DevEnsRegistry || !DevOffchainResolver || !DevUniversalResolver)
    throw new Error('deployEns: an ENS contract did not compile')
  const rpc = jsonRpc(url)
  const from = deployer()
  if ((await rpc('eth_getTransactionCount', [from, 'latest'])) !== '0x0')
    throw new Error(
      'deployEns: the ENS deployer has sent transactions already: ENS deploys on a fresh chain only',
    )
  await rpc('hardhat_setBalance', [from, toHex(parseEther('10'))])
  await rpc('hardhat_impersonateAccount', [from])
  const plan = planEns()
  const hashes: { what: string; hash: Hex }[] = []
  const send = async (what: string, transaction: { to?: Address; data: Hex }) => {
    hashes.push({ what, hash: (await rpc('eth_sendTransaction', [{ from, ...transaction }])) as Hex })
  }
  await send('deploying the ENS registry', {
    data: encodeDeployData({ abi: DevEnsRegistry.abi, bytecode: DevEnsRegistry.bytecode }),
  })
  await send('deploying the offchain resolver', {
    data: encodeDeployData({
      abi: DevOffchainResolver.abi,
      bytecode: DevOffchainResolver.bytecode,
      args: [gatewayUrl, signer],
    }),
  })
  await send('deploying the universal resolver', {
    data: encodeDeployData({
      abi: DevUniversalResolver.abi,
      bytecode: DevUniversalResolver.bytecode,
      args: [plan.registry],
    }),
  })
  // The deployer owns the root; it takes each label of the suffix, from the top, then sets its resolver.
  // `addr.reverse` (ENSIP-19 reverse names of Ethereum addresses) goes to the same resolver.
  for (const domain of [suffix, REVERSE_DOMAIN]) {
    const parts = domain.split('.')
    for (let index = parts.length - 1; index >= 0; index--) {
      await send(`taking ${parts.slice(index).join('.')}`, {
        to: plan.registry,
        data: encodeFunctionData({
          abi: DevEnsRegistry.abi,
          functionName: 'setSubnodeOwner',
          args: [namehash(parts.slice(index + 1).join('.')), labelhash(parts[index] ?? ''), from],
        }),
      })
    }
    await send(`setting the resolver of ${domain}`, {
      to: plan.registry,
      data: encodeFunctionData({
        abi: DevEnsRegistry.abi,
        functionName: 'setResolver',
        args: [namehash(domain), plan.resolver],
      }),
    })
  }
  await rpc('hardhat_stopImpersonatingAccount', [from])
  await assertMined(rpc, hashes, 'deployEns')
  return plan
}
