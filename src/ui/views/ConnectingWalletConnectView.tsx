import { walletImageUrl } from '../../core/service.ts'
import type { CatalogueEntry } from '../../protocol/api/catalogue.ts'
import { WalletImage } from '../components/WalletImage.tsx'
import { useStore } from '../hooks/useStore.ts'
import { en } from '../locales/en.ts'
import type { ViewProps } from '../modal/ModalShell.tsx'

const safeLink = (link: string | null) =>
  link && /^(https?:\/\/|[a-z][a-z0-9+.-]*:)/i.test(link) && !/^(javascript|data|vbscript):/i.test(link)
    ? link
    : undefined

/**
 * A catalogue wallet that is not installed in this browser: its logo and the links the catalogue
 * has for it (web app, desktop app, mobile app).
 */
export default function ConnectingWalletConnectView({ config }: ViewProps) {
  const modal = useStore(config.$modal)
  const wallet = modal.router.data?.wallet as CatalogueEntry | undefined
  if (!wallet) return null
  const links = [
    { label: en.openWebApp, href: safeLink(wallet.webapp_link) },
    { label: en.openDesktopApp, href: safeLink(wallet.desktop_link) },
    { label: en.openMobileApp, href: safeLink(wallet.mobile_link) },
  ].flatMap((link) => (link.href ? [{ label: link.label, href: link.href }] : []))

  return (
    <div className="center">
      <WalletImage src={walletImageUrl(config, wallet.image_id)} size={72} />
      <h3>{en.getWallet(wallet.name)}</h3>
      <p>{en.notInstalled(wallet.name)}</p>
      {links.length === 0 ? <p>{en.noLinks}</p> : null}
      <div className="actions" style={{ width: '100%' }}>
        {links.map((link, index) => (
          <a
            key={link.href}
            className={index === 0 ? 'primary' : 'secondary'}
            href={link.href}
            target="_blank"
            rel="noopener noreferrer"
            autoFocus={index === 0}
          >
            {link.label}
          </a>
        ))}
      </div>
    </div>
  )
}
