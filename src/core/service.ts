import type { HttpClient } from '../services/http.ts'
import { createHttpClient } from '../services/http.ts'
import type { Config } from './createConfig.ts'

/**
 * The companion-service client of a config, or undefined when the page set no `api-url`.
 *
 * @example
 * const http = serviceClient(config)
 */
export function serviceClient(config: Config): HttpClient | undefined {
  const { apiUrl, projectId } = config.$options.get()
  if (!apiUrl) return undefined
  config.internal.http ??= createHttpClient({ baseUrl: apiUrl, projectId, fetch: config.platform.fetch })
  return config.internal.http
}

/** URL of a catalogue wallet's logo, or undefined without a service. */
export function walletImageUrl(config: Config, imageId: string): string | undefined {
  return serviceClient(config)?.url(`/getWalletImage/${encodeURIComponent(imageId)}`)
}

/** URL of a token image (`/public/getTokenImage/{id}`), or undefined without a service. */
export function tokenImageUrl(config: Config, imageId: string): string | undefined {
  return serviceClient(config)?.url(`/public/getTokenImage/${encodeURIComponent(imageId)}`)
}
