/** Builds a method's context for one person on one network from the service's parts. */
import { type Address, getAddress } from 'viem'
import { bitcoinAccountOf, bitcoinNetworkOf } from '../../../src/protocol/embedded/bitcoin.ts'
import { type BitcoinKeys, bitcoinKeysMissingMessage } from '../bitcoinKeys.ts'
import type { BitcoinNodes } from '../bitcoinNode.ts'
import type { CallBatches } from '../callBatches.ts'
import type { Custody } from '../custody.ts'
import { EmbeddedError } from '../errors.ts'
import type { EmbeddedNetwork } from '../networks.ts'
import type { PermissionIndex } from '../permissionIndex.ts'
import type { SmartAccounts } from '../smartAccounts.ts'
import type { Upstream } from '../upstream.ts'
import type { BitcoinAccount, EvmAccount, MethodContext } from './types.ts'

export interface ContextParts {
  custody: Pick<Custody, 'accounts'>
  upstream: Upstream
  smart: SmartAccounts
  networks: ReadonlyMap<string, EmbeddedNetwork>
  batches: CallBatches
  permissions: PermissionIndex
  now?: () => number
  /** `PAYMASTER_PUBLIC_URL`: where dapps reach the service's paymaster route. */
  paymasterPublicUrl: string
  /** The person's Bitcoin keys and the bip122 networks' nodes; none: no Bitcoin account. */
  bitcoin?: { keys: Pick<BitcoinKeys, 'of'>; nodes: BitcoinNodes }
}

/**
 * The contexts of the wallet's methods.
 *
 * @example
 * const contexts = createMethodContexts({ custody, upstream, smart, networks, batches, paymasterPublicUrl })
 * const ctx = await contexts.forRequest(session.userId, 'eip155:1', session.projectId)
 */
export function createMethodContexts(parts: ContextParts) {
  const { custody, smart, networks, bitcoin } = parts

  /** The network of a CAIP-2 id the wallet serves, or `Chain is not supported`. */
  function network(chainId: string): EmbeddedNetwork {
    const served = networks.get(chainId)
    if (!served) throw new EmbeddedError(400, 'BAD_REQUEST', 'Chain is not supported', { field: 'chainId' })
    return served
  }

  return {
    network,

    async forRequest(userId: string, chainId: string, projectId: string): Promise<MethodContext> {
      const served = network(chainId)
      const accounts = await custody.accounts(userId)
      const own = { evm: getAddress(accounts.secp256k1.address), solana: accounts.ed25519.address }
      const paymasterUrl = new URL(parts.paymasterPublicUrl)
      paymasterUrl.searchParams.set('projectId', projectId)
      return {
        userId,
        projectId,
        paymasterUrl: paymasterUrl.toString(),
        chainId,
        network: served,
        networks: [...networks.values()],
        own,
        async evmAccount(): Promise<EvmAccount> {
          if (await smart.activeOn(userId, chainId))
            return { address: await smart.address(userId, chainId), smart: true }
          return { address: own.evm, smart: false }
        },
        async ownSmartAccounts(): Promise<Address[]> {
          const on = smart.supports(chainId) ? chainId : smart.networks()[0]
          if (!on) return []
          return [await smart.address(userId, on)]
        },
        upstream: parts.upstream,
        smart,
        batches: parts.batches,
        permissions: parts.permissions,
        nowSeconds: () => Math.floor((parts.now ?? Date.now)() / 1000),
        ...(bitcoin ? { bitcoin: () => bitcoinAccount(bitcoin, userId, chainId) } : {}),
      }
    },
  }
}

/** The person's account on a bip122 network with a node, or a refusal in the wallet's words. */
async function bitcoinAccount(
  bitcoin: NonNullable<ContextParts['bitcoin']>,
  userId: string,
  chainId: string,
): Promise<BitcoinAccount> {
  const network = bitcoinNetworkOf(chainId)
  if (!network || !bitcoin.nodes.networks().includes(chainId))
    throw new EmbeddedError(400, 'BAD_REQUEST', 'Chain is not supported', { field: 'chainId' })
  const keys = await bitcoin.keys.of(userId)
  const account = keys && bitcoinAccountOf(keys, chainId)
  if (!account) throw new EmbeddedError(409, 'FORBIDDEN', bitcoinKeysMissingMessage, { rpcCode: 4100 })
  return {
    network,
    publicKey: Uint8Array.from(Buffer.from(account.publicKey, 'hex')),
    address: account.address,
    path: account.path,
    node: bitcoin.nodes,
  }
}

export type MethodContexts = ReturnType<typeof createMethodContexts>
