import type { HttpClient } from '../services/http.ts'
import { createHttpClient } from '../services/http.ts'
import type { Config } from './config.ts'

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
