// Registering a Wallet Standard wallet on a window (or any EventTarget) by the standard's window events.
import type { Wallet, WindowAppReadyEventAPI, WindowRegisterWalletEventCallback } from '@wallet-standard/base'

/**
 * Registers a wallet by the Wallet Standard's window events (what `registerWallet` of
 * `@wallet-standard/wallet` does): announces it now with `wallet-standard:register-wallet`, for apps already
 * listening, and again on each `wallet-standard:app-ready`, for apps that load later. Returns a function that
 * stops listening and unregisters it from the apps that registered it.
 *
 * @example
 * registerSolanaWallet(window, createSolanaWallet({ origin: location.origin, ask }).wallet)
 */
export function registerSolanaWallet(target: EventTarget, wallet: Wallet): () => void {
  const unregisters: (() => void)[] = []
  const callback: WindowRegisterWalletEventCallback = ({ register }) => {
    unregisters.push(register(wallet))
  }
  const onAppReady = (event: Event) => {
    const api = (event as CustomEvent<WindowAppReadyEventAPI | undefined>).detail
    if (api && typeof api.register === 'function') callback(api)
  }
  target.addEventListener('wallet-standard:app-ready', onAppReady)
  try {
    target.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }))
  } catch (error) {
    // A page's throwing listener must not stop the wallet from loading.
    console.error('Demo Wallet: wallet-standard:register-wallet could not be dispatched', error)
  }
  return () => {
    target.removeEventListener('wallet-standard:app-ready', onAppReady)
    for (const unregister of unregisters.splice(0)) unregister()
  }
}
