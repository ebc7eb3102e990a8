import { walletLink } from '../../connectors/walletconnect/namespaces.ts'

/** The catalogue links a pairing opens a wallet with (SPEC section 3, plus the store pages). */
export interface WalletAppLinks {
  mobile_link: string | null
  desktop_link: string | null
  webapp_link: string | null
  app_store?: string | null | undefined
  play_store?: string | null | undefined
}

/** A phone's operating system, for the store a missing app is offered from. */
export type MobileOs = 'ios' | 'android'

/**
 * The phone's operating system from the browser's user agent: iPhone, iPod, iPad (an iPad asking for
 * desktop pages says Macintosh, with touch points), or Android.
 *
 * @example
 * mobileOs(navigator) // 'ios'
 */
export function mobileOs(
  navigator: { userAgent: string; maxTouchPoints?: number } | undefined,
): MobileOs | undefined {
  if (!navigator) return undefined
  const agent = navigator.userAgent
  if (/Android/i.test(agent)) return 'android'
  if (/iPhone|iPad|iPod/i.test(agent)) return 'ios'
  if (/Macintosh/i.test(agent) && (navigator.maxTouchPoints ?? 0) > 1) return 'ios'
  return undefined
}

/**
 * The link that opens a wallet's app for a pairing URI: on a phone its mobile link (else its web app),
 * on a computer its desktop app (else its web app). Undefined when it has none the modal may open.
 *
 * @example
 * appLink(entry, uri, { isMobile: true }) // 'rainbow://wc?uri=wc%3A…'
 */
export function appLink(
  entry: WalletAppLinks,
  uri: string,
  context: { isMobile: boolean },
): string | undefined {
  const link = context.isMobile
    ? (entry.mobile_link ?? entry.webapp_link)
    : (entry.desktop_link ?? entry.webapp_link)
  return link ? walletLink(link, uri) : undefined
}

/**
 * Whether a wallet can be opened on a phone by a link (it has a mobile link or a web app).
 *
 * @example
 * opensOnPhone(entry) // true for Rainbow (`rainbow:`)
 */
export const opensOnPhone = (entry: WalletAppLinks) => (entry.mobile_link ?? entry.webapp_link) !== null

/**
 * Where a phone gets the wallet's app: its App Store page on iOS, its Google Play page on Android
 * (the catalogue checked both: https only). Undefined when the catalogue has none for the phone.
 *
 * @example
 * storeLink(entry, 'ios') // 'https://apps.apple.com/…'
 */
export function storeLink(entry: WalletAppLinks, os: MobileOs | undefined): string | undefined {
  const store = os === 'ios' ? entry.app_store : os === 'android' ? entry.play_store : undefined
  return store ?? undefined
}
