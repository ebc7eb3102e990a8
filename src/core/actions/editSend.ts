import type { Config, SendForm } from '../config.ts'
import { IDLE_SEND } from '../config.ts'

/**
 * Keeps what the person types in the Send view in the send store, so the form survives the wallet's
 * approval view replacing it. Ignored while a send is in flight (the form is read-only then).
 *
 * @example
 * editSend(config, { amount: '0.5' })
 */
export function editSend(config: Config, parameters: Partial<SendForm>): void {
  const state = config.$send.get()
  if (state.status === 'sending') return
  config.$send.setKey('form', { ...state.form, ...parameters })
}

/**
 * Starts a new send: an empty form and no result. A send in flight is kept (its result still comes).
 *
 * @example
 * resetSend(config)
 */
export function resetSend(config: Config): void {
  if (config.$send.get().status === 'sending') return
  config.$send.set(IDLE_SEND)
}
