// Calling a page's event listeners from a demo wallet, so that one throwing listener breaks nothing.
/** Calls each listener with `args`; a listener's error is rethrown later, as the browser reports it. */
export function notifyAll<Args extends unknown[]>(
  listeners: Iterable<(...args: Args) => void>,
  ...args: Args
): void {
  for (const listener of [...listeners]) {
    try {
      listener(...args)
    } catch (error) {
      // A page's listener must not break the wallet; report it like the browser would.
      queueMicrotask(() => {
        throw error
      })
    }
  }
}
