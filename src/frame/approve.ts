/**
 * The approval window (`/approve#nonce=…`, a top-level window on the frame's origin, never framed),
 * opened by the wallet frame in engines without IntersectionObserver v2 (against clickjacking; see
 * ./approvalWindow.ts). A page can make its iframe transparent over its own button, but it cannot
 * restyle or cover another window: here the person sees the request as the frame shows it, and
 * Approve takes a click only once this window has been visible and focused for `APPROVAL_ARM_MS`.
 * The decision goes back to the frame, which signs; this window never holds the session.
 *
 * On a phone this window is a tab: once answered it says the person can go back to the site, and it
 * closes itself as soon as the frame has the decision (at once, or when the person goes back to a
 * site's tab the browser had suspended), so the site's tab shows again with the result.
 */
import './frame.css'
import {
  APPROVE_WINDOW_READY,
  type ApproveWindowRequest,
  approveWindowPort,
  approveWindowReceived,
  approveWindowRequest,
} from '../protocol/embedded/approvalWindow.ts'
import { APPROVAL_ARM_MS } from './approval.ts'
import { approvalContent } from './approvalContent.ts'
import { focusAtTop, h, hostOf } from './dom.ts'
import { loadStrings } from './strings.ts'

const root = document.getElementById('app') ?? document.body
const nonce = /^#nonce=([A-Za-z0-9_-]{22,64})$/.exec(location.hash)?.[1]
// The nonce stays out of the address bar and the history.
if (location.hash) history.replaceState(null, '', location.pathname)
const opener = window.opener as Window | null

/** Shows the request, arms Approve while this window is visible and focused, answers once. */
async function show(request: ApproveWindowRequest, port: MessagePort): Promise<void> {
  const strings = await loadStrings(request.locale)
  const { t } = strings
  document.documentElement.lang = strings.locale
  document.documentElement.dir = strings.dir
  const [title, ...content] = approvalContent(request.preview, strings, request.site)
  document.title = title.textContent ?? document.title
  const approve = h(
    'button',
    { type: 'button', class: 'primary', 'data-action': 'approve' },
    t('frameApprove'),
  )
  const rejectButton = h(
    'button',
    { type: 'button', class: 'secondary', 'data-action': 'reject' },
    t('frameReject'),
  )
  const actions = h('div', { class: 'actions' }, rejectButton, approve)
  // Once answered: where to go now (announced; the window may stay open, see below).
  const status = h('p', { class: 'window-status', role: 'status', 'data-answer-status': '' })
  const panel = h(
    'main',
    { class: 'panel page-panel', 'aria-labelledby': 'approval-title' },
    title,
    ...content,
    // Stays in view at the bottom of the window while a long request scrolls (frame.css).
    h('div', { class: 'bar' }, status, actions),
  )
  let answered = false
  let armed = false
  let arming: ReturnType<typeof setTimeout> | undefined
  const setArmed = (value: boolean) => {
    armed = value
    if (answered) return
    // Kept focusable (aria-disabled), as in the frame.
    if (value) approve.removeAttribute('aria-disabled')
    else approve.setAttribute('aria-disabled', 'true')
  }
  // Any loss of sight or focus (another window over this one, a background tab) starts the wait again.
  const update = () => {
    clearTimeout(arming)
    setArmed(false)
    if (document.visibilityState === 'visible' && document.hasFocus()) {
      arming = setTimeout(() => setArmed(true), APPROVAL_ARM_MS)
    }
  }
  const answer = (approved: boolean) => {
    if (answered) return
    answered = true
    clearTimeout(arming)
    approve.setAttribute('aria-disabled', 'true')
    rejectButton.setAttribute('aria-disabled', 'true')
    if (approved) {
      approve.textContent = t('frameApproving')
      approve.setAttribute('aria-busy', 'true')
    }
    // Shown while this window stays open: the site's tab may be suspended until the person goes back
    // (the decision waits in the port), or the browser may refuse to close a tab.
    status.textContent = t(approved ? 'frameWindowApproved' : 'frameWindowRejected', {
      site: hostOf(request.site),
    })
    port.onmessage = (message: MessageEvent) => {
      const received = approveWindowReceived.safeParse(message.data)
      if (received.success && received.data.nonce === request.nonce) window.close()
    }
    port.postMessage({ type: 'decision', nonce: request.nonce, approved })
  }
  approve.addEventListener('click', () => {
    if (armed) answer(true)
  })
  // Reject needs no wait: it can only refuse.
  rejectButton.addEventListener('click', () => answer(false))
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') answer(false)
  })
  setArmed(false)
  root.replaceChildren(panel)
  for (const type of ['focus', 'blur']) window.addEventListener(type, update)
  document.addEventListener('visibilitychange', update)
  update()
  focusAtTop(title)
}

function start(): void {
  if (!nonce || !opener) return
  let port: MessagePort | undefined
  let shown = false
  window.addEventListener('message', (event: MessageEvent) => {
    // Only the frame that opened this window, at this origin, with the nonce it gave this window.
    if (port || event.source !== opener || event.origin !== location.origin) return
    const parsed = approveWindowPort.safeParse(event.data)
    const given = event.ports[0]
    if (!parsed.success || parsed.data.nonce !== nonce || !given) return
    port = given
    port.onmessage = (message: MessageEvent) => {
      const request = approveWindowRequest.safeParse(message.data)
      if (request.success && request.data.nonce === nonce && !shown) {
        shown = true
        void show(request.data, given)
      }
    }
  })
  try {
    opener.postMessage({ type: APPROVE_WINDOW_READY, nonce }, location.origin)
  } catch {
    // The opener is gone: nothing to approve.
  }
}

start()
