import {
  and,
  arrayOverlaps,
  asc,
  count,
  desc,
  eq,
  ilike,
  inArray,
  notInArray,
  type SQL,
  sql,
} from 'drizzle-orm'
import type { GetWalletsParameters, GetWalletsResponse } from '../../src/protocol/api/index.ts'
import { apiLimits } from '../../src/protocol/api/index.ts'
import type { Db } from '../db/database.ts'
import { wallets } from '../db/schema.ts'

/** Escapes `%`, `_` and `\` so a search string matches literally inside ILIKE. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&')
}

/**
 * One page of the wallet catalogue and the number of entries matching the filters. Order is
 * deterministic: catalogue position, then id; with `search`, names starting with the search come first.
 * `include` keeps only the listed ids; `exclude` drops them; `chains` keeps wallets supporting any of
 * the networks; `badge_type=certified` keeps certified wallets (`none` does not filter).
 *
 * @example
 * const { data, count } = await getWallets(db, { page: 1, entries: 40, search: 'meta' })
 */
export async function getWallets(db: Db, parameters: GetWalletsParameters): Promise<GetWalletsResponse> {
  const page = parameters.page ?? 1
  const entries = parameters.entries ?? apiLimits.defaultEntries
  const conditions: SQL[] = []
  if (parameters.include && parameters.include.length > 0)
    conditions.push(inArray(wallets.id, parameters.include))
  if (parameters.exclude && parameters.exclude.length > 0) {
    conditions.push(notInArray(wallets.id, parameters.exclude))
  }
  const search = parameters.search?.trim() ?? ''
  if (search !== '') conditions.push(ilike(wallets.name, `%${escapeLike(search)}%`))
  if (parameters.badge_type === 'certified') conditions.push(eq(wallets.badgeType, 'certified'))
  if (parameters.chains && parameters.chains.length > 0) {
    conditions.push(arrayOverlaps(wallets.chains, parameters.chains))
  }
  const where = conditions.length > 0 ? and(...conditions) : undefined
  const order =
    search === ''
      ? [asc(wallets.position), asc(wallets.id)]
      : [desc(ilike(wallets.name, `${escapeLike(search)}%`)), asc(wallets.position), asc(wallets.id)]
  // One round trip: the page and, on every row, the number of matches across pages.
  const rows = await db
    .select({
      id: wallets.id,
      name: wallets.name,
      image_id: wallets.imageId,
      chains: wallets.chains,
      mobile_link: wallets.mobileLink,
      desktop_link: wallets.desktopLink,
      webapp_link: wallets.webappLink,
      app_store: wallets.appStore,
      play_store: wallets.playStore,
      rdns: wallets.rdns,
      badge_type: wallets.badgeType,
      total: sql<number>`count(*) over()`.mapWith(Number),
    })
    .from(wallets)
    .where(where)
    .orderBy(...order)
    .limit(entries)
    .offset((page - 1) * entries)
  const data = rows.map(({ total: _total, ...entry }) => entry)
  if (rows[0]) return { data, count: rows[0].total }
  // A page past the end has no row to carry the count.
  const [total] = page > 1 ? await db.select({ value: count() }).from(wallets).where(where) : [{ value: 0 }]
  return { data, count: Number(total?.value ?? 0) }
}

/** Number of wallets in the catalogue (for logs and the CLI). */
export async function countWallets(db: Db): Promise<number> {
  const [row] = await db.select({ value: sql<number>`count(*)::int` }).from(wallets)
  return Number(row?.value ?? 0)
}
