/**
 * The dialog's phone gestures: a bottom sheet dragged down closes, and the browser's back gesture
 * closes the dialog instead of leaving the page. Plain functions over the DOM; `PhoneSheet` arms them.
 */

/** Where the dialog is a bottom sheet (the panel sits at the bottom: modalStyles' breakpoint). */
export const SHEET_MEDIA = '(max-width: 480px)'

/** A flick: the finger's speed (px/ms) in its last moments at which a short drag still closes. */
export const FLICK_SPEED = 0.5
/** The least drag a flick needs, so a tap that slips a little never closes. */
export const FLICK_DISTANCE = 16
/** How much of the sheet's height a slow drag must cover to close, and the most it asks in pixels. */
export const CLOSE_FRACTION = 1 / 3
export const CLOSE_DISTANCE_MAX = 160
/** The moments the release speed is measured over (ms). */
const SPEED_WINDOW_MS = 100
/** How long the sheet takes to settle back or slide away (ms). */
const SETTLE_MS = 200

export interface SheetRelease {
  /** How far down the sheet was dragged (px, never negative). */
  distance: number
  /** The finger's speed when it let go (px/ms, downward positive). */
  speed: number
  /** The sheet's height (px). */
  height: number
}

/**
 * Whether letting go of the sheet closes it: past a third of its height (at most 160 px), or on a
 * downward flick; a last flick upward keeps it open whatever the distance.
 *
 * @example
 * dismissesSheet({ distance: 200, speed: 0.1, height: 500 }) // true
 * dismissesSheet({ distance: 40, speed: 1.2, height: 500 }) // true: a flick
 * dismissesSheet({ distance: 40, speed: 0.1, height: 500 }) // false: settles back
 */
export function dismissesSheet({ distance, speed, height }: SheetRelease): boolean {
  if (distance <= 0 || speed <= -FLICK_SPEED) return false
  if (speed >= FLICK_SPEED && distance >= FLICK_DISTANCE) return true
  return distance >= Math.min(height * CLOSE_FRACTION, CLOSE_DISTANCE_MAX)
}

/** A press on these is theirs (a tap on Back or Close), never the start of a drag. */
const CONTROLS = 'button, a[href], input, select, textarea, [role="button"]'

export interface SwipeToCloseOptions {
  /** The sheet that moves. */
  panel: HTMLElement
  /** Where a drag starts (the header, with its handle). */
  handle: HTMLElement
  /** Closes the dialog; answers false when it stays open (the page cancelled, say). */
  close: () => Promise<boolean>
}

/**
 * Lets a bottom sheet be dragged down by its handle and closed: it follows the finger (or pen, or
 * mouse) down from the handle, closes when let go past the distance or on a flick
 * ({@link dismissesSheet}), and settles back otherwise or when the close is refused. Only while the
 * dialog is a bottom sheet ({@link SHEET_MEDIA}). With reduced motion the sheet still follows the
 * finger (the person moves it) but settles and leaves without animating. The wallet frame, when laid
 * over the sheet (an approval), moves with it. Answers the function that stops it.
 *
 * @example
 * const stop = swipeToClose({ panel, handle: header, close: () => close(config) })
 */
export function swipeToClose({ panel, handle, close }: SwipeToCloseOptions): () => void {
  const win = handle.ownerDocument.defaultView
  if (!win) return () => {}
  const bottomSheet = win.matchMedia(SHEET_MEDIA)
  const reducedMotion = win.matchMedia('(prefers-reduced-motion: reduce)')
  panel.setAttribute('data-draggable', '')
  const root = panel.getRootNode() as ShadowRoot | Document
  const frames = () => [...root.querySelectorAll<HTMLElement>('iframe[data-wallet-frame]')]
  /** The sheet and, when laid over it, the wallet frame: what moves together. */
  const moving = () => [panel, ...frames().filter((frame) => frame.style.opacity === '1')]
  let drag: { pointer: number; startY: number; samples: { y: number; t: number }[] } | undefined
  let settling: ReturnType<typeof setTimeout> | undefined
  let alive = true

  const place = (offset: number, animate: boolean) => {
    const transition = animate && !reducedMotion.matches ? `translate ${SETTLE_MS}ms ease-out` : ''
    for (const element of moving()) {
      element.style.transition = transition
      element.style.translate = offset ? `0 ${offset}px` : ''
    }
  }
  /** Once the sheet has settled (at once with reduced motion), `then`. */
  const settled = (then: () => void) => {
    clearTimeout(settling)
    settling = setTimeout(
      () => {
        if (!alive) return
        for (const element of [panel, ...frames()]) element.style.transition = ''
        then()
      },
      reducedMotion.matches ? 0 : SETTLE_MS,
    )
  }
  const settleBack = () => {
    place(0, true)
    settled(() => {})
  }

  const onPointerDown = (event: PointerEvent) => {
    if (drag || !event.isPrimary || event.button !== 0 || !bottomSheet.matches) return
    const target = event.composedPath()[0]
    if (target instanceof Element && target.closest(CONTROLS)) return
    clearTimeout(settling)
    drag = {
      pointer: event.pointerId,
      startY: event.clientY,
      samples: [{ y: event.clientY, t: event.timeStamp }],
    }
    // The moves keep coming here when the finger leaves the header.
    try {
      handle.setPointerCapture(event.pointerId)
    } catch {
      // Not an active pointer (an event a script made): its moves still come while over the header.
    }
  }
  const onPointerMove = (event: PointerEvent) => {
    if (!drag || event.pointerId !== drag.pointer) return
    drag.samples.push({ y: event.clientY, t: event.timeStamp })
    while (drag.samples.length > 2 && event.timeStamp - (drag.samples[0]?.t ?? 0) > SPEED_WINDOW_MS)
      drag.samples.shift()
    place(Math.max(0, event.clientY - drag.startY), false)
  }
  const onPointerUp = (event: PointerEvent) => {
    if (!drag || event.pointerId !== drag.pointer) return
    const { startY, samples } = drag
    drag = undefined
    const distance = Math.max(0, event.clientY - startY)
    if (distance === 0) return place(0, false)
    const first = samples[0] ?? { y: startY, t: event.timeStamp }
    const elapsed = event.timeStamp - first.t
    const speed = elapsed > 0 ? (event.clientY - first.y) / elapsed : 0
    const height = panel.getBoundingClientRect().height
    if (!dismissesSheet({ distance, speed, height })) return settleBack()
    // Away past the screen's bottom edge, then closed; a refused close brings it back.
    place(height, true)
    settled(() => {
      void close().then((closed) => {
        if (!closed && alive) settleBack()
      })
    })
  }
  const onPointerCancel = (event: PointerEvent) => {
    if (!drag || event.pointerId !== drag.pointer) return
    drag = undefined
    settleBack()
  }
  handle.addEventListener('pointerdown', onPointerDown)
  handle.addEventListener('pointermove', onPointerMove)
  handle.addEventListener('pointerup', onPointerUp)
  handle.addEventListener('pointercancel', onPointerCancel)
  return () => {
    alive = false
    clearTimeout(settling)
    handle.removeEventListener('pointerdown', onPointerDown)
    handle.removeEventListener('pointermove', onPointerMove)
    handle.removeEventListener('pointerup', onPointerUp)
    handle.removeEventListener('pointercancel', onPointerCancel)
    panel.removeAttribute('data-draggable')
    for (const element of [panel, ...frames()]) {
      element.style.translate = ''
      element.style.transition = ''
    }
  }
}

/** The key of the dialog's own history entry in `history.state` (its value: that opening's token). */
export const ENTRY_KEY = 'walletModalEntry'

/** How long an opening waits for the removal of the last opening's entry to arrive. */
const REMOVAL_WAIT_MS = 1000

const entryOf = (state: unknown): unknown =>
  typeof state === 'object' && state !== null ? (state as Record<string, unknown>)[ENTRY_KEY] : undefined

export interface BackToCloseOptions {
  window: Window
  /** Closes the dialog; answers false when it stays open (sign-in required, the page cancelled). */
  close: () => Promise<boolean>
}

/**
 * While the dialog is open, the browser's back gesture (or button) closes it rather than leaving the
 * page. It pushes a history entry of its own (the same URL, the page's state kept beside a token), and
 * going back from it closes the dialog; when the dialog may not close, the entry is pushed again and
 * the dialog stays. The function it answers, called when the dialog closed any other way, takes the
 * entry back out, but only while it is the current one: when the page moved on meanwhile (its router
 * pushed a route), going back would navigate the page, so the entry stays where it is.
 *
 * @example
 * const stop = backToClose({ window, close: () => close(config) })
 * // closed by its Close button:
 * stop()
 */
export function backToClose({ window: win, close }: BackToCloseOptions): () => void {
  const { history } = win
  const token = Math.random().toString(36).slice(2)
  let active = true
  const push = () => {
    const state: unknown = history.state
    // The page's own state (its router's) stays in the entry: going forward onto it again is harmless.
    const kept = typeof state === 'object' && state !== null && !Array.isArray(state) ? state : {}
    history.pushState({ ...kept, [ENTRY_KEY]: token }, '', win.location.href)
  }
  const onPopState = (event: PopStateEvent) => {
    // Back onto the entry (from a route the page pushed while open): still open.
    if (entryOf(event.state) === token) return
    void close().then((closed) => {
      if (!closed && active) push()
    })
  }
  const start = () => {
    if (!active) return
    push()
    win.addEventListener('popstate', onPopState)
  }
  // The last opening's entry still current: its removal (a `popstate`) is on its way. The new entry
  // comes after it, or it would be the one removed.
  let timer: ReturnType<typeof setTimeout> | undefined
  const arrived = () => {
    win.removeEventListener('popstate', arrived)
    clearTimeout(timer)
    start()
  }
  if (entryOf(history.state) !== undefined) {
    timer = setTimeout(arrived, REMOVAL_WAIT_MS)
    win.addEventListener('popstate', arrived)
  } else start()
  return () => {
    active = false
    clearTimeout(timer)
    win.removeEventListener('popstate', arrived)
    win.removeEventListener('popstate', onPopState)
    if (entryOf(history.state) === token) history.back()
  }
}
