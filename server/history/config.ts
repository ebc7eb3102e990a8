import { z } from 'zod'
import { blankToUndefined, ConfigError, commaItems, integer, upstreamMap } from '../config/env.ts'

/** The transaction history's slice of the service configuration. */
export interface HistoryConfig {
  /** EVM networks whose history the service indexes from their RPC upstream (`HISTORY_NETWORKS`); none by default. */
  historyNetworks: string[]
  /** How often the history indexer looks for new blocks, in ms (`HISTORY_POLL_MS`). */
  historyPollMs: number
  /**
   * EVM networks whose history is read from an Etherscan-compatible account API instead of indexed
   * (`HISTORY_UPSTREAMS`, `eip155:1=https://api.etherscan.io/v2/api, ...`); none by default.
   */
  historyUpstreams: Record<string, string>
  /** The upstreams' API key (`HISTORY_UPSTREAM_KEY`), sent as `apikey`; never logged. */
  historyUpstreamKey: string | null
}

const evmNetwork = /^eip155:[1-9]\d{0,15}$/

/** The history's variables: `HISTORY_NETWORKS`, `HISTORY_POLL_MS`, `HISTORY_UPSTREAMS`, `HISTORY_UPSTREAM_KEY`. */
export const historyEnv = z.object({
  HISTORY_NETWORKS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .transform(commaItems)
      .superRefine((items, context) => {
        for (const item of items) {
          if (!evmNetwork.test(item))
            context.addIssue({
              code: 'custom',
              message: `HISTORY_NETWORKS has "${item}": expected EVM CAIP-2 network ids such as eip155:31337`,
            })
        }
      })
      .optional(),
  ),
  HISTORY_POLL_MS: integer('HISTORY_POLL_MS', 50, 60_000, 1_000),
  HISTORY_UPSTREAMS: upstreamMap('HISTORY_UPSTREAMS', 'eip155:1=https://api.etherscan.io/v2/api'),
  HISTORY_UPSTREAM_KEY: z.preprocess(blankToUndefined, z.string().max(200).optional()),
})

/**
 * The history slice. An indexed network needs an RPC upstream, and a network is either indexed or
 * read from an upstream, never both; each rule throws a {@link ConfigError}.
 *
 * @example
 * const history = historyConfig(historyEnv.parse({ HISTORY_NETWORKS: 'eip155:31337' }), rpc.rpcUpstreams)
 */
export function historyConfig(
  values: z.output<typeof historyEnv>,
  rpcUpstreams: Record<string, string>,
): HistoryConfig {
  const unreachable = (values.HISTORY_NETWORKS ?? []).filter((chainId) => rpcUpstreams[chainId] === undefined)
  if (unreachable.length > 0) {
    throw new ConfigError(
      unreachable.map((chainId) => `HISTORY_NETWORKS: ${chainId} has no RPC upstream (RPC_UPSTREAMS)`),
    )
  }
  const historyUpstreams = values.HISTORY_UPSTREAMS ?? {}
  const doubled = (values.HISTORY_NETWORKS ?? []).filter((chainId) => historyUpstreams[chainId] !== undefined)
  const notEvm = Object.keys(historyUpstreams).filter((chainId) => !evmNetwork.test(chainId))
  if (doubled.length > 0 || notEvm.length > 0) {
    throw new ConfigError([
      ...doubled.map(
        (chainId) =>
          `HISTORY_UPSTREAMS: ${chainId} is in HISTORY_NETWORKS too; a network with an upstream is not indexed`,
      ),
      ...notEvm.map((chainId) => `HISTORY_UPSTREAMS: ${chainId} is not an EVM network (eip155:N)`),
    ])
  }
  return {
    historyNetworks: values.HISTORY_NETWORKS ?? [],
    historyPollMs: values.HISTORY_POLL_MS,
    historyUpstreams,
    historyUpstreamKey: values.HISTORY_UPSTREAM_KEY ?? null,
  }
}
