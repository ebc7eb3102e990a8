// How a frame view shows its panels over the modal: APPROVAL_SHOW, RESIZE and HIDE with the height it needs.
import type { FrameNotice } from '../protocol/embedded/index.ts'
import { focusIfUnclaimed } from './dom.ts'

/**
 * The modal shows the frame on APPROVAL_SHOW and takes it away on APPROVAL_HIDE; in between the frame
 * says its height whenever the panel's changes. `draw` shows a panel (the first one of a flow tells the
 * modal to show the frame) at its top and focuses `focus` (else its title) without scrolling: on a
 * phone the panel is taller than the modal's room, and a focused field low in it would scroll the
 * title (and what the view is about) out of sight. `clear` empties the root and hides the frame.
 *
 * @example
 * const host = createPanelHost({ root, notify })
 * host.draw(panel, true)
 * host.clear()
 */
export function createPanelHost(options: { root: HTMLElement; notify: (notice: FrameNotice) => void }) {
  let observer: ResizeObserver | undefined
  let target: HTMLElement | undefined
  // The frame is laid over the modal's view only after APPROVAL_SHOW: a focus asked before may not
  // take, so it is asked again when the frame gets focus or its size, while nothing else has it.
  const refocus = () => focusIfUnclaimed(target)
  window.addEventListener('focus', refocus)
  return {
    draw(panel: HTMLElement, first: boolean, focus?: HTMLElement) {
      options.root.replaceChildren(panel)
      const height = () => Math.ceil(panel.getBoundingClientRect().height)
      options.notify({ type: first ? 'APPROVAL_SHOW' : 'APPROVAL_RESIZE', payload: { height: height() } })
      observer?.disconnect()
      observer = new ResizeObserver(() => {
        refocus()
        options.notify({ type: 'APPROVAL_RESIZE', payload: { height: height() } })
      })
      observer.observe(panel)
      target = focus ?? panel.querySelector<HTMLElement>('h1') ?? undefined
      document.scrollingElement?.scrollTo(0, 0)
      target?.focus({ preventScroll: true })
    },
    clear() {
      observer?.disconnect()
      observer = undefined
      target = undefined
      options.root.replaceChildren()
      options.notify({ type: 'APPROVAL_HIDE', payload: {} })
    },
  }
}
