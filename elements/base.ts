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
 * Runs `task` when the browser is idle after the first paint (`requestIdleCallback`, at most 2 s
 * later; a short timer where it is missing), so work that can wait stays off the first paint.
 * Returns a function that cancels it.
 *
 * @example
 * const cancel = whenIdle(() => startDiscovery())
 */
export function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(task, { timeout: 2_000 })
    return () => cancelIdleCallback(id)
  }
  const id = setTimeout(task, 200)
  return () => clearTimeout(id)
}
