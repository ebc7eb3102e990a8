/**
 * The few ABI encodings the modal needs (ERC-20 `transfer` and `balanceOf`, Multicall3's `aggregate3`
 * and `getEthBalance`), written by hand: balances are read on the Account view, which should not load
 * an ABI library for four functions.
 */

/** A 32-byte word of a whole number. */
export const uintWord = (value: bigint): string => {
  if (value < 0n || value >= 2n ** 256n) throw new RangeError(`uint256 out of range: ${value}`)
  return value.toString(16).padStart(64, '0')
}

/** A 32-byte word of an address (`0x` and 40 hex digits). */
export const addressWord = (address: string): string => {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new RangeError(`not an EVM address: ${address}`)
  return address.slice(2).toLowerCase().padStart(64, '0')
}

/**
 * ERC-20 `transfer(address to, uint256 amount)` call data.
 *
 * @example
 * encodeTransfer('0x7099…79C8', 25_000_000n) // '0xa9059cbb…'
 */
export const encodeTransfer = (to: string, amount: bigint): `0x${string}` =>
  `0xa9059cbb${addressWord(to)}${uintWord(amount)}`

/**
 * ERC-20 `balanceOf(address account)` call data.
 *
 * @example
 * encodeBalanceOf('0xf39F…2266') // '0x70a08231…'
 */
export const encodeBalanceOf = (account: string): `0x${string}` => `0x70a08231${addressWord(account)}`

/**
 * Multicall3 `getEthBalance(address account)` call data.
 *
 * @example
 * encodeGetEthBalance('0xf39F…2266') // '0x4d2301cc…'
 */
export const encodeGetEthBalance = (account: string): `0x${string}` => `0x4d2301cc${addressWord(account)}`

/** One call of a Multicall3 `aggregate3`. */
export interface Call3 {
  target: string
  allowFailure: boolean
  callData: string
}

/**
 * Multicall3 `aggregate3((address target, bool allowFailure, bytes callData)[] calls)` call data.
 *
 * @example
 * encodeAggregate3([{ target: usdc, allowFailure: true, callData: encodeBalanceOf(alice) }])
 */
export function encodeAggregate3(calls: readonly Call3[]): `0x${string}` {
  // Each tuple: target, allowFailure, the offset of callData within the tuple (3 words), its length, its bytes.
  const tuples = calls.map(({ target, allowFailure, callData }) => {
    if (!/^0x([0-9a-fA-F]{2})*$/.test(callData))
      throw new RangeError(`call data is not hex bytes: ${callData}`)
    const bytes = callData.slice(2).toLowerCase()
    const padded = bytes.padEnd(Math.ceil(bytes.length / 64) * 64, '0')
    return `${addressWord(target)}${uintWord(allowFailure ? 1n : 0n)}${uintWord(96n)}${uintWord(BigInt(bytes.length / 2))}${padded}`
  })
  let offset = BigInt(calls.length * 32)
  const offsets = tuples.map((tuple) => {
    const word = uintWord(offset)
    offset += BigInt(tuple.length / 2)
    return word
  })
  return `0x82ad56cb${uintWord(32n)}${uintWord(BigInt(calls.length))}${offsets.join('')}${tuples.join('')}`
}

/** One result of `aggregate3`. */
export interface Result3 {
  success: boolean
  returnData: `0x${string}`
}

/**
 * Decodes what `aggregate3` returns, `(bool success, bytes returnData)[]`; throws a RangeError on data
 * that is not such an answer (for example `0x` from an address without code).
 *
 * @example
 * const [native, usdc] = decodeAggregate3(answer)
 */
export function decodeAggregate3(data: string): Result3[] {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(data)) throw new RangeError('aggregate3: not hex data')
  const hex = data.slice(2)
  const word = (byte: number): bigint => {
    const text = hex.slice(byte * 2, byte * 2 + 64)
    if (text.length !== 64) throw new RangeError('aggregate3: the answer is too short')
    return BigInt(`0x${text}`)
  }
  const small = (value: bigint) => {
    if (value > BigInt(hex.length / 2))
      throw new RangeError('aggregate3: an offset or length is out of bounds')
    return Number(value)
  }
  const array = small(word(0))
  const count = small(word(array))
  const items = array + 32
  return Array.from({ length: count }, (_unused, index) => {
    const tuple = items + small(word(items + index * 32))
    const bytesAt = tuple + small(word(tuple + 32))
    const length = small(word(bytesAt))
    const start = (bytesAt + 32) * 2
    if (start + length * 2 > hex.length) throw new RangeError('aggregate3: bytes run past the answer')
    return { success: word(tuple) === 1n, returnData: `0x${hex.slice(start, start + length * 2)}` as const }
  })
}

/**
 * A `uint256` answer (`balanceOf`, `getEthBalance`), or undefined when it is not one.
 *
 * @example
 * decodeUint('0x…0f4240') // 1000000n
 */
export function decodeUint(data: string): bigint | undefined {
  return /^0x[0-9a-fA-F]{64}$/.test(data) ? BigInt(data) : undefined
}
