/**
 * The preview of an EVM call's data, decoded from the bytes that will be sent: ERC-20 `approve`,
 * `transfer`, `transferFrom` and `permit`; ERC-721 and ERC-1155 `setApprovalForAll`, `transferFrom`,
 * `safeTransferFrom` and `safeBatchTransferFrom`. The token's symbol and decimals are read from the
 * contract on the chain; `approve` and `transferFrom` share their selector between ERC-20 and ERC-721,
 * so they are read as ERC-721 only when the contract has no `decimals()` and says it is ERC-721
 * (ERC-165), else as ERC-20 (amounts, unlimited approvals named as such). Data that is
 * none of these is left undecoded, and the frame warns of it.
 */
import {
  type Address,
  decodeAbiParameters,
  decodeFunctionData,
  getAddress,
  type Hex,
  hexToString,
  parseAbi,
} from 'viem'
import type { PreviewAction } from '../index.ts'

/** Approvals of this much or more are shown as unlimited (max uint256 and its usual stand-ins). */
export const UNLIMITED_EVM = 2n ** 255n

const tokenAbi = parseAbi([
  'function approve(address spender, uint256 value)',
  'function transfer(address to, uint256 value)',
  'function transferFrom(address from, address to, uint256 value)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function setApprovalForAll(address operator, bool approved)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
  'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] values, bytes data)',
])

/** What the service knows of a token contract (read on the chain). */
export interface TokenInfo {
  symbol?: string
  decimals?: number
}

/** Reads a contract; answers the return data, or undefined when the call fails. */
export type ContractReader = (to: Address, data: Hex) => Promise<Hex | undefined>

const DECIMALS = '0x313ce567'
/** `supportsInterface(0x80ac58cd)`: ERC-165's question "are you ERC-721?". */
const IS_ERC721 = `0x01ffc9a780ac58cd${'0'.repeat(56)}` as Hex
const SYMBOL = '0x95d89b41'

/** A symbol as text: printable, short; anything else is dropped. */
function cleanSymbol(text: string): string | undefined {
  const trimmed = text.replace(/\0+$/, '').trim()
  return /^[\p{L}\p{N} .$_+-]{1,16}$/u.test(trimmed) ? trimmed : undefined
}

/**
 * The symbol and decimals a contract answers (ERC-20's optional metadata); `{}` when it answers neither.
 *
 * @example
 * await readTokenInfo(read, usdc) // { symbol: 'USDC', decimals: 6 }
 */
export async function readTokenInfo(read: ContractReader, token: Address): Promise<TokenInfo> {
  const [decimalsData, symbolData] = await Promise.all([read(token, DECIMALS), read(token, SYMBOL)])
  const info: TokenInfo = {}
  if (decimalsData && decimalsData.length === 66) {
    const decimals = BigInt(decimalsData)
    if (decimals <= 36n) info.decimals = Number(decimals)
  }
  let symbol: string | undefined
  if (symbolData && symbolData.length > 2) {
    try {
      symbol = cleanSymbol(decodeAbiParameters([{ type: 'string' }], symbolData)[0])
    } catch {
      // Old tokens answer bytes32.
      if (symbolData.length === 66) symbol = cleanSymbol(hexToString(symbolData))
    }
  }
  if (symbol !== undefined) info.symbol = symbol
  return info
}

/**
 * Whether a contract that answers no `decimals()` says it is ERC-721; `approve` and `transferFrom`
 * are read as ERC-20 unless it does (an unlimited ERC-20 approval is never shown as a token id).
 */
export async function isErc721(read: ContractReader, token: Address): Promise<boolean> {
  const answer = await read(token, IS_ERC721)
  return answer !== undefined && answer.length === 66 && BigInt(answer) === 1n
}

type Field = PreviewAction['fields'][number]
const address = (label: Field['label'], value: string): Field => ({ label, address: getAddress(value) })
const amount = (label: Field['label'], value: bigint, unlimitedAt?: bigint): Field =>
  unlimitedAt !== undefined && value >= unlimitedAt
    ? { label, amount: value.toString(), unlimited: true }
    : { label, amount: value.toString() }
const text = (label: Field['label'], value: string): Field => ({ label, text: value })

/**
 * The decoded action of a call to `to` with `data`, or undefined when the data is not a call this
 * wallet decodes.
 *
 * @example
 * await decodeEvmCall(read, usdc, '0x095ea7b3…') // { standard: 'ERC-20', name: 'approve', … }
 */
export async function decodeEvmCall(
  read: ContractReader,
  to: string | null | undefined,
  data: string | undefined,
): Promise<PreviewAction | undefined> {
  if (!to || !data || data.length < 10) return undefined
  let decoded: ReturnType<typeof decodeFunctionData<typeof tokenAbi>>
  try {
    decoded = decodeFunctionData({ abi: tokenAbi, data: data as Hex })
  } catch {
    return undefined
  }
  const contract = getAddress(to)
  const action = (
    standard: string,
    fields: Field[],
    token: TokenInfo = {},
    warnings: PreviewAction['warnings'] = [],
  ): PreviewAction => ({
    standard,
    name: decoded.functionName,
    contract,
    ...(Object.keys(token).length ? { token } : {}),
    fields,
    warnings: fields.some((field) => field.unlimited) ? ['unlimitedApproval', ...warnings] : warnings,
  })
  switch (decoded.functionName) {
    case 'approve': {
      const [spender, value] = decoded.args
      const token = await readTokenInfo(read, contract)
      if (token.decimals === undefined && (await isErc721(read, contract)))
        return action('ERC-721', [address('spender', spender), text('tokenId', value.toString())], token)
      return action('ERC-20', [address('spender', spender), amount('amount', value, UNLIMITED_EVM)], token)
    }
    case 'transfer': {
      const [receiver, value] = decoded.args
      const token = await readTokenInfo(read, contract)
      return action('ERC-20', [address('to', receiver), amount('amount', value)], token)
    }
    case 'transferFrom': {
      const [from, receiver, value] = decoded.args
      const token = await readTokenInfo(read, contract)
      if (token.decimals === undefined && (await isErc721(read, contract)))
        return action(
          'ERC-721',
          [address('from', from), address('to', receiver), text('tokenId', value.toString())],
          token,
        )
      return action(
        'ERC-20',
        [address('from', from), address('to', receiver), amount('amount', value)],
        token,
      )
    }
    case 'permit': {
      const [owner, spender, value, deadline] = decoded.args
      const token = await readTokenInfo(read, contract)
      return action(
        'ERC-20',
        [
          address('owner', owner),
          address('spender', spender),
          amount('amount', value, UNLIMITED_EVM),
          text('deadline', deadline.toString()),
        ],
        token,
      )
    }
    case 'setApprovalForAll': {
      const [operator, approved] = decoded.args
      return action(
        'ERC-721 / ERC-1155',
        [address('operator', operator), text('allowed', approved ? 'yes' : 'no')],
        {},
        approved ? ['approvalForAll'] : [],
      )
    }
    case 'safeTransferFrom': {
      const [from, receiver, id] = decoded.args
      if (decoded.args.length === 5)
        return action('ERC-1155', [
          address('from', from),
          address('to', receiver),
          text('tokenId', id.toString()),
          amount('amount', decoded.args[3]),
        ])
      return action('ERC-721', [
        address('from', from),
        address('to', receiver),
        text('tokenId', id.toString()),
      ])
    }
    case 'safeBatchTransferFrom': {
      const [from, receiver, ids, values] = decoded.args
      return action('ERC-1155', [
        address('from', from),
        address('to', receiver),
        ...ids.flatMap((id, index) => [
          text('tokenId', id.toString()),
          amount('amount', values[index] ?? 0n),
        ]),
      ])
    }
  }
}
