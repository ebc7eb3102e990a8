import type { GetWalletsResponse } from '../protocol/api/catalogue.ts'
import { getWalletsResponse } from '../protocol/api/catalogue.ts'
import type { HttpClient } from './http.ts'

export interface GetWalletsParameters {
  page: number
  entries: number
  include?: readonly string[] | undefined
  exclude?: readonly string[] | undefined
  search?: string | undefined
}

const joined = (ids: readonly string[] | undefined) => (ids && ids.length > 0 ? ids.join(',') : undefined)

/**
 * One page of the wallet catalogue (`GET /getWallets`), validated.
 *
 * @example
 * const { data, count } = await getWallets(http, { page: 1, entries: 40 })
 */
export function getWallets(http: HttpClient, parameters: GetWalletsParameters): Promise<GetWalletsResponse> {
  return http.getJson(
    '/getWallets',
    {
      page: parameters.page,
      entries: parameters.entries,
      include: joined(parameters.include),
      exclude: joined(parameters.exclude),
      search: parameters.search || undefined,
    },
    getWalletsResponse,
  )
}
