import { UserRejectedRequestError } from '../../errors/rpc.ts'
import type { ChainNamespace } from '../../protocol/caip.ts'
import type { Config } from '../config.ts'
import { recordOf } from '../connection/recordOf.ts'
import { open } from './open.ts'

/**
 * Opens the modal on Connect (every way in: browser wallets, WalletConnect, the embedded wallet's
 * sign-in) and waits for a connection of the namespace: its accounts, at once when it is connected
 * already, or a 4001 `UserRejectedRequestError` when the person closes the modal first. What asks
 * for a wallet from outside the modal uses it: the site's wallet announced to the page
 * (`eth_requestAccounts`, `standard:connect`) and the wagmi connector.
 *
 * @example
 * const [address] = await connectThroughModal(config, 'eip155')
 */
export async function connectThroughModal(
  config: Config,
  namespace: ChainNamespace,
): Promise<readonly string[]> {
  const connected = () => {
    const record = recordOf(config, namespace)
    return record.status === 'connected' && record.accounts.length > 0 ? record.accounts : undefined
  }
  const now = connected()
  if (now) return now
  await open(config, { view: 'Connect' })
  return new Promise((resolve, reject) => {
    const stops: (() => void)[] = []
    const done = (settle: () => void) => {
      for (const stop of stops.splice(0)) stop()
      settle()
    }
    stops.push(
      config.$connections.listen(() => {
        const accounts = connected()
        if (accounts) done(() => resolve(accounts))
      }),
      config.$modal.listen((modal) => {
        if (!modal.open)
          done(() =>
            reject(
              new UserRejectedRequestError({ details: 'The modal was closed before a wallet connected' }),
            ),
          )
      }),
    )
  })
}
