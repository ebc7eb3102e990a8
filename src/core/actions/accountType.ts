import type { AccountType } from '../../protocol/entities.ts'
import type { Config } from '../createConfig.ts'
import { embeddedConnector } from '../embedded.ts'

export interface EmbeddedAccountKind {
  type: AccountType
  /** For a smart account: whether it has code yet (its first UserOperation deploys it). */
  deployed: boolean
}

/**
 * The embedded wallet's EVM account type (SPEC 3, 4) and whether a smart account is deployed.
 *
 * @example
 * const { type, deployed } = await embeddedAccountKind(config)
 */
export async function embeddedAccountKind(config: Config): Promise<EmbeddedAccountKind> {
  const connector = await embeddedConnector(config)
  const user = connector.user()
  const type = user?.accounts.find((account) => account.namespace === 'eip155')?.type ?? 'eoa'
  return {
    type,
    deployed: type === 'smartAccount' && user?.smartAccountDeployed === true,
  }
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
