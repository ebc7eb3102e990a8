/**
 * Farcaster's IdRegistry and KeyRegistry on a local chain with chain id 10: the dev stand-ins
 * (contracts/DevFarcaster.sol) placed at the registries' OP-mainnet addresses with `hardhat_setCode`,
 * so `@farcaster/auth-client`'s custody check (`idOf`) and auth-address check (`keyDataOf`) read them
 * exactly as they read the real ones.
 */
import { type Address, createTestClient, createWalletClient, type Hex, http, publicActions } from 'viem'
import { compileContracts } from '../chain/compile.ts'
import { devAccount, LOCAL_NODE_TIMEOUT_MS } from '../chain/index.ts'

/** The registries' addresses on OP mainnet (facts of the Farcaster protocol). */
export const ID_REGISTRY_ADDRESS: Address = '0x00000000Fc6c5F01Fc30151999387Bb99A9f489b'
export const KEY_REGISTRY_ADDRESS: Address = '0x00000000Fc1237824fb747aBDE0FF18990E59b7e'

/** The chain id Sign In With Farcaster requires (OP mainnet). */
export const FARCASTER_CHAIN_ID = 10

/** A local chain's registries: place them once, then register dev fids. */
export interface FarcasterRegistries {
  /** Gives `fid` to `custody` (the stand-in's dev-only `register`). */
  register(custody: Address, fid: bigint): Promise<void>
  /** Adds `authAddress` as an auth address (key type 2) of `fid`. */
  addAuthAddress(fid: bigint, authAddress: Address): Promise<void>
}

/**
 * Places the registries on the chain at `url` (which must have chain id 10).
 *
 * @example
 * const registries = await installFarcasterRegistries(chain.url)
 * await registries.register(custody.address, 1234n)
 */
export async function installFarcasterRegistries(url: string): Promise<FarcasterRegistries> {
  const transport = http(url, { timeout: LOCAL_NODE_TIMEOUT_MS })
  const client = createWalletClient({ account: devAccount(0), transport }).extend(publicActions)
  const chainId = await client.getChainId()
  if (chainId !== FARCASTER_CHAIN_ID)
    throw new Error(`installFarcasterRegistries: chain id ${chainId}, Farcaster needs ${FARCASTER_CHAIN_ID}`)
  const { DevIdRegistry, DevKeyRegistry } = await compileContracts()
  if (!DevIdRegistry || !DevKeyRegistry) throw new Error('installFarcasterRegistries: contracts missing')
  const hardhat = createTestClient({ mode: 'hardhat', transport })
  await hardhat.setCode({ address: ID_REGISTRY_ADDRESS, bytecode: DevIdRegistry.deployedBytecode })
  await hardhat.setCode({ address: KEY_REGISTRY_ADDRESS, bytecode: DevKeyRegistry.deployedBytecode })
  const chain = { id: FARCASTER_CHAIN_ID } as Parameters<typeof client.writeContract>[0]['chain']
  const send = async (address: Address, abi: typeof DevIdRegistry.abi, name: string, args: unknown[]) => {
    const hash: Hex = await client.writeContract({ address, abi, functionName: name, args, chain })
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    if (receipt.status !== 'success') throw new Error(`Farcaster registries: ${name} reverted`)
  }
  return {
    register: (custody, fid) => send(ID_REGISTRY_ADDRESS, DevIdRegistry.abi, 'register', [custody, fid]),
    addAuthAddress: (fid, authAddress) =>
      send(KEY_REGISTRY_ADDRESS, DevKeyRegistry.abi, 'add', [
        fid,
        `0x${authAddress.slice(2).toLowerCase().padStart(64, '0')}`,
        2,
      ]),
  }
}
