// The frame's device-share store for the service tests' in-process frame (Node has no IndexedDB).
import type { DeviceShareStore } from '../../../src/frame/keys/deviceShare.ts'

/**
 * This browser's device shares (no IndexedDB in Node): kept per storage, as a browser keeps them for
 * every load of the frame; copies in and out, as IndexedDB's structured clone does.
 */
export function memoryDeviceShares(): DeviceShareStore {
  const shares = new Map<string, Uint8Array>()
  return {
    async load(userId) {
      const share = shares.get(userId)
      return share ? share.slice() : undefined
    },
    async save(userId, share) {
      shares.set(userId, share.slice())
    },
    async delete(userId) {
      shares.delete(userId)
    },
  }
}

const browsers = new WeakMap<object, DeviceShareStore>()

/** The device shares of one browser, named by its storage (made on first use). */
export function deviceSharesOf(storage: object): DeviceShareStore {
  const shares = browsers.get(storage) ?? memoryDeviceShares()
  browsers.set(storage, shares)
  return shares
}
