/**
 * The frame's side of the approval window (clickjacking in engines without IntersectionObserver v2:
 * Firefox, Safari). There the frame cannot know whether the page has made it transparent over its own
 * "Claim" button, so Approve in the frame only opens a top-level window on the frame's own origin
 * (`/approve`, never framed: `frame-ancestors 'none'`, `X-Frame-Options: DENY`), which no page can
 * restyle or cover. The window shows the same preview and sends back the person's decision; the frame
 * still signs (with its session, which never leaves it).
 *
 * The wire: the window posts `ready` with the nonce of its URL's fragment to `window.opener`; the
 * frame answers only its own window (`event.source`) at its own origin with that nonce, handing it a
 * `MessagePort`; the request and the decision go over that port, each carrying the nonce, and the
 * frame says it `received` the decision, upon which the window closes itself.
 *
 * On a phone the window is a tab of its own and the site's tab (with this frame) may be suspended while
 * the person is in it: the decision then waits in the port until the person goes back, and the window
 * says they can. A window closed with a decision still on its way is not a rejection: the frame looks
 * twice, a poll apart, so a decision queued before the close (delivered as the tab resumes, in any
 * order with the poll's timer) is taken.
 */
import { randomId } from '../protocol/base64.ts'
import {
  APPROVE_WINDOW_PORT,
  type ApproveWindowReceived,
  type ApproveWindowRequest,
  approveWindowDecision,
  approveWindowReady,
} from '../protocol/embedded/approvalWindow.ts'

/**
 * How often the frame looks whether the person closed the window: closed at two looks in a row (no
 * decision came in between) rejects.
 */
export const CLOSED_POLL_MS = 250

/**
 * The window's size: the preview's width, tall enough for a transaction's rows. With a touch screen
 * (a phone, a tablet) none is asked for: the browser opens a tab, as it would anyway.
 */
const WINDOW_FEATURES = 'popup,width=460,height=720'

/** An open approval window. */
export interface ApprovalWindow {
  /** Brings it to the front (a second click on the frame's button). */
  focus(): void
  /** Closes it without a decision (the request ended otherwise). */
  close(): void
}

/**
 * Opens the approval window for one request; must run inside the click's handler (user activation,
 * or the popup blocker refuses). Answers `null` when the browser refused to open it. `onDecision` is
 * called once: `true` when the person clicked Approve in the window, `false` on Reject or when the
 * window was closed.
 *
 * @example
 * const opened = openApprovalWindow(window, { preview, site, locale }, (approved) => (approved ? sign() : reject()))
 * if (!opened) showBlocked()
 */
export function openApprovalWindow(
  win: Window,
  request: Omit<ApproveWindowRequest, 'type' | 'nonce'>,
  onDecision: (approved: boolean) => void,
): ApprovalWindow | null {
  const origin = win.location.origin
  // 128 random bits, URL-safe: the nonce of one opening.
  const nonce = randomId()
  const url = new URL('/approve', origin)
  url.hash = `nonce=${nonce}`
  // Not `noopener`: the window needs its opener to ask for the request, and the frame its reference.
  const touch = win.matchMedia?.('(pointer: coarse)').matches === true
  const popup = win.open(url.href, '_blank', touch ? '' : WINDOW_FEATURES)
  if (!popup) return null
  let port: MessagePort | undefined
  let done = false
  const stop = () => {
    done = true
    win.removeEventListener('message', onMessage)
    clearInterval(polling)
    port?.close()
    try {
      popup.close()
    } catch {}
  }
  const decide = (approved: boolean) => {
    if (done) return
    stop()
    onDecision(approved)
  }
  const onMessage = (event: MessageEvent) => {
    // Only the window opened here, at the frame's own origin, with this opening's nonce.
    if (event.source !== popup || event.origin !== origin) return
    const ready = approveWindowReady.safeParse(event.data)
    if (!ready.success || ready.data.nonce !== nonce) return
    // A reload of the window asks again: a new port, the old one closed.
    port?.close()
    const channel = new MessageChannel()
    port = channel.port1
    port.onmessage = (message: MessageEvent) => {
      const decision = approveWindowDecision.safeParse(message.data)
      if (!decision.success || decision.data.nonce !== nonce || done) return
      // Posted before the port closes (below), so the window has it: it may close now.
      port?.postMessage({ type: 'received', nonce } satisfies ApproveWindowReceived)
      decide(decision.data.approved)
    }
    popup.postMessage({ type: APPROVE_WINDOW_PORT, nonce }, origin, [channel.port2])
    port.postMessage({ type: 'request', nonce, ...request } satisfies ApproveWindowRequest)
  }
  win.addEventListener('message', onMessage)
  let closedOnce = false
  const polling = setInterval(() => {
    if (popup.closed && closedOnce) decide(false)
    closedOnce = popup.closed
  }, CLOSED_POLL_MS)
  return {
    focus: () => popup.focus(),
    close: stop,
  }
}
