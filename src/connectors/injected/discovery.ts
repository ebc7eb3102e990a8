import type { Eip1193Provider, WalletInfo } from '../types.ts'

export interface AnnouncedWallet {
  info: WalletInfo
  provider: Eip1193Provider
}

function isAnnouncement(detail: unknown): detail is AnnouncedWallet {
  if (typeof detail !== 'object' || detail === null) return false
  const { info, provider } = detail as Partial<AnnouncedWallet>
  return (
    typeof info?.uuid === 'string' &&
    typeof info.name === 'string' &&
    typeof info.rdns === 'string' &&
    info.name.length > 0 &&
    info.name.length <= 100 &&
    typeof provider?.request === 'function'
  )
}

/**
 * Listens for EIP-6963 announcements and asks wallets to announce. A wallet is reported once per
 * rdns (a later announcement of the same rdns replaces the earlier one).
 *
 * @example
 * const stop = watchAnnouncedWallets(window, (wallet) => console.log(wallet.info.name))
 */
export function watchAnnouncedWallets(
  target: Window,
  onWallet: (wallet: AnnouncedWallet) => void,
): () => void {
  const handler = (event: Event) => {
    const detail = (event as CustomEvent<unknown>).detail
    if (!isAnnouncement(detail)) return
    const icon = typeof detail.info.icon === 'string' && isSafeIcon(detail.info.icon) ? detail.info.icon : ''
    onWallet({ info: { ...detail.info, icon }, provider: detail.provider })
  }
  target.addEventListener('eip6963:announceProvider', handler)
  target.dispatchEvent(new Event('eip6963:requestProvider'))
  return () => target.removeEventListener('eip6963:announceProvider', handler)
}

/** EIP-6963 icons must be data URIs; anything else could track or inject. */
function isSafeIcon(icon: string): boolean {
  return /^data:image\/(svg\+xml|png|jpeg|webp|gif)[;,]/.test(icon) && icon.length < 200_000
}
