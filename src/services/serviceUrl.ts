/** SDK type and version sent with every request (`st`, `sv`). */
export const SDK_TYPE = 'wallet-elements'
export const SDK_VERSION = '0.1.0'

/**
 * The URL of a companion-service path with the project query parameters (`projectId`, `st`, `sv`).
 * Its own module (the HTTP client uses it): the Connect view builds wallet logo URLs with it, and the
 * client's retries and error mapping load only when the catalogue does.
 *
 * @example
 * serviceUrl('http://127.0.0.1:8787/', 'dev-project', '/getWalletImage/abc')
 * // 'http://127.0.0.1:8787/getWalletImage/abc?projectId=dev-project&st=wallet-elements&sv=0.1.0'
 */
export function serviceUrl(
  baseUrl: string,
  projectId: string | undefined,
  path: string,
  query: Record<string, string | number | undefined> = {},
): string {
  const target = new URL(baseUrl.replace(/\/+$/, '') + path)
  const params = { projectId, st: SDK_TYPE, sv: SDK_VERSION, ...query }
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') target.searchParams.set(key, String(value))
  }
  return target.href
}
