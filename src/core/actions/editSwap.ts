import type { Config, SwapForm } from '../config.ts'

const busy = (status: string) => status === 'approving' || status === 'swapping'

/**
 * Keeps what the person chose and typed in the Swap view in the swap store, so the form survives the
 * wallet's approval view replacing it. Ignored while a swap is in flight.
 *
 * @example
 * editSwap(config, { amount: '0.1' })
 */
export function editSwap(config: Config, parameters: Partial<SwapForm>): void {
  const state = config.$swap.get()
  if (busy(state.status)) return
  config.$swap.setKey('form', { from: 'native', to: '', amount: '', ...state.form, ...parameters })
}

/**
 * Starts a new swap: the Swap view loads its tokens again and shows an empty form. A swap in flight
 * is kept (its result still comes).
 *
 * @example
 * resetSwap(config)
 */
export function resetSwap(config: Config): void {
  if (busy(config.$swap.get().status)) return
  config.$swap.set({ status: 'idle', tokens: [] })
}
