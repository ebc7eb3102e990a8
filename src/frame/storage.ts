import { randomId } from '../protocol/base64.ts'

/** The frame's own storage: its origin's localStorage, which browsers partition by the embedding site. */
export interface FrameStorage {
  /** This browser's id for the service (made once). */
  deviceId(): string
  token(): string | undefined
  setToken(token: string | undefined): void
}

/**
 * The session token and device id, kept in the frame origin's storage only: the host page cannot
 * read another origin's storage, and no message to the page ever carries them. Without storage
 * (blocked), they live in memory for this load.
 *
 * @example
 * const storage = frameStorage(window.localStorage, 'dev-project')
 */
export function frameStorage(backend: Storage | undefined, projectId: string): FrameStorage {
  const memory = new Map<string, string>()
  const read = (key: string) => {
    try {
      return backend?.getItem(key) ?? memory.get(key)
    } catch {
      return memory.get(key)
    }
  }
  const write = (key: string, value: string | undefined) => {
    if (value === undefined) memory.delete(key)
    else memory.set(key, value)
    try {
      if (value === undefined) backend?.removeItem(key)
      else backend?.setItem(key, value)
    } catch {
      // Storage blocked or full: memory keeps it for this load.
    }
  }
  const tokenKey = `wallet-frame:${projectId}:session`
  return {
    deviceId() {
      const existing = read('wallet-frame:device')
      if (existing && /^[A-Za-z0-9_-]{22}$/.test(existing)) return existing
      const id = randomId()
      write('wallet-frame:device', id)
      return id
    },
    token() {
      const token = read(tokenKey)
      return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : undefined
    },
    setToken: (token) => write(tokenKey, token),
  }
}
