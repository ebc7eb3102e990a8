import type { Page } from 'playwright-core'

/**
 * Starts recording whether the modal's dialog shakes (a refused close); call before the action.
 * The shake lasts 500 ms, and polling for it can miss it on a loaded machine (the next frame can come
 * after the timer that ends it), so a MutationObserver notes it as it happens. The returned function
 * waits until it has.
 *
 * @example
 * const shook = await watchShake(page)
 * await page.keyboard.press('Escape')
 * await shook()
 */
export async function watchShake(page: Page): Promise<() => Promise<void>> {
  await page.evaluate(() => {
    const root = document.querySelector('wallet-modal')?.shadowRoot
    if (!root) throw new Error('no wallet-modal to watch')
    const seen = { shook: false }
    ;(window as unknown as { shakeSeen: typeof seen }).shakeSeen = seen
    new MutationObserver((records) => {
      if (records.some((record) => (record.target as Element).matches('[role="dialog"][data-shake]')))
        seen.shook = true
    }).observe(root, { subtree: true, attributes: true, attributeFilter: ['data-shake'] })
  })
  return async () => {
    await page.waitForFunction(
      () => (window as unknown as { shakeSeen: { shook: boolean } }).shakeSeen.shook,
      undefined,
      { polling: 100, timeout: 10_000 },
    )
  }
}
