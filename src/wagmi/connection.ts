import { type Address, getAddress } from 'viem'
import { type CaipNetworkId, type Config, reconnect } from '../core/index.ts'

/** The EVM connection as wagmi holds it: checksummed accounts and a numeric chain id. */
export type EvmConnection = { accounts: readonly Address[]; chainId: number }

/** `eip155:8453` -> 8453. */
export const chainNumber = (caipNetworkId: CaipNetworkId): number =>
  Number(caipNetworkId.slice('eip155:'.length))

/**
 * The modal's EVM connection, when there is one with an account and a chain.
 *
 * @example
 * evmConnection(config) // { accounts: ['0xf39F…'], chainId: 31337 }
 */
export function evmConnection(config: Config): EvmConnection | undefined {
  const record = config.$connections.get().eip155
  if (record?.status !== 'connected' || record.accounts.length === 0 || !record.chainId) return undefined
  return {
    accounts: record.accounts.map((account) => getAddress(account)),
    chainId: chainNumber(record.chainId),
  }
}

/** What {@link followConnection} tells wagmi. */
export type ConnectionListener = {
  connect(connection: EvmConnection): void
  accountsChanged(accounts: readonly Address[]): void
  chainChanged(chainId: number): void
  disconnect(): void
}

/**
 * Follows the modal's EVM connection and reports each change made there (a wallet connected from
 * `<wallet-button>`, another account or network chosen in the modal or the wallet, Disconnect),
 * so wagmi's state follows. A connection being made or restored is reported once it is done (or
 * gone). Returns the stop function.
 *
 * @example
 * const stop = followConnection(config, { connect, accountsChanged, chainChanged, disconnect })
 */
export function followConnection(config: Config, on: ConnectionListener): () => void {
  let last = evmConnection(config)
  return config.$connections.listen((connections) => {
    const status = connections.eip155?.status ?? 'disconnected'
    const next = evmConnection(config)
    if (next && !last) on.connect(next)
    else if (next && last) {
      if (next.accounts.join() !== last.accounts.join()) on.accountsChanged(next.accounts)
      if (next.chainId !== last.chainId) on.chainChanged(next.chainId)
    } else if (!next && last && status === 'disconnected') on.disconnect()
    if (next || status === 'disconnected') last = next
  })
}

/**
 * The EVM connection once any restore under way has ended: a remembered connection comes back
 * without a prompt (the core's `reconnect`, which `<wallet-modal>` also starts; the second call
 * waits for the first), or there is none.
 *
 * @example
 * const connection = await restoredConnection(config)
 */
export async function restoredConnection(config: Config): Promise<EvmConnection | undefined> {
  await reconnect(config)
  const restoring = () => config.$connections.get().eip155?.status === 'reconnecting'
  if (restoring())
    await new Promise<void>((resolve) => {
      const stop = config.$connections.listen(() => {
        if (restoring()) return
        stop()
        resolve()
      })
    })
  return evmConnection(config)
}
