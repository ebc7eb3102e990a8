import { z } from 'zod'
import { apiLimits } from '../../src/protocol/api/index.ts'
import { commaItems, integer, upstreamMap } from '../config/env.ts'
import { rpcMethodNamePattern } from './methods.ts'

/** The local chains started by `npm start` (server/dev/chain). */
export const defaultRpcUpstreams: Record<string, string> = {
  'eip155:31337': 'http://127.0.0.1:8545',
  'eip155:31338': 'http://127.0.0.1:8546',
  'solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9': 'http://127.0.0.1:8899',
}

/** The RPC and bundler proxies' slice of the service configuration. */
export interface RpcConfig {
  /** CAIP-2 network id -> JSON-RPC upstream URL. */
  rpcUpstreams: Record<string, string>
  /**
   * CAIP-2 network id -> ERC-4337 bundler URL (`BUNDLER_UPSTREAMS`, none by default): the bundler proxy
   * (`POST /v1/bundler`) and the embedded wallet's smart accounts on those networks.
   */
  bundlerUpstreams: Record<string, string>
  /** Upstream timeout of the RPC proxy and the bundler proxy, in ms. */
  rpcTimeoutMs: number
  /** Methods the RPC proxy forwards besides its allow-list (server/rpc/methods.ts), on every network. */
  rpcAllowMethods: string[]
}

/** The proxies' variables: `RPC_UPSTREAMS`, `BUNDLER_UPSTREAMS`, `RPC_TIMEOUT_MS`, `RPC_ALLOW_METHODS`. */
export const rpcEnv = z.object({
  RPC_UPSTREAMS: upstreamMap('RPC_UPSTREAMS', 'eip155:31337=http://127.0.0.1:8545'),
  BUNDLER_UPSTREAMS: upstreamMap('BUNDLER_UPSTREAMS', 'eip155:31337=http://127.0.0.1:4337'),
  RPC_TIMEOUT_MS: integer('RPC_TIMEOUT_MS', 1, 600_000, apiLimits.rpcTimeoutMs),
  RPC_ALLOW_METHODS: z.preprocess(
    (value) => (typeof value === 'string' ? value : ''),
    z
      .string()
      .transform(commaItems)
      .superRefine((items, context) => {
        for (const item of items) {
          if (!rpcMethodNamePattern.test(item)) {
            context.addIssue({
              code: 'custom',
              message: `RPC_ALLOW_METHODS has "${item}", which is not a JSON-RPC method name such as debug_traceTransaction`,
            })
          }
        }
      }),
  ),
})

/**
 * The proxies' slice; without `RPC_UPSTREAMS`, the local chains of `npm start`.
 *
 * @example
 * const rpc = rpcConfig(rpcEnv.parse({ RPC_UPSTREAMS: 'eip155:1=https://rpc.example.com' }))
 */
export function rpcConfig(values: z.output<typeof rpcEnv>): RpcConfig {
  return {
    rpcUpstreams: values.RPC_UPSTREAMS ?? { ...defaultRpcUpstreams },
    bundlerUpstreams: values.BUNDLER_UPSTREAMS ?? {},
    rpcTimeoutMs: values.RPC_TIMEOUT_MS,
    rpcAllowMethods: values.RPC_ALLOW_METHODS,
  }
}
