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

/** Below this zoom the visual viewport counts as unzoomed: its smaller height is a keyboard or a bar. */
const UNZOOMED = 1.01

/**
 * The part of `rect` (layout-viewport coordinates, as `position: fixed` uses) a person can see: the
 * visual viewport's, which shrinks under an on-screen keyboard (on iOS the layout viewport does not),
 * less `inset` at the bottom (the home indicator's safe area). A pinch-zoomed page is left as it is: the
 * frame would otherwise reflow at each pan.
 */
export function visiblePart(
  rect: { top: number; bottom: number },
  view: Pick<VisualViewport, 'offsetTop' | 'height' | 'scale'> | null | undefined,
  inset = 0,
): { top: number; height: number } {
  let top = rect.top
  let bottom = rect.bottom - inset
  if (view && view.scale < UNZOOMED) {
    top = Math.max(top, view.offsetTop)
    bottom = Math.min(bottom, view.offsetTop + view.height)
  }
  return { top, height: Math.max(0, bottom - top) }
}

/**
 * Lays the wallet frame (its own origin) over `area` and keeps it there while the area moves or
 * resizes; hides it again when the view goes. The frame covers only what the person can see of the
 * area ({@link visiblePart}): with a keyboard up (a passkey or code field in the frame) it ends above the
 * keyboard, and the frame's own bar keeps Approve and Reject at its bottom (src/frame/frame.css); the
 * area's bottom padding (the safe area, in the modal's styles) is left out. `interactive`: the frame takes clicks and focus (an
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
    const win = place.ownerDocument.defaultView
    const follow = () => {
      const rect = place.getBoundingClientRect()
      const inset = Number.parseFloat(win?.getComputedStyle(place).paddingBottom ?? '') || 0
      const { top, height } = visiblePart(rect, win?.visualViewport, inset)
      Object.assign(frame.style, {
        position: 'fixed',
        left: `${rect.left}px`,
        top: `${top}px`,
        width: `${rect.width}px`,
        height: `${height}px`,
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
    win?.addEventListener('resize', follow)
    win?.addEventListener('scroll', follow, true)
    // The keyboard coming up or going, the browser's bars, the visual viewport panning.
    win?.visualViewport?.addEventListener('resize', follow)
    win?.visualViewport?.addEventListener('scroll', follow)
    return () => {
      observer.disconnect()
      win?.removeEventListener('resize', follow)
      win?.removeEventListener('scroll', follow, true)
      win?.visualViewport?.removeEventListener('resize', follow)
      win?.visualViewport?.removeEventListener('scroll', follow)
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
