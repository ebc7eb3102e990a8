import { useLayoutEffect, useRef } from 'react'
import { embeddedState } from '../../core/embeddedState.ts'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

/** The wallet frame's iframe, which lives beside the dialog in the modal's shadow root. */
const frameOf = (area: Element | null) =>
  (area?.getRootNode() as ShadowRoot | Document | undefined)?.querySelector<HTMLIFrameElement>(
    'iframe[data-wallet-frame]',
  )

/**
 * ApproveTransaction (SPEC 2): the embedded wallet's frame, on its own origin, shows what is asked in
 * plain words with Approve and Reject; this view makes room for it and lays the frame over that room.
 * The page cannot click inside another origin's frame, so only the person approves.
 */
export default function ApproveTransactionView({ config }: ViewProps) {
  const { t } = useStrings()
  const state = useStore(embeddedState(config))
  const area = useRef<HTMLElement>(null)
  const height = Math.max(160, state.approval?.height ?? 320)

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
        pointerEvents: 'auto',
        clipPath: 'none',
        zIndex: '2147483001',
        border: '0',
        colorScheme: 'normal',
      })
    }
    follow()
    frame.removeAttribute('aria-hidden')
    frame.tabIndex = 0
    frame.focus()
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
      frame.tabIndex = -1
      Object.assign(frame.style, {
        opacity: '0',
        pointerEvents: 'none',
        width: '1px',
        height: '1px',
        clipPath: 'inset(50%)',
      })
    }
  }, [])

  return (
    <section
      ref={area}
      className="frame-area"
      part="approval-frame"
      aria-label={t('approveInFrame')}
      aria-owns="wallet-frame"
      style={{ height: `${height}px` }}
    />
  )
}
