import * as z from 'zod/mini'
import { caip2NetworkId, commaList, queryInteger, resourceId } from './common.ts'
import { apiLimits } from './limits.ts'

/** Values of the `badge_type` filter of `/getWallets`. */
export const badgeTypes = ['none', 'certified'] as const
export type BadgeType = (typeof badgeTypes)[number]

/**
 * Query parameters of `GET /getWallets` as they arrive on the wire (strings), parsed into typed values.
 * `page` is 1-based; `entries` is at most 100; `include`, `exclude` and `chains` are comma-separated;
 * `search` matches wallet names without regard to case.
 *
 * @example
 * getWalletsQuery.parse({ page: '2', entries: '40', chains: 'eip155:1' })
 * // { page: 2, entries: 40, chains: ['eip155:1'] }
 */
export const getWalletsQuery = z.object({
  page: z.optional(queryInteger(1, 1_000_000)),
  entries: z.optional(queryInteger(1, apiLimits.maxEntries)),
  include: z.optional(commaList(resourceId, apiLimits.maxListItems)),
  exclude: z.optional(commaList(resourceId, apiLimits.maxListItems)),
  search: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(apiLimits.maxSearchLength, `Expected at most ${apiLimits.maxSearchLength} characters`),
      ),
  ),
  badge_type: z.optional(z.enum(badgeTypes)),
  chains: z.optional(commaList(caip2NetworkId, apiLimits.maxListItems)),
})

/** The typed parameters of `/getWallets` (what a client passes before serialising them). */
export type GetWalletsParameters = z.output<typeof getWalletsQuery>

/** The catalogue's link fields: the wallet's apps, and where a phone gets its app (App Store, Google Play). */
export type WalletLinkKind = 'mobile_link' | 'desktop_link' | 'webapp_link' | 'app_store' | 'play_store'

/** Link fields that are pages on the web, never an app's own scheme. */
const webOnly = new Set<WalletLinkKind>(['webapp_link', 'app_store', 'play_store'])

// Schemes of the browser and the system, not a wallet's: script, inline content, local files, plain http.
const foreignSchemes = new Set([
  'about',
  'blob',
  'chrome',
  'chrome-extension',
  'data',
  'file',
  'filesystem',
  'ftp',
  'http',
  'intent',
  'javascript',
  'jar',
  'mailto',
  'moz-extension',
  'sms',
  'tel',
  'vbscript',
  'view-source',
  'ws',
  'wss',
])

/**
 * Whether a catalogue link may be opened: `https:` (a host, nothing but printable characters), or, for
 * `mobile_link` and `desktop_link`, a wallet's own scheme such as `rainbow:` or `trust://`. Never
 * `javascript:`, `data:`, `vbscript:`, `file:` or another scheme of the browser or the system.
 * `webapp_link`, `app_store` and `play_store` are pages on the web: `https:` only.
 *
 * @example
 * isSafeWalletLink('mobile_link', 'rainbow:') // true
 * isSafeWalletLink('mobile_link', 'javascript:alert(1)') // false
 * isSafeWalletLink('webapp_link', 'metamask:') // false: a web app is https
 * isSafeWalletLink('app_store', 'itms-apps://apps.apple.com/app/id1457119021') // false: a store page is https
 */
export function isSafeWalletLink(kind: WalletLinkKind, link: string): boolean {
  if (link.length > 2048 || !/^[\x21-\x7e]+$/.test(link)) return false
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(link)?.[1]?.toLowerCase()
  if (scheme === undefined) return false
  if (scheme === 'https') return /^https:\/\/[a-z0-9.-]+(?::\d{1,5})?(?:[/?#]|$)/i.test(link)
  return !webOnly.has(kind) && !foreignSchemes.has(scheme)
}

/**
 * A wallet catalogue entry (SPEC section 3). Links and `rdns` are `null` when the wallet has none.
 * `image_id` is the id to pass to `/getWalletImage/{id}`. `app_store` and `play_store` are the wallet's
 * pages in Apple's App Store and Google Play (what a phone without the app is offered); this service
 * always sends them, another catalogue service may leave them out.
 *
 * @example
 * const entry = catalogueEntry.parse(json.data[0])
 * const src = `${apiUrl}/getWalletImage/${entry.image_id}`
 */
export const catalogueEntry = z.object({
  id: z.string(),
  name: z.string(),
  image_id: z.string(),
  chains: z.array(z.string()),
  mobile_link: z.nullable(z.string()),
  desktop_link: z.nullable(z.string()),
  webapp_link: z.nullable(z.string()),
  app_store: z.optional(z.nullable(z.string())),
  play_store: z.optional(z.nullable(z.string())),
  rdns: z.nullable(z.string()),
  badge_type: z.optional(z.enum(badgeTypes)),
})

export type CatalogueEntry = z.infer<typeof catalogueEntry>

/**
 * Body of `GET /getWallets`: one page of entries and the number of entries that match the filters
 * across all pages.
 *
 * @example
 * const { data, count } = getWalletsResponse.parse(await response.json())
 */
export const getWalletsResponse = z.object({
  data: z.array(catalogueEntry),
  count: z.int().check(z.gte(0)),
})

export type GetWalletsResponse = z.infer<typeof getWalletsResponse>

/** Social login providers (SPEC section 5). */
export const socialProviders = ['google', 'github', 'apple', 'facebook', 'x', 'discord'] as const
export type SocialProvider = (typeof socialProviders)[number]

/**
 * What the service allows a project to use. The modal turns a feature on only when the page asked for
 * it AND the service allows it; the service never turns on what the page did not ask for.
 *
 * @example
 * const allowed = projectFeatures.parse(json.features)
 * const email = pageWantsEmail && allowed.email
 */
export const projectFeatures = z.object({
  email: z.boolean(),
  socials: z.array(z.enum(socialProviders)),
  farcaster: z.boolean(),
  swaps: z.boolean(),
  onramp: z.boolean(),
  send: z.boolean(),
  activity: z.boolean(),
  names: z.boolean(),
})

export type ProjectFeatures = z.infer<typeof projectFeatures>

/**
 * Body of `GET /appkit/v1/config`.
 *
 * @example
 * const { features } = projectConfigResponse.parse(await response.json())
 */
export const projectConfigResponse = z.object({ features: projectFeatures })
export type ProjectConfigResponse = z.infer<typeof projectConfigResponse>

/**
 * Body of `GET /projects/v1/origins`: the project's allow-list, patterns with `*` wildcards included.
 *
 * @example
 * const { allowedOrigins } = originsResponse.parse(await response.json())
 */
export const originsResponse = z.object({ allowedOrigins: z.array(z.string()) })
export type OriginsResponse = z.infer<typeof originsResponse>

/**
 * Body of `GET /getAnalyticsConfig`.
 *
 * @example
 * const { isAnalyticsEnabled } = analyticsConfigResponse.parse(await response.json())
 */
export const analyticsConfigResponse = z.object({ isAnalyticsEnabled: z.boolean() })
export type AnalyticsConfigResponse = z.infer<typeof analyticsConfigResponse>

/** The image families the service serves, with their path prefixes. */
export const imageKinds = {
  wallet: '/getWalletImage/',
  asset: '/public/getAssetImage/',
  currency: '/public/getCurrencyImage/',
  token: '/public/getTokenImage/',
} as const

export type ImageKind = keyof typeof imageKinds

/**
 * Path parameters of the image endpoints.
 *
 * @example
 * imageParams.parse({ id: 'eip155:1' })
 */
export const imageParams = z.object({ id: resourceId })
