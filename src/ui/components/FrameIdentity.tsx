import { useRef } from 'react'
import { useFrameOverlay } from '../hooks/useFrameOverlay.ts'
import { useStrings } from '../modal/viewContext.ts'

/**
 * Who is signed in to the embedded wallet, on Account: a line the wallet frame draws on its own origin
 * (the e-mail, or a social sign-in's username) and who can use the wallet's keys (the custody line),
 * laid over this room. The frame never tells the page
 * the e-mail (any script of the site can open a frame of its own and ask), so the
 * modal shows it only through the frame. The frame takes no input here; the ApproveTransaction view
 * lays it out for itself when a request shows.
 */
export function FrameIdentity({ frameStatus }: { frameStatus: string | undefined }) {
  const { t } = useStrings()
  const area = useRef<HTMLElement>(null)

  useFrameOverlay(area, { interactive: false, layoutKey: frameStatus })

  return (
    <section
      ref={area}
      className="frame-identity"
      part="email"
      aria-label={t('signedInWith')}
      aria-owns="wallet-frame"
      // The frame's two lines: who is signed in (24 px) and its custody line (up to two lines of 16 px).
      style={{ height: '56px', minHeight: '56px', flexShrink: 0 }}
    />
  )
}
