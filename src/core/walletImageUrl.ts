import { serviceUrl } from '../services/serviceUrl.ts'
import type { Config } from './config.ts'

/**
 * URL of a catalogue wallet's logo, or undefined without a service. Apart from `serviceClient`
 * (service.ts), so the Connect view shows logos without loading the HTTP client.
 *
 * @example
 * <img src={walletImageUrl(config, entry.image_id)} />
 */
export function walletImageUrl(config: Config, imageId: string): string | undefined {
  const { apiUrl, projectId } = config.$options.get()
  return apiUrl ? serviceUrl(apiUrl, projectId, `/getWalletImage/${encodeURIComponent(imageId)}`) : undefined
}
