import type { CatalogueEntry, GetWalletsResponse, WalletLinkKind } from '../protocol/api/catalogue.ts'
import { getWalletsResponse, isSafeWalletLink } from '../protocol/api/catalogue.ts'
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
 * The entry with every link it may not open (`javascript:`, `data:`, …) taken out, before any is built;
 * store links a service left out are `null`.
 */
function withSafeLinks(entry: CatalogueEntry): CatalogueEntry {
  const safe = (kind: WalletLinkKind) => {
    const link = entry[kind]
    return typeof link === 'string' && isSafeWalletLink(kind, link) ? link : null
  }
  return {
    ...entry,
    mobile_link: safe('mobile_link'),
    desktop_link: safe('desktop_link'),
    webapp_link: safe('webapp_link'),
    app_store: safe('app_store'),
    play_store: safe('play_store'),
  }
}

/**
 * One page of the wallet catalogue (`GET /getWallets`), validated; links with a scheme the modal must
 * not open are dropped (the service refuses them too, but `api-url` may point at another one).
 *
 * @example
 * const { data, count } = await getWallets(http, { page: 1, entries: 40 })
 */
export async function getWallets(
  http: HttpClient,
  parameters: GetWalletsParameters,
): Promise<GetWalletsResponse> {
  const page = await http.getJson(
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
  return { ...page, data: page.data.map(withSafeLinks) }
}
