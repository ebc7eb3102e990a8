import { ValidationError } from '../errors/index.ts'
import type { CaipNetworkId } from '../protocol/caip.ts'
import type { RpcTransport } from '../services/transport.ts'
import type { Config } from './config.ts'
import { serviceClient } from './service.ts'

/** Upstreams stop being ranked once no request has come for this long; the next request resumes it. */
const RANK_IDLE_MS = 60_000

/**
 * Where JSON-RPC reads for a network go, in the order to try them: the page's own URLs for it
 * (`config.rpcUrls`); else the companion service's RPC proxy when the page configured one
 * (`api-url` and `project-id`), then the network's default RPC.
 *
 * @example
 * rpcUrlsFor(config, 'eip155:31337') // ['http://127.0.0.1:8787/v1/?chainId=eip155%3A31337&projectId=dev-project…', 'http://127.0.0.1:8545']
 */
export function rpcUrlsFor(config: Config, caipNetworkId: CaipNetworkId): string[] {
  const { rpcUrls, projectId } = config.$options.get()
  const own = rpcUrls[caipNetworkId]
  if (own) return [...own]
  const http = serviceClient(config)
  const proxy = http && projectId ? [http.url('/v1/', { chainId: caipNetworkId })] : []
  const defaults =
    config.$networks.get().find((network) => network.caipNetworkId === caipNetworkId)?.rpcUrls.default.http ??
    []
  return [...new Set([...proxy, ...defaults])]
}

/**
 * The first of {@link rpcUrlsFor}: the one URL given where only one fits (a WalletConnect rpcMap).
 *
 * @example
 * rpcUrlFor(config, 'eip155:31337') // 'http://127.0.0.1:8787/v1/?chainId=eip155%3A31337&projectId=dev-project…'
 */
export function rpcUrlFor(config: Config, caipNetworkId: CaipNetworkId): string | undefined {
  return rpcUrlsFor(config, caipNetworkId)[0]
}

/**
 * The transport module, loaded once. Every call of a burst awaits this one promise, so all of them go
 * on in the same turn and reach viem's batch together; an `import()` each would settle one by one (a
 * module loader may answer each in its own turn), and a burst would leave as several batches.
 */
let transportModule: Promise<typeof import('../services/transport.ts')> | undefined

/** The network's transport, made for its current URLs (a new list replaces the old transport). */
async function transportFor(config: Config, caipNetworkId: CaipNetworkId): Promise<RpcTransport> {
  const urls = rpcUrlsFor(config, caipNetworkId)
  if (urls.length === 0) throw new ValidationError(`No RPC URL for ${caipNetworkId}`)
  const key = urls.join(' ')
  const known = config.internal.rpc.get(caipNetworkId)
  if (known?.key === key) return known.transport
  known?.close()
  transportModule ??= import('../services/transport.ts').catch((error: unknown) => {
    // A chunk that failed to load is asked for again by the next call.
    transportModule = undefined
    throw error
  })
  const { createRpcTransport } = await transportModule
  const again = config.internal.rpc.get(caipNetworkId)
  if (again?.key === key) return again.transport
  again?.close()
  let lastUse = config.platform.now()
  let closed = false
  let waiting: (() => void)[] = []
  const transport = createRpcTransport({
    urls,
    fetchFn: config.platform.fetch,
    // Pinging stalls (no timer left) while nobody asks, so an idle page or a finished test sends nothing.
    whenActive: () =>
      !closed && config.platform.now() - lastUse < RANK_IDLE_MS
        ? Promise.resolve()
        : new Promise((resolve) => waiting.push(resolve)),
    onFallback: (url, method, error) =>
      config.logger.log('warn', `RPC request failed at ${url}`, {
        network: caipNetworkId,
        method,
        error: (error as { shortMessage?: string } | undefined)?.shortMessage ?? String(error),
      }),
  })
  const entry = {
    key,
    transport: {
      request: (method: string, params: readonly unknown[], options?: { signal?: AbortSignal }) => {
        lastUse = config.platform.now()
        if (!closed) for (const resume of waiting.splice(0)) resume()
        return transport.request(method, params, options)
      },
    },
    close: () => {
      closed = true
      waiting = []
    },
  }
  config.internal.rpc.set(caipNetworkId, entry)
  return entry.transport
}

/**
 * JSON-RPC calls to a network over its URLs ({@link rpcUrlsFor}, resolved at each call): batched,
 * with a fallback between URLs (SPEC section 9). A signal aborts anything but a read.
 *
 * @example
 * const lamports = await networkRpc(config, 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')('getBalance', [address])
 */
export function networkRpc(config: Config, caipNetworkId: CaipNetworkId) {
  return async (
    method: string,
    params: readonly unknown[],
    options?: { signal?: AbortSignal },
  ): Promise<unknown> => (await transportFor(config, caipNetworkId)).request(method, params, options)
}

/**
 * Stops ranking every network's upstreams (the modal left the page); a later request starts again.
 *
 * @example
 * closeRpc(config)
 */
export function closeRpc(config: Config): void {
  for (const entry of config.internal.rpc.values()) entry.close()
  config.internal.rpc.clear()
}
