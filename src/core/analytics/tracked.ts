import type { WalletEventMap, WalletEventName } from '../events/types.ts'

/**
 * What the modal reports, by the event that causes it. Nothing happens before the person acts;
 * errors (`ERROR`, SPEC section 9 error telemetry) only after another tracked event.
 */
export const TRACKED: Partial<Record<WalletEventName, string>> = {
  open: 'MODAL_OPEN',
  close: 'MODAL_CLOSE',
  connect: 'CONNECT_SUCCESS',
  disconnect: 'DISCONNECT_SUCCESS',
  'network-change': 'SWITCH_NETWORK',
  error: 'ERROR',
}

export type TrackedEvent = { name: WalletEventName; detail: WalletEventMap[WalletEventName]; at: number }
