import { serviceUrl } from '../services/serviceUrl.ts'
import type { Config } from './config.ts'

/**
 * URL of a token's image (`/public/getTokenImage/{id}`), or undefined without a service. Built like
 * `walletImageUrl`, without the HTTP client.
 *
 * @example
 * <img src={tokenImageUrl(config, 'USDC')} />
 */
export function tokenImageUrl(config: Config, imageId: string): string | undefined {
  const { apiUrl, projectId } = config.$options.get()
  return apiUrl
    ? serviceUrl(apiUrl, projectId, `/public/getTokenImage/${encodeURIComponent(imageId)}`)
    : undefined
}
