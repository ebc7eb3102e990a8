import { useEffect, useState } from 'react'

const loaded = new WeakMap<() => Promise<unknown>, unknown>()

/**
 * Starts loading a lazily split module ahead of use; once in, `useModule` returns it on its first
 * render (no extra render, no flash). A module already in is not asked for again.
 *
 * @example
 * onPointerEnter={() => void preloadModule(loadShell)}
 */
export function preloadModule<T>(load: () => Promise<{ default: T }>): Promise<T> {
  if (loaded.has(load)) return Promise.resolve(loaded.get(load) as T)
  return load().then((module) => {
    loaded.set(load, module.default)
    return module.default
  })
}

/**
 * Loads a lazily split component (or any default export) and re-renders when it arrives. Unlike
 * `React.lazy` with Suspense, nothing is throttled: React holds revealed Suspense content back for
 * up to 300 ms, which would delay the modal's first paint for no reason.
 *
 * @example
 * const Shell = useModule(loadShell) // undefined until the chunk is in
 */
export function useModule<T>(load: (() => Promise<{ default: T }>) | undefined): T | undefined {
  const cached = load ? (loaded.get(load) as T | undefined) : undefined
  const [, setVersion] = useState(0)
  useEffect(() => {
    if (!load || loaded.has(load)) return
    let active = true
    void preloadModule(load).then(() => {
      if (active) setVersion((version) => version + 1)
    })
    return () => {
      active = false
    }
  }, [load])
  return cached
}
