import type { ChainNamespace } from '../../protocol/caip.ts'
import type { Config, ConnectionRecord } from '../config.ts'

const empty: ConnectionRecord = {
  status: 'disconnected',
  connectorId: undefined,
  accounts: [],
  chainId: undefined,
}

/**
 * A namespace's connection record (disconnected when there is none). Apart from `records.ts`, whose
 * storage schemas `getProvider` (on the first paint) does not need.
 *
 * @example
 * recordOf(config, 'eip155').status // 'connected'
 */
export function recordOf(config: Config, namespace: ChainNamespace): ConnectionRecord {
  return config.$connections.get()[namespace] ?? empty
}
