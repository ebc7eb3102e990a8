// SLIP-0010 key derivation for ed25519 (hardened steps only), written from the specification.
import { hmac } from '@noble/hashes/hmac.js'
import { sha512 } from '@noble/hashes/sha2.js'

const HARDENED = 0x8000_0000
const CURVE_KEY = new TextEncoder().encode('ed25519 seed')

/**
 * The indices of a hardened path such as `m/44'/501'/0'/0'` (without the hardened offset); throws
 * on a step that is not hardened, which ed25519 cannot derive.
 *
 * @example
 * hardenedPath("m/44'/501'/0'/0'") // [44, 501, 0, 0]
 */
export function hardenedPath(path: string): number[] {
  const [root, ...steps] = path.split('/')
  if (root !== 'm') throw new Error(`A derivation path starts with m: ${path}`)
  return steps.map((step) => {
    const match = /^(\d+)'$/.exec(step)
    const index = Number(match?.[1])
    if (!match || index >= HARDENED) throw new Error(`SLIP-0010 ed25519 steps are hardened: ${step}`)
    return index
  })
}

/**
 * SLIP-0010 for ed25519: the master node is HMAC-SHA512("ed25519 seed", seed); each hardened child is
 * HMAC-SHA512(chain code, 0x00 || key || ser32(index + 2^31)); the left half is the key (the ed25519
 * seed), the right half the chain code. Both come back as new buffers; every intermediate is zeroed.
 *
 * @example
 * const { privateKey, chainCode } = deriveEd25519(seed, "m/44'/501'/0'/0'")
 */
export function deriveEd25519(
  seed: Uint8Array,
  path: string,
): { privateKey: Uint8Array; chainCode: Uint8Array } {
  let node = hmac(sha512, CURVE_KEY, seed)
  const data = new Uint8Array(37)
  try {
    for (const index of hardenedPath(path)) {
      data.set(node.subarray(0, 32), 1)
      new DataView(data.buffer).setUint32(33, index + HARDENED)
      const child = hmac(sha512, node.subarray(32), data)
      node.fill(0)
      node = child
    }
    return { privateKey: node.slice(0, 32), chainCode: node.slice(32) }
  } finally {
    node.fill(0)
    data.fill(0)
  }
}
