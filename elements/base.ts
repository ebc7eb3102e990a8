/**
 * The element's base class from r2wc, or on a server (no DOM, no `HTMLElement`) a plain class, so
 * the module imports in Node without error; nothing defines an element there.
 *
 * @example
 * const Base = elementBase(() => r2wc(ButtonHost, { shadow: 'open' }))
 */
export function elementBase<T>(make: () => T): T {
  return typeof HTMLElement === 'undefined' ? (class {} as T) : make()
}

/**
 * Properties a framework set on the element before its class was defined sit on the instance and
 * hide the class's setters: this takes each off and sets it again, through the setter.
 *
 * @example
 * constructor() { super(); upgradeProperties(this, ['config']) }
 */
export function upgradeProperties(element: object, names: readonly string[]): void {
  for (const name of names) {
    if (!Object.hasOwn(element, name)) continue
    const value: unknown = Reflect.get(element, name)
    Reflect.deleteProperty(element, name)
    Reflect.set(element, name, value)
  }
}

/**
 * Runs `task` once the browser is idle after the first paint (`requestIdleCallback`, at most 2 s
 * later; a short timer where it is missing), then one frame later, so work that can wait stays off
 * the first paint. Idle means nothing is queued, so the elements' first render is done by then; the
 * extra frame matters on a busy machine, where an idle period can fall between the frame that paints
 * the button and the next one, and the task's fetches would start before that paint was on screen.
 * A hidden page paints no frames, so there it runs at once. Returns a function that cancels it.
 *
 * @example
 * const cancel = whenIdle(() => startDiscovery())
 */
export function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const id = setTimeout(task, 200)
    return () => clearTimeout(id)
  }
  let cancelled = false
  const run = () => setTimeout(() => !cancelled && task())
  const id = requestIdleCallback(
    () => (document.visibilityState === 'hidden' ? run() : requestAnimationFrame(run)),
    { timeout: 2_000 },
  )
  return () => {
    cancelled = true
    cancelIdleCallback(id)
  }
}
