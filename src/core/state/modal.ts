import type { RouterState } from '../modal/router.ts'
import { startAt } from '../modal/router.ts'

export interface ModalState {
  /** Shown; always true in inline mode, where the views sit in the page. */
  open: boolean
  router: RouterState
  /** True from a blocked close until the 500 ms shake ends. */
  shake: boolean
  /** Why the last close was refused, when the modal can say it; cleared by the next view change. */
  blockedReason: 'signInRequired' | undefined
}

/** The modal before anything happened: on Connect, shown only inline. */
export const initialModal = (inline: boolean): ModalState => ({
  open: inline,
  router: startAt('Connect'),
  shake: false,
  blockedReason: undefined,
})
