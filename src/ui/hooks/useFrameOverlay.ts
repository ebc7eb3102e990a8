import { type RefObject, useLayoutEffect } from 'react'

/** The nearest ancestor of `area` that scrolls (the modal's body), if any. */
function scrollerOf(area: HTMLElement): HTMLElement | undefined {
  for (let node = area.parentElement; node; node = node.parentElement) {
    if (/auto|scroll/.test(getComputedStyle(node).overflowY)) return node
  }
  return undefined
}

/** The wallet frame's iframe, which lives beside the dialog in the modal's shadow root. */
const frameOf = (area: Element | null) =>
  (area?.getRootNode() as ShadowRoot | Document | undefined)?.querySelector<HTMLIFrameElement>(
    'iframe[data-wallet-frame]',
  )

/**
 * Lays the wallet frame (its own origin) over `area` and keeps it there while the area moves or
 * resizes; hides it again when the view goes. `interactive`: the frame takes clicks and focus (an
 * approval); otherwise it only shows and is read out (who is signed in, on Account). An interactive
 * frame's view opens at its top: the room's scroller goes back up (it kept the last view's scroll) and
 * the frame takes focus without scrolling it. A new `layoutKey` (a frame that loaded later, a new view
 * the frame shows) lays it out again.
 *
 * @example
 * const area = useRef<HTMLElement>(null)
 * useFrameOverlay(area, { interactive: true })
 * return <section ref={area} style={{ height: '320px' }} />
 */
export function useFrameOverlay(
  area: RefObject<HTMLElement | null>,
  { interactive, layoutKey }: { interactive: boolean; layoutKey?: unknown },
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: a frame that loads later (`layoutKey`) is the reason to lay out again.
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
        pointerEvents: interactive ? 'auto' : 'none',
        clipPath: 'none',
        zIndex: '2147483001',
        border: '0',
        colorScheme: 'normal',
      })
    }
    follow()
    // Read out where it shows (its own document, titled); focused only when the person acts in it.
    frame.removeAttribute('aria-hidden')
    if (interactive) {
      const scroller = scrollerOf(place)
      if (scroller) scroller.scrollTop = 0
      follow()
      frame.tabIndex = 0
      frame.focus({ preventScroll: true })
    }
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
      if (interactive) frame.tabIndex = -1
      Object.assign(frame.style, {
        opacity: '0',
        pointerEvents: 'none',
        width: '1px',
        height: '1px',
        clipPath: 'inset(50%)',
      })
    }
  }, [area, interactive, layoutKey])
}
