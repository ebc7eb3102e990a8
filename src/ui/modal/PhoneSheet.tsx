import { type RefObject, useEffect } from 'react'
import { close } from '../../core/actions/close.ts'
import type { Config } from '../../core/createConfig.ts'
import { canClose } from '../../core/modal/router.ts'
import { hasSession } from '../../core/siwx/gate.ts'
import { useStore } from '../hooks/useStore.ts'
import { phoneStyles } from '../theme/phoneStyles.ts'
import { backToClose, swipeToClose } from './phoneGestures.ts'

export interface PhoneSheetProps {
  config: Config
  /** The dialog's panel (the sheet) and its header (where a drag starts). */
  panel: RefObject<HTMLElement | null>
  header: RefObject<HTMLElement | null>
}

/**
 * What the dialog adds on a phone or touch screen, a chunk of its own that ModalShell asks for only
 * there: the touch-size targets and the sheet's handle (its styles); the bottom sheet dragged down by
 * its header closes, while the view can close (not the required sign-in); and on a phone the
 * browser's back gesture closes the dialog. An inline modal takes the styles only.
 *
 * @example
 * {PhoneSheet ? <PhoneSheet config={config} panel={panel} header={header} /> : null}
 */
export default function PhoneSheet({ config, panel, header }: PhoneSheetProps) {
  const modal = useStore(config.$modal)
  const options = useStore(config.$options)
  // Subscribed so that whether the view can close (a sign-in's session) stays current.
  useStore(config.$account)
  useStore(config.$session)
  const dialog = !options.inline
  const closable =
    dialog &&
    canClose({
      view: modal.router.view,
      siwxRequired: options.siwx === 'required',
      hasSession: hasSession(config),
    })

  useEffect(() => {
    const win = config.platform.window
    if (!dialog || !win || !config.platform.isMobile()) return
    return backToClose({ window: win, close: () => close(config) })
  }, [config, dialog])

  useEffect(() => {
    if (!closable || !panel.current || !header.current) return
    return swipeToClose({ panel: panel.current, handle: header.current, close: () => close(config) })
  }, [config, closable, panel, header])

  return <style>{phoneStyles}</style>
}
