import { createDemoWallet } from '../../demo/wallets/demo-wallet.ts'
import { defineWalletButton } from '../../elements/wallet-button.ts'
import { defineWalletModal, type WalletModalElement } from '../../elements/wallet-modal.ts'
import { balanceKey } from '../../src/core/balanceKey.ts'

/** Fails the test with a message when a condition is false. */
export function assert(condition: unknown, message = 'assertion failed'): asserts condition {
  if (!condition) throw new Error(message)
}

export function equal<T>(actual: T, expected: T, message?: string): void {
  if (!Object.is(actual, expected)) {
    const show = (value: unknown) =>
      value instanceof Element ? value.outerHTML.slice(0, 120) : JSON.stringify(value)
    throw new Error(`${message ?? 'not equal'}: expected ${show(expected)}, got ${show(actual)}`)
  }
}

/** Polls until `read` returns something truthy, or fails after `timeoutMs`. */
export async function waitFor<T>(
  read: () => T | undefined | null | false,
  what: string,
  timeoutMs = 4_000,
): Promise<T> {
  const start = performance.now()
  for (;;) {
    const value = read()
    if (value) return value
    if (performance.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A Demo Wallet announced on this page by EIP-6963 (memory storage, no chain needed for connecting).
 * `name` announces it under another name (and rdns), as a second wallet would.
 */
export function installWallet(options: { autoApprove?: boolean; chainId?: number; name?: string } = {}) {
  const wallet = createDemoWallet({
    origin: location.origin,
    document,
    autoApprove: options.autoApprove ?? true,
    ...(options.chainId ? { chainId: options.chainId } : {}),
  })
  const info = options.name
    ? {
        ...wallet.controls.info,
        name: options.name,
        uuid: crypto.randomUUID(),
        rdns: `test.${crypto.randomUUID()}`,
      }
    : wallet.controls.info
  const detail = Object.freeze({ info: Object.freeze(info), provider: wallet.provider })
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
  return { ...wallet, remove: () => window.removeEventListener('eip6963:requestProvider', announce) }
}

export interface Mounted {
  modal: WalletModalElement
  button: HTMLElement
  events: { type: string; detail: unknown }[]
  cleanup(): void
}

const EVENT_NAMES = [
  'connect',
  'disconnect',
  'account-change',
  'network-change',
  'open',
  'close',
  'request-close',
  'error',
]

/**
 * Defines the elements (once), puts a modal and a button on the page and records every `wallet-*`
 * event seen on document.
 */
export function mount(
  attributes: Record<string, string> = { networks: 'eip155:31337,eip155:31338' },
): Mounted {
  defineWalletModal()
  defineWalletButton()
  const events: { type: string; detail: unknown }[] = []
  const record = (event: Event) => events.push({ type: event.type, detail: (event as CustomEvent).detail })
  for (const name of EVENT_NAMES) document.addEventListener(`wallet-${name}`, record)
  const modal = document.createElement('wallet-modal')
  for (const [name, value] of Object.entries(attributes)) modal.setAttribute(name, value)
  const button = document.createElement('wallet-button')
  document.body.append(modal, button)
  return {
    modal,
    button,
    events,
    cleanup() {
      for (const name of EVENT_NAMES) document.removeEventListener(`wallet-${name}`, record)
      modal.remove()
      button.remove()
      localStorage.clear()
    },
  }
}

/** The inner `<button>` of a `<wallet-button>`. */
export const innerButton = (button: HTMLElement) =>
  button.shadowRoot?.querySelector<HTMLButtonElement>('button') ?? undefined

export const dialogOf = (modal: HTMLElement) =>
  modal.shadowRoot?.querySelector<HTMLElement>('[role="dialog"]') ?? undefined

/** Finds a button in the modal by its visible text or aria-label. */
export function buttonByName(modal: HTMLElement, name: string | RegExp): HTMLButtonElement | undefined {
  const buttons = [...(modal.shadowRoot?.querySelectorAll<HTMLButtonElement>('button') ?? [])]
  return buttons.find((button) => {
    const label = button.getAttribute('aria-label') ?? button.textContent ?? ''
    return typeof name === 'string'
      ? label.trim() === name || (button.textContent ?? '').includes(name)
      : name.test(label)
  })
}

/** The element that has focus, looking through shadow roots. */
export function deepActive(): Element | null {
  let active = document.activeElement
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
  return active
}

/** Waits for two animation frames, so layout and paint follow a change. */
export const frames = () =>
  new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(undefined))))

/** The modal's instance, for reading its stores. */
export const configOf = (mounted: Mounted) => mounted.modal.walletConfig

/** Clicks the enabled `<wallet-button>` and waits for the dialog. */
export async function openModal(mounted: Mounted): Promise<HTMLElement> {
  const button = await waitFor(() => {
    const inner = innerButton(mounted.button)
    return inner && !inner.disabled && inner
  }, 'an enabled wallet button')
  button.click()
  return waitFor(() => dialogOf(mounted.modal), 'the dialog')
}

/** Connects an installed Demo Wallet through the modal, and waits until the modal closed. */
export async function connectWallet(mounted: Mounted, name = 'Demo Wallet'): Promise<void> {
  await openModal(mounted)
  ;(await waitFor(() => buttonByName(mounted.modal, name), name)).click()
  await waitFor(() => mounted.modal.walletConfig.$account.get(), 'connected')
  await waitFor(() => !dialogOf(mounted.modal), 'the modal to close')
}

/** The modal's heading (the view's title). */
export const headingOf = (modal: HTMLElement) => modal.shadowRoot?.querySelector('h2') ?? undefined

/** An RPC address nothing answers on: balance reads fail at once, the same on every machine. */
const DEAD_RPC = 'http://127.0.0.1:9/'

/** A modal on the two local networks with no chain behind them (this suite runs none). */
export function mountWithoutChain(attributes: Record<string, string> = {}): Mounted {
  const mounted = mount({ networks: 'eip155:31337,eip155:31338', ...attributes })
  mounted.modal.config = { rpcUrls: { 'eip155:31337': DEAD_RPC, 'eip155:31338': DEAD_RPC } }
  return mounted
}

/**
 * Gives the connected account 10,000 ETH on the first local network, as the chain would (no chain
 * runs in this suite; the end-to-end tests read real balances). The real read fails first, which
 * blocks retries for 30 s, so the balance stays.
 */
export async function giveBalance(mounted: Mounted, address: string): Promise<void> {
  const config = mounted.modal.walletConfig
  const key = balanceKey('eip155:31337', address)
  await waitFor(() => config.$balances.get()[key]?.status === 'error', 'the balance read to fail')
  config.$balances.setKey(key, {
    status: 'ready',
    value: 10n ** 22n,
    decimals: 18,
    symbol: 'ETH',
    nativePrice: null,
    tokens: [],
    fetchedAt: Date.now(),
  })
}
