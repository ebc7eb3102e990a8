import { useLayoutEffect, useRef } from 'react'
import { useStrings } from '../modal/viewContext.ts'

/** The wallet frame's iframe, which lives beside the dialog in the modal's shadow root. */
const frameOf = (area: Element | null) =>
  (area?.getRootNode() as ShadowRoot | Document | undefined)?.querySelector<HTMLIFrameElement>(
    'iframe[data-wallet-frame]',
  )

/**
 * Who is signed in to the embedded wallet, on Account: a line the wallet frame draws on its own origin
 * (the e-mail, or a social sign-in's username), laid over this room. The frame never tells the page
 * the e-mail (any script of the site can open a frame of its own and ask: issue 23 item 4b), so the
 * modal shows it only through the frame. The frame takes no input here; the ApproveTransaction view
 * lays it out for itself when a request shows.
 */
export function FrameIdentity({ frameStatus }: { frameStatus: string | undefined }) {
  const { t } = useStrings()
  const area = useRef<HTMLElement>(null)

  // biome-ignore lint/correctness/useExhaustiveDependencies: a frame that loads later is the reason to lay out again.
  useLayoutEffect(() => {
    const place = area.current
    const frame = frameOf(place)
    if (!place || !frame) return
    const follow = () => {
      const rect = place.getBoundingClientRect()
      Object.assign(frame.style, {
        position: 'fixed',
        left: `${rect.left}px`,
        top: `${rect.top}px`,
        width: `${rect.width}px`,
        height: `${rect.height}px`,
        opacity: '1',
        pointerEvents: 'none',
        clipPath: 'none',
        zIndex: '2147483001',
        border: '0',
        colorScheme: 'normal',
      })
    }
    follow()
    // Read out where it shows (its own document, titled), never focused.
    frame.removeAttribute('aria-hidden')
    const observer = new ResizeObserver(follow)
    observer.observe(place)
    const win = place.ownerDocument.defaultView
    win?.addEventListener('resize', follow)
    win?.addEventListener('scroll', follow, true)
    return () => {
      observer.disconnect()
      win?.removeEventListener('resize', follow)
      win?.removeEventListener('scroll', follow, true)
      frame.setAttribute('aria-hidden', 'true')
      Object.assign(frame.style, {
        opacity: '0',
        pointerEvents: 'none',
        width: '1px',
        height: '1px',
        clipPath: 'inset(50%)',
      })
    }
  }, [frameStatus])

  return (
    <section
      ref={area}
      className="frame-identity"
      part="email"
      aria-label={t('signedInWith')}
      aria-owns="wallet-frame"
      style={{ height: '24px', minHeight: '24px', flexShrink: 0 }}
    />
  )
}
