import type { ApprovalPreview, FrameNotice } from '../protocol/embedded/index.ts'
import { approvalContent } from './approvalContent.ts'
import { type ApprovalWindow, openApprovalWindow } from './approvalWindow.ts'
import { focusAtTop, focusIfUnclaimed, h } from './dom.ts'
import { userRejected } from './failure.ts'
import type { Strings } from './strings.ts'
import { tracksVisibility, watchVisibility } from './visibility.ts'
import type { AccountTypePreview, ApprovalUi } from './walletTypes.ts'

/**
 * How long the approval must have been in full view before Approve takes a click: a page that
 * uncovers the frame just before a click it provoked gets nothing (clickjacking).
 */
export const APPROVAL_ARM_MS = 600

/**
 * Where the engine cannot say what is drawn (no IOv2: Firefox, Safari): visible while the frame's
 * document is (a background tab is not), so Approve arms only `APPROVAL_ARM_MS` after the view is
 * shown or the tab comes back. This stops a click that lands as the view appears; it cannot see a page
 * that makes the frame transparent (see docs/EMBEDDED-WALLET.md, "Clickjacking, the modal's frame, the
 * handshake in every engine").
 */
function watchDocument(onChange: (visible: boolean) => void): () => void {
  const update = () => onChange(document.visibilityState === 'visible')
  document.addEventListener('visibilitychange', update)
  update()
  return () => document.removeEventListener('visibilitychange', update)
}

/**
 * The ApproveTransaction view inside the frame (its own origin): what is asked in plain words, and
 * Approve / Reject. The modal shows the frame over its view while this is up; only a click here
 * approves (the page cannot click into another origin's frame), and only once the view has been in
 * full sight for `APPROVAL_ARM_MS` (the page can still style, cover or move the frame).
 *
 * @example
 * const approvals = createApprovalUi({ root, notify, strings: () => strings, site: () => site })
 */
export function createApprovalUi(options: {
  root: HTMLElement
  notify: (notice: FrameNotice) => void
  /** The strings of the modal's language (loaded on demand). */
  strings: () => Promise<Strings>
  site: () => string
}): ApprovalUi {
  let queue: Promise<unknown> = Promise.resolve()
  let current: { reject(error: unknown): void } | undefined
  let observer: ResizeObserver | undefined
  let stopVisibility: (() => void) | undefined
  // Engines without IOv2: the approval window this request opened (./approvalWindow.ts).
  let reviewWindow: ApprovalWindow | undefined

  const hide = () => {
    reviewWindow?.close()
    reviewWindow = undefined
    stopVisibility?.()
    stopVisibility = undefined
    observer?.disconnect()
    observer = undefined
    options.root.replaceChildren()
    current = undefined
    options.notify({ type: 'APPROVAL_HIDE', payload: {} })
  }

  async function render(
    preview: ApprovalPreview | AccountTypePreview,
    sign: () => Promise<unknown>,
  ): Promise<unknown> {
    const strings = await options.strings()
    return new Promise((resolve, reject) => {
      const { t } = strings
      let settled = false
      const settle = (outcome: () => void) => {
        if (settled) return
        settled = true
        outcome()
        hide()
      }
      const win = window
      // Where the engine cannot say what is drawn (no IOv2), a page can keep the frame transparent over
      // its own button: Approve here only opens a top-level window, where the person approves.
      const inWindow = !tracksVisibility(win)
      const [title, ...content] = approvalContent(preview, strings, options.site())
      const approve = h(
        'button',
        {
          type: 'button',
          class: 'primary',
          'data-action': 'approve',
          ...(inWindow ? { 'data-window': '' } : {}),
        },
        t(inWindow ? 'frameReviewInWindow' : 'frameApprove'),
      )
      const rejectButton = h(
        'button',
        { type: 'button', class: 'secondary', 'data-action': 'reject' },
        t('frameReject'),
      )
      const actions = h('div', { class: 'actions' }, rejectButton, approve)
      // What became of the approval window (opened, or refused by a popup blocker).
      const windowStatus = h('p', { class: 'window-status', role: 'status', 'data-window-status': '' })
      const panel = h(
        'main',
        { class: 'panel', 'aria-labelledby': 'approval-title', dir: strings.dir, lang: strings.locale },
        title,
        ...content,
        // A bar that stays in view at the bottom of the frame while a long request scrolls (frame.css).
        h('div', { class: 'bar' }, inWindow && windowStatus, actions),
      )
      current = { reject: (error) => settle(() => reject(error)) }
      let signing = false
      // Approve takes a click only once the person has seen the request: IOv2 in Chromium (see
      // ./visibility.ts); where the engine cannot tell, only the minimum time since it was shown.
      let armed = false
      let arming: ReturnType<typeof setTimeout> | undefined
      // Both buttons: a click right after the modal laid the frame out was lost in Chromium (most likely
      // its dropping of input to a visibility-tracking frame that just moved), so neither looks usable early.
      const setArmed = (value: boolean) => {
        armed = value
        if (signing) return
        // Kept focusable (aria-disabled) so focus does not fall out of the frame.
        for (const button of [approve, rejectButton]) {
          if (value) button.removeAttribute('aria-disabled')
          else button.setAttribute('aria-disabled', 'true')
        }
      }
      const onVisibility = (visible: boolean) => {
        clearTimeout(arming)
        setArmed(false)
        if (visible) arming = setTimeout(() => setArmed(true), APPROVAL_ARM_MS)
      }
      setArmed(false)
      rejectButton.addEventListener('click', () => {
        if (!signing && armed) current?.reject(userRejected())
      })
      const startSigning = () => {
        if (signing) return
        signing = true
        stopWatching()
        clearTimeout(arming)
        // Kept focusable (aria-disabled) so focus does not fall out of the frame while signing.
        approve.setAttribute('aria-disabled', 'true')
        rejectButton.setAttribute('aria-disabled', 'true')
        approve.textContent = t('frameApproving')
        approve.setAttribute('aria-busy', 'true')
        sign().then(
          (result) => settle(() => resolve(result)),
          (error: unknown) => settle(() => reject(error)),
        )
      }
      // Runs inside the click (user activation, else the popup blocker refuses). A second click brings
      // the open window forward; a refused one leaves the request pending, to try again.
      const openWindow = () => {
        if (reviewWindow) return reviewWindow.focus()
        const opened = openApprovalWindow(
          win,
          { preview, site: options.site(), locale: strings.locale },
          (approved) => {
            reviewWindow = undefined
            if (approved) startSigning()
            else current?.reject(userRejected())
          },
        )
        reviewWindow = opened ?? undefined
        windowStatus.className = opened ? 'window-status' : 'window-status error'
        windowStatus.textContent = t(opened ? 'frameWindowOpen' : 'frameWindowBlocked')
      }
      approve.addEventListener('click', () => {
        if (signing || !armed) return
        if (inWindow) openWindow()
        else startSigning()
      })
      panel.addEventListener('keydown', (event) => {
        if (event.key === 'Escape' && !signing) current?.reject(userRejected())
      })
      options.root.replaceChildren(panel)
      const stopWatching = inWindow
        ? watchDocument(onVisibility)
        : watchVisibility(win, [{ element: panel }, { element: actions, whole: true }], onVisibility)
      stopVisibility = () => {
        stopWatching()
        clearTimeout(arming)
      }
      const height = () => Math.ceil(panel.getBoundingClientRect().height)
      options.notify({ type: 'APPROVAL_SHOW', payload: { height: height() } })
      observer = new ResizeObserver(() => {
        // The frame is laid over the modal only after APPROVAL_SHOW: once it has its size, the heading
        // gets the focus asked for.
        focusIfUnclaimed(title)
        options.notify({ type: 'APPROVAL_RESIZE', payload: { height: height() } })
      })
      observer.observe(panel)
      focusAtTop(title)
    })
  }

  return {
    show(preview, sign) {
      const shown = queue.then(() => render(preview, sign))
      queue = shown.catch(() => {})
      return shown
    },
    cancel() {
      current?.reject(userRejected())
    },
  }
}
