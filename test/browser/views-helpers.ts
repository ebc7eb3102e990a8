// What the views' audit tests (views*.test.ts) share: the mounted modal and installed wallets,
// cleaned after each test, and small ways into the modal's shadow root.
import { setViewport } from '@web/test-runner-commands'
import type { Mounted } from './helpers.ts'
import { buttonByName, installWallet, mountWithoutChain, openModal, waitFor } from './helpers.ts'

export let page: Mounted | undefined

export let wallets: ReturnType<typeof installWallet>[] = []

/**
 * Cleans up after each test of the calling file: the modal, the installed wallets, `dir` and the viewport.
 */
export function cleanUpAfterEach(): void {
  afterEach(async () => {
    page?.cleanup()
    for (const wallet of wallets) wallet.remove()
    page = undefined
    wallets = []
    document.documentElement.removeAttribute('dir')
    await setViewport({ width: 800, height: 600 })
  })
}

export const LIGHT_DANGER = 'rgb(201, 42, 42)'

export function wallet(options: Parameters<typeof installWallet>[0] = {}) {
  const installed = installWallet(options)
  wallets.push(installed)
  return installed
}

export function mountModal(attributes: Record<string, string> = {}) {
  page = mountWithoutChain({ theme: 'light', ...attributes })
  return page
}

export const modalOf = () => page?.modal as HTMLElement

export const inModal = (selector: string) =>
  modalOf().shadowRoot?.querySelector<HTMLElement>(selector) ?? undefined

export const text = () => modalOf().shadowRoot?.textContent ?? ''

export async function openSend(mounted: Mounted) {
  await openModal(mounted)
  ;(await waitFor(() => buttonByName(modalOf(), 'Send'), 'Send')).click()
  return waitFor(() => inModal('form'), 'the send form') as Promise<HTMLFormElement>
}

/** WCAG contrast ratio of two `rgb()` colours. */
export function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    }) as [number, number, number]
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl
  }
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (high + 0.05) / (low + 0.05)
}
