/**
 * The EIP-3668 (CCIP-read) gateway of the names' offchain resolver: it answers the ENSIP-10
 * call `resolve(bytes name, bytes data)` the resolver contract sends it, from the name registry, as
 * `abi.encode(bytes result, uint64 expires, bytes signature)`, signed by the gateway key over
 * `keccak256(0x1900 ‖ resolver ‖ expires ‖ keccak256(request) ‖ keccak256(result))` as the resolver
 * (server/dev/chain/contracts/DevEns.sol) checks. Only the selectors below are answered: `addr` of a
 * registered name, `text(node, "avatar")` (the profile's avatar; other keys are empty) and `name` of the
 * ENSIP-19 reverse name `<address>.addr.reverse` (the address's registered name, which the universal
 * resolver then checks forward).
 */
import {
  type Address,
  decodeFunctionData,
  encodeAbiParameters,
  encodePacked,
  type Hex,
  hexToBytes,
  keccak256,
  namehash,
  zeroAddress,
} from 'viem'
import { privateKeyToAddress, serializeSignature, sign } from 'viem/accounts'
import { ServiceError } from '../errors.ts'
import type { NameRegistry } from './registry.ts'

/** The longest call accepted, in bytes: a 255-byte name and a record call fit in well under it. */
export const GATEWAY_MAX_CALL_BYTES = 1024
/** How long a signed answer holds, in seconds. */
export const GATEWAY_ANSWER_TTL_SECONDS = 300
/** ENSIP-9: the coin type of Ethereum addresses. */
const COIN_TYPE_ETH = 60n

const resolveAbi = [
  {
    name: 'resolve',
    type: 'function',
    stateMutability: 'view',
    inputs: [
      { name: 'name', type: 'bytes' },
      { name: 'data', type: 'bytes' },
    ],
    outputs: [{ name: '', type: 'bytes' }],
  },
] as const

/** The record calls answered: `addr(bytes32)` and `addr(bytes32,uint256)`. */
const recordAbi = [
  {
    name: 'addr',
    type: 'function',
    stateMutability: 'view',
    inputs: [{ name: 'node', type: 'bytes32' }],
    outputs: [{ name: '', type: 'address' }],
  },
  {
    name: 'addr',
    type: 'function',
    stateMutability: 'view',
    inputs: [
      { name: 'node', type: 'bytes32' },
      { name: 'coinType', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bytes' }],
  },
  {
    name: 'text',
    type: 'function',
    stateMutability: 'view',
    inputs: [
      { name: 'node', type: 'bytes32' },
      { name: 'key', type: 'string' },
    ],
    outputs: [{ name: '', type: 'string' }],
  },
  {
    name: 'name',
    type: 'function',
    stateMutability: 'view',
    inputs: [{ name: 'node', type: 'bytes32' }],
    outputs: [{ name: '', type: 'string' }],
  },
] as const

const RESOLVE_SELECTOR = '0x9061b923'
/** addr(bytes32), addr(bytes32,uint256), text(bytes32,string), name(bytes32). */
const RECORD_SELECTORS = new Set(['0x3b3b57de', '0xf1cb7e06', '0x59d1d43c', '0x691f3431'])
/** ENSIP-19's reverse names of Ethereum addresses (coin type 60). */
const REVERSE_NAME = /^([0-9a-f]{40})\.addr\.reverse$/
/** The one text record answered (ENSIP-12). */
const AVATAR_KEY = 'avatar'

export interface NameGatewayOptions {
  registry: NameRegistry
  /** The gateway's signing key (`NAME_GATEWAY_KEY`). */
  privateKey: Hex
  now?: () => number
}

export interface NameGateway {
  /** The address the resolver contract trusts. */
  readonly signer: Address
  /** The signed answer to `data` sent by the resolver at `sender`; 400 `BAD_REQUEST` when refused. */
  answer(sender: Address, data: Hex): Promise<Hex>
}

const refuse = (message: string) => new ServiceError(400, 'BAD_REQUEST', message, { field: 'data' })

/** The name of a DNS wire-format name (RFC 1035 3.1), or null when it is not one. */
function dnsDecode(bytes: Uint8Array): string | null {
  const labels: string[] = []
  let offset = 0
  while (offset < bytes.length) {
    const length = bytes[offset] ?? 0
    if (length === 0) return offset === bytes.length - 1 && labels.length > 0 ? labels.join('.') : null
    const label = new TextDecoder('utf-8', { fatal: false }).decode(
      bytes.subarray(offset + 1, offset + 1 + length),
    )
    if (length > 63 || offset + 1 + length >= bytes.length || !/^[a-z0-9-]+$/i.test(label)) return null
    labels.push(label)
    offset += 1 + length
  }
  return null
}

/** An ENSIP-11 coin type for an EVM chain: 0x80000000 | chainId. */
const evmCoinType = (chainId: string) => {
  const match = /^eip155:(\d{1,9})$/.exec(chainId)
  return match ? 0x80000000n | BigInt(match[1] ?? 0) : null
}

/**
 * Makes the gateway over the registry.
 *
 * @example
 * const gateway = createNameGateway({ registry, privateKey: config.nameGatewayKey })
 * const answer = await gateway.answer(resolverAddress, callData)
 */
export function createNameGateway(options: NameGatewayOptions): NameGateway {
  const { registry, privateKey } = options
  const now = options.now ?? Date.now

  async function result(data: Hex): Promise<Hex> {
    if ((data.length - 2) / 2 > GATEWAY_MAX_CALL_BYTES)
      throw refuse(`The call is longer than ${GATEWAY_MAX_CALL_BYTES} bytes`)
    if (data.slice(0, 10).toLowerCase() !== RESOLVE_SELECTOR)
      throw refuse('Only resolve(bytes,bytes) is answered')
    let name: Hex
    let inner: Hex
    try {
      ;[name, inner] = decodeFunctionData({ abi: resolveAbi, data }).args
    } catch {
      throw refuse('The call is not a valid resolve(bytes,bytes)')
    }
    const fullName = dnsDecode(hexToBytes(name))
    if (fullName === null) throw refuse('The name is not a DNS-encoded name')
    if (!RECORD_SELECTORS.has(inner.slice(0, 10).toLowerCase()))
      throw refuse('Only addr, text and name records are answered')
    let call: ReturnType<typeof decodeFunctionData<typeof recordAbi>>
    try {
      call = decodeFunctionData({ abi: recordAbi, data: inner })
    } catch {
      throw refuse('The record call is not valid')
    }
    if (call.args[0] !== namehash(fullName)) throw refuse("The record's node is not the name's")

    if (call.functionName === 'name') {
      const reversed = REVERSE_NAME.exec(fullName.toLowerCase())
      if (!reversed) throw refuse('name(bytes32) is answered for <address>.addr.reverse only')
      const [primary] = await registry.reverse(`0x${reversed[1]}`)
      return encodeAbiParameters([{ type: 'string' }], [primary ?? ''])
    }
    // The registry compares names case-blind; the node above is that of the name as sent.
    const record = await registry.resolve(fullName)
    if (call.functionName === 'text') {
      const avatar = call.args[1] === AVATAR_KEY ? (record?.avatar ?? '') : ''
      return encodeAbiParameters([{ type: 'string' }], [avatar])
    }
    const evm = record?.addresses.find((entry) => entry.chainId.startsWith('eip155:'))
    if (call.args.length === 1)
      return encodeAbiParameters(
        [{ type: 'address' }],
        [(evm?.address as Address | undefined) ?? zeroAddress],
      )
    const coinType = call.args[1]
    const matches = evm && (coinType === COIN_TYPE_ETH || coinType === evmCoinType(evm.chainId))
    return encodeAbiParameters([{ type: 'bytes' }], [matches ? (evm.address as Hex) : '0x'])
  }

  return {
    signer: privateKeyToAddress(privateKey),

    async answer(sender, data) {
      const answer = await result(data)
      const expires = BigInt(Math.floor(now() / 1000) + GATEWAY_ANSWER_TTL_SECONDS)
      const hash = keccak256(
        encodePacked(
          ['bytes2', 'address', 'uint64', 'bytes32', 'bytes32'],
          ['0x1900', sender, expires, keccak256(data), keccak256(answer)],
        ),
      )
      const signature = serializeSignature(await sign({ hash, privateKey }))
      return encodeAbiParameters(
        [{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }],
        [answer, expires, signature],
      )
    },
  }
}
