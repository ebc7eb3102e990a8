/**
 * Farcaster's IdRegistry and KeyRegistry on a local chain with chain id 10: the dev stand-ins
 * (contracts/DevFarcaster.sol) placed at the registries' OP-mainnet addresses with `hardhat_setCode`,
 * so `@farcaster/auth-client`'s custody check (`idOf`) and auth-address check (`keyDataOf`) read them
 * exactly as they read the real ones.
 */
import { type Address, createWalletClient, type Hex, http, publicActions } from 'viem'
import { compileContracts } from '../chain/compile.ts'
import { devAccount } from '../chain/index.ts'

/** The registries' addresses on OP mainnet (facts of the Farcaster protocol). */
export const ID_REGISTRY_ADDRESS: Address = '0x00000000Fc6c5F01Fc30151999387Bb99A9f489b'
export const KEY_REGISTRY_ADDRESS: Address = '0x00000000Fc1237824fb747aBDE0FF18990E59b7e'

/** The chain id Sign In With Farcaster requires (OP mainnet). */
export const FARCASTER_CHAIN_ID = 10

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}

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
  const chainId = Number(await rpc(url, 'eth_chainId', []))
  if (chainId !== FARCASTER_CHAIN_ID)
    throw new Error(`installFarcasterRegistries: chain id ${chainId}, Farcaster needs ${FARCASTER_CHAIN_ID}`)
  const { DevIdRegistry, DevKeyRegistry } = await compileContracts()
  if (!DevIdRegistry || !DevKeyRegistry) throw new Error('installFarcasterRegistries: contracts missing')
  await rpc(url, 'hardhat_setCode', [ID_REGISTRY_ADDRESS, DevIdRegistry.deployedBytecode])
  await rpc(url, 'hardhat_setCode', [KEY_REGISTRY_ADDRESS, DevKeyRegistry.deployedBytecode])
  const client = createWalletClient({ account: devAccount(0), transport: http(url) }).extend(publicActions)
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
