import type { Config } from '../config.ts'
import type { View } from '../modal/router.ts'
import { initialView, startAt } from '../modal/router.ts'
import { signInPending } from '../siwx/gate.ts'

export interface OpenParameters {
  view?: View | undefined
  data?: Record<string, unknown> | undefined
}

/**
 * Opens the modal on the view the rules pick (SPEC section 2), or on the one the caller forces.
 * An inline modal (always shown) moves to that view.
 *
 * @example
 * await open(config) // Account when connected, otherwise Connect
 * await open(config, { view: 'Networks' })
 */
export async function open(config: Config, parameters: OpenParameters = {}): Promise<void> {
  const network = config.$network.get()
  const account = config.$account.get()
  const pending = signInPending(config.$options.get().siwx, account, config.$session.get())
  const view = initialView(
    {
      connected: config.$account.get() !== undefined,
      isMobile: config.platform.isMobile(),
      adapterCount: new Set(config.$options.get().networks.map((id) => id.split(':')[0])).size,
      unsupportedChain: config.$account.get() !== undefined && network !== undefined && !network.supported,
    },
    parameters.view ?? (pending ? 'SIWXSignMessage' : undefined),
  )
  const wasOpen = config.$modal.get().open
  config.$modal.set({
    open: true,
    router: startAt(view, parameters.data),
    shake: false,
    blockedReason: undefined,
  })
  if (!wasOpen) config.events.emit('open', { view })
}
