/**
 * Whether the person can see the approval view (against clickjacking: a page that lays the frame at
 * 2 % opacity over its own "Claim" button, covers it, or transforms it, must not turn a click into a
 * signature).
 *
 * Chromium has IntersectionObserver v2: with `trackVisibility` the browser itself says whether the
 * target is drawn unoccluded, at full opacity and without transforms or filters, through every
 * ancestor frame (the page's styles included). The frame's own script cannot learn that any other way:
 * the page's DOM is another origin's.
 */

/** How much of a `whole` target must be in view (a fractional pixel may be cut by layout rounding). */
const WHOLE_RATIO = 0.99

/** Below this the browser refuses `trackVisibility` (the IOv2 minimum). */
const VISIBILITY_DELAY_MS = 100

/** IntersectionObserver v2's additions (not yet in TypeScript's DOM types). */
interface VisibilityInit extends IntersectionObserverInit {
  trackVisibility: boolean
  delay: number
}
interface VisibilityEntry extends IntersectionObserverEntry {
  readonly isVisible: boolean
}

/**
 * Whether this engine tracks visibility (IntersectionObserver v2: Chromium; not Firefox nor Safari).
 *
 * @example
 * if (!tracksVisibility(window)) showInAWindow()
 */
export function tracksVisibility(win: Window & typeof globalThis): boolean {
  return (
    typeof win.IntersectionObserver === 'function' &&
    typeof win.IntersectionObserverEntry === 'function' &&
    'isVisible' in win.IntersectionObserverEntry.prototype
  )
}

/** One element to watch; `whole`: all of it must be in view (the buttons), else only what is in view counts. */
export interface VisibilityTarget {
  element: Element
  whole?: boolean
}

/**
 * Calls `onChange(true)` while every target is drawn as it is (IOv2 `isVisible`: unoccluded, full
 * opacity, no transform or filter, through every ancestor frame) and in view (all of a `whole` one),
 * and `onChange(false)` when that stops. Answers how to stop watching. Engines without IOv2 never
 * report the targets visible: the caller decides what to do there (see `tracksVisibility`).
 *
 * @example
 * const stop = watchVisibility(window, [{ element: panel }, { element: buttons, whole: true }], (visible) => (armed = visible))
 */
export function watchVisibility(
  win: Window & typeof globalThis,
  targets: readonly VisibilityTarget[],
  onChange: (visible: boolean) => void,
): () => void {
  if (!tracksVisibility(win)) {
    onChange(false)
    return () => {}
  }
  const seen = new Map<Element, boolean>()
  const whole = new Set(targets.filter((target) => target.whole).map((target) => target.element))
  let last: boolean | undefined
  // The observer calls back only when a ratio crosses a threshold (or visibility changes): the
  // "whole" test must be a threshold itself, or a target that settles at 0.995 after a layout (a
  // fractional pixel short of 1) would never be reported and Approve would never arm.
  const init: VisibilityInit = {
    trackVisibility: true,
    delay: VISIBILITY_DELAY_MS,
    threshold: [0, 0.5, WHOLE_RATIO, 1],
  }
  const observer = new win.IntersectionObserver((entries) => {
    for (const entry of entries as VisibilityEntry[]) {
      const inView = whole.has(entry.target) ? entry.intersectionRatio >= WHOLE_RATIO : entry.isIntersecting
      seen.set(entry.target, inView && entry.isVisible)
    }
    const visible = targets.every((target) => seen.get(target.element) === true)
    if (visible !== last) {
      last = visible
      onChange(visible)
    }
  }, init)
  for (const target of targets) observer.observe(target.element)
  return () => observer.disconnect()
}
