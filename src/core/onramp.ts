import { type MapStore, map } from 'nanostores'
import { summarizeError, toBaseError, ValidationError } from '../errors/index.ts'
import type {
  OnrampOptionsResponse,
  OnrampPaymentMethod,
  OnrampQuoteResponse,
} from '../protocol/api/onramp.ts'
import {
  onrampOptionsResponse,
  onrampPurchaseResponse,
  onrampQuoteResponse,
  onrampUrlResponse,
} from '../protocol/api/onramp.ts'
import type { Config } from './config.ts'
import type { OnrampState } from './state/onramp.ts'

export type { OnrampState }

import { InvalidResponseError } from '../errors/rpc.ts'
import { WalletServiceNotConfiguredError } from '../errors/service.ts'
import { serviceClient } from './service.ts'

export interface OnrampSelection {
  purchaseCurrency: string
  paymentCurrency: string
  paymentMethod: OnrampPaymentMethod
  /** Decimal string, e.g. `50` or `50.00`. */
  amount: string
  /** CAIP-2 network. */
  network: string
}

/**
 * The on-ramp state of a config (made on first use, so a page that never buys pays nothing for it).
 *
 * @example
 * const state = onrampState(config).get()
 */
export function onrampState(config: Config): MapStore<OnrampState> {
  let store = config.internal.onramp
  if (!store) {
    store = map<OnrampState>({
      options: undefined,
      loading: false,
      quote: undefined,
      error: undefined,
      purchase: undefined,
    })
    config.internal.onramp = store
  }
  return store
}

const http = (config: Config) => {
  const client = config.$options.get().projectId ? serviceClient(config) : undefined
  if (!client) throw new WalletServiceNotConfiguredError()
  return client
}

const fail = (config: Config, error: unknown) => {
  onrampState(config).set({
    ...onrampState(config).get(),
    loading: false,
    error: summarizeError(toBaseError(error)),
  })
}

/**
 * Loads what can be bought and paid with (the service gives SPEC section 9's limits where its provider
 * gives none).
 *
 * @example
 * const options = await loadOnramp(config)
 */
export async function loadOnramp(config: Config): Promise<OnrampOptionsResponse | undefined> {
  const store = onrampState(config)
  store.set({ ...store.get(), loading: true, error: undefined, quote: undefined, purchase: undefined })
  try {
    const options = await http(config).getJson('/onramp/v1/options', {}, onrampOptionsResponse)
    store.set({ ...store.get(), options, loading: false })
    return options
  } catch (error) {
    fail(config, error)
    return undefined
  }
}

/**
 * Asks for a quote (SPEC section 4): loading on, the amount fetched (`purchaseAmount.amount`), loading
 * off; an error is stored. A quote asked for later wins over one still on its way.
 *
 * @example
 * await quoteOnramp(config, { purchaseCurrency: 'USDC', paymentCurrency: 'USD', paymentMethod: 'card', amount: '50', network: 'eip155:31337' })
 */
export async function quoteOnramp(
  config: Config,
  selection: OnrampSelection,
): Promise<OnrampQuoteResponse | undefined> {
  const store = onrampState(config)
  const asked = {}
  config.internal.onrampQuote = asked
  store.set({ ...store.get(), loading: true, error: undefined, quote: undefined })
  try {
    const quote = await http(config).getJson('/onramp/v1/quote', { ...selection }, onrampQuoteResponse)
    if (config.internal.onrampQuote === asked) store.set({ ...store.get(), loading: false, quote })
    return quote
  } catch (error) {
    if (config.internal.onrampQuote === asked) fail(config, error)
    return undefined
  }
}

/** How often the view asks whether the purchase arrived. */
const PURCHASE_POLL_MS = 1500

/**
 * Records the purchase with the service, opens the provider's checkout page for the visitor (a new
 * tab), then follows the purchase until the provider reports it complete, and refreshes the balance.
 * Call it from the tap itself: the tab opens before anything is awaited (mobile Safari and others
 * refuse a window opened later), blank, and goes to the checkout once the service has answered. A tab
 * the browser refused anyway leaves the checkout's URL in the purchase (`blockedCheckout`), for the
 * view to offer as a link that a new tap opens ({@link openedOnrampCheckout}).
 *
 * @example
 * form.onsubmit = () => void buyOnramp(config, selection)
 */
export async function buyOnramp(config: Config, selection: OnrampSelection): Promise<void> {
  const store = onrampState(config)
  const account = config.$account.get()
  const win = config.platform.window
  if (!account || !win) throw new ValidationError('Connect a wallet first', { messageId: 'connectFirst' })
  store.set({ ...store.get(), loading: true, error: undefined })
  // Opened in the tap's own task, before the first await; pointed at the checkout once known.
  const tab = win.open('about:blank', '_blank')
  try {
    const answer = await http(config).request(
      'POST',
      '/onramp/v1/url',
      { ...selection, address: account.address },
      onrampUrlResponse,
    )
    // Only a web page: the blank tab is the site's own origin, where a `javascript:` URL would run.
    if (!answer || !isWebUrl(answer.url)) throw new InvalidResponseError({ method: 'POST /onramp/v1/url' })
    if (tab) {
      // The provider's page gets no handle on this one.
      tab.opener = null
      tab.location.href = answer.url
    }
    store.set({
      ...store.get(),
      loading: false,
      purchase: {
        id: answer.purchaseId,
        status: 'pending',
        ...(tab ? {} : { blockedCheckout: answer.url }),
      },
    })
    void follow(config, answer.purchaseId)
  } catch (error) {
    tab?.close()
    fail(config, error)
  }
}

const isWebUrl = (url: string) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol)

/**
 * The person opened the checkout the browser had refused (the view's link, a tap of their own): the
 * purchase no longer offers it.
 *
 * @example
 * <a href={purchase.blockedCheckout} target="_blank" onClick={() => openedOnrampCheckout(config)}>
 */
export function openedOnrampCheckout(config: Config): void {
  const store = onrampState(config)
  const purchase = store.get().purchase
  if (!purchase?.blockedCheckout) return
  const { blockedCheckout: _opened, ...rest } = purchase
  store.setKey('purchase', rest)
}

async function follow(config: Config, id: string): Promise<void> {
  const store = onrampState(config)
  while (store.get().purchase?.id === id && store.get().purchase?.status === 'pending') {
    await new Promise((resolve) => setTimeout(resolve, PURCHASE_POLL_MS))
    try {
      const answer = await http(config).getJson(`/onramp/v1/purchases/${id}`, {}, onrampPurchaseResponse)
      if (store.get().purchase?.id !== id) return
      if (answer.status !== 'pending') {
        store.setKey('purchase', { id, status: answer.status })
        if (answer.status === 'completed') {
          const { fetchBalance } = await import('./actions/fetchBalance.ts')
          await fetchBalance(config, { force: true }).catch(() => {})
        }
      }
    } catch {
      // Asked again at the next turn.
    }
  }
}
