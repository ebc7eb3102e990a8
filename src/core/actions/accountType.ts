import type { AccountType } from '../../protocol/entities.ts'
import type { Config } from '../config.ts'
import { embeddedConnector } from '../embedded.ts'
import { networkRpc } from '../rpcUrl.ts'

export interface EmbeddedAccountKind {
  type: AccountType
  /** For a smart account: whether it has code yet (its first UserOperation deploys it). */
  deployed: boolean
}

/**
 * The embedded wallet's EVM account type (SPEC 3, 4) and whether a smart account is deployed (read
 * from the chain when the sign-in said not yet, so its first transaction shows).
 *
 * @example
 * const { type, deployed } = await embeddedAccountKind(config)
 */
export async function embeddedAccountKind(config: Config): Promise<EmbeddedAccountKind> {
  const connector = await embeddedConnector(config)
  const user = connector.user()
  const account = user?.accounts.find((entry) => entry.namespace === 'eip155')
  const type = account?.type ?? 'eoa'
  if (type !== 'smartAccount') return { type, deployed: false }
  if (user?.smartAccountDeployed === true) return { type, deployed: true }
  // What the sign-in said may be old: the account's first transaction deploys it. The chain says now.
  const network = config.$network.get()
  if (!account || !network?.caipNetworkId.startsWith('eip155:')) return { type, deployed: false }
  const code = await networkRpc(config, network.caipNetworkId)('eth_getCode', [
    account.address,
    'latest',
  ]).catch(() => undefined)
  return { type, deployed: typeof code === 'string' && code !== '0x' && code !== '0x0' }
}

/**
 * Switches the embedded wallet's EVM account between the EOA and the smart account (SPEC 4): the
 * account changes (`wallet-account-change` with its type). On a network without smart accounts it
 * fails with `This application might not support Smart Accounts`, and the EOA stays.
 *
 * @example
 * await setAccountType(config, 'smartAccount')
 */
export async function setAccountType(config: Config, type: AccountType): Promise<EmbeddedAccountKind> {
  const connector = await embeddedConnector(config)
  await connector.setAccountType(type)
  return embeddedAccountKind(config)
}
