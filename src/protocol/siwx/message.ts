/**
 * Sign-in messages (SIWX, SPEC section 3): EIP-4361 text for `eip155` accounts and the same fields in the
 * CAIP-122 form for `solana` and `bip122` (Bitcoin) accounts. Shared by the modal, which builds the text the wallet signs, and
 * the service, which parses it back before checking the signature.
 */
import { ValidationError } from '../../errors/validation.ts'
import { decodeBase58 } from './base58.ts'
import { toChecksumAddress } from './checksum.ts'

/**
 * The chain name each supported namespace shows in the first line (`… with your Ethereum account:`):
 * EIP-4361 for `eip155`, the CAIP-122 profiles for `solana` and `bip122`.
 */
export const siwxChainNames = { eip155: 'Ethereum', solana: 'Solana', bip122: 'Bitcoin' } as const

/** The namespaces sign-in messages can be built for. */
export type SiwxNamespace = keyof typeof siwxChainNames

/**
 * The fields of a sign-in message (SPEC section 3). `chainId` is a CAIP-2 id (`eip155:1`,
 * `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`); the text carries its reference. `accountAddress` is the
 * plain address (`0x…` or base58). `issuedAt`, `expirationTime` and `notBefore` are RFC 3339 date-times.
 * `scheme` is EIP-4361's optional scheme in front of the domain (`https://example.com wants you…`).
 */
export interface SiwxMessageFields {
  domain: string
  accountAddress: string
  chainId: string
  uri: string
  version: string
  nonce: string
  statement?: string | undefined
  /** When the message was made; now when omitted. */
  issuedAt?: string | undefined
  expirationTime?: string | undefined
  notBefore?: string | undefined
  requestId?: string | undefined
  resources?: readonly string[] | undefined
  scheme?: string | undefined
}

/** A parsed sign-in message: every field of the text, and only those (absent fields have no key). */
export interface SiwxMessage {
  domain: string
  accountAddress: string
  chainId: `${SiwxNamespace}:${string}`
  uri: string
  version: '1'
  nonce: string
  issuedAt: string
  statement?: string
  expirationTime?: string
  notBefore?: string
  requestId?: string
  resources?: string[]
  scheme?: string
}

const schemePattern = /^[a-zA-Z][a-zA-Z0-9+.-]*$/
// RFC 3986 authority without userinfo: a reg-name, an IPv4 address or an [IPv6] literal, then a port.
const domainPattern = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::\d{1,5})?$/
// RFC 3986 URI: a scheme, `:`, then URI characters only.
const uriPattern = /^[a-zA-Z][a-zA-Z0-9+.-]*:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/
const badPercent = /%(?![0-9A-Fa-f]{2})/
const noncePattern = /^[A-Za-z0-9]{8,}$/
const requestIdPattern = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%]*$/
const dateTimePattern = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/
const eip155Reference = /^(?:0|[1-9]\d*)$/
const caip2Reference = /^[-_a-zA-Z0-9]{1,32}$/
const solanaAddress = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/
// A Bitcoin address by its shape: segwit (bech32/bech32m, one case, `bc1`/`tb1`/`bcrt1`) or base58check
// (P2PKH, P2SH). The service decodes it fully, for its network, before it checks a signature.
const bitcoinAddress = /^(?:(?:bc|tb|bcrt)1[02-9ac-hj-np-z]{8,87}|[13mn2][1-9A-HJ-NP-Za-km-z]{25,34})$/

function invalid(field: string, problem: string): ValidationError {
  return new ValidationError(`Invalid sign-in message: ${problem}`, { path: [field] })
}

function isUri(value: string): boolean {
  return uriPattern.test(value) && !badPercent.test(value)
}

/**
 * Whether a string is an RFC 3339 date-time, as EIP-4361 requires for `Issued At`, `Expiration Time` and
 * `Not Before`.
 *
 * @example
 * isSiwxDateTime('2021-09-30T16:25:24Z') // true
 * isSiwxDateTime('2021-09-30') // false
 */
export function isSiwxDateTime(value: string): boolean {
  return dateTimePattern.test(value) && !Number.isNaN(Date.parse(value))
}

/**
 * Splits a CAIP-2 id into the namespace of a sign-in message and the reference the text shows, or
 * throws a `ValidationError` (path `chainId`).
 *
 * @example
 * siwxChain('eip155:1') // { namespace: 'eip155', reference: '1' }
 */
export function siwxChain(chainId: string): { namespace: SiwxNamespace; reference: string } {
  const parts = chainId.split(':')
  const [namespace = '', reference = ''] = parts
  if (parts.length !== 2 || !(namespace in siwxChainNames)) {
    throw invalid(
      'chainId',
      `chainId must be a CAIP-2 id of eip155, solana or bip122, got ${JSON.stringify(chainId)}`,
    )
  }
  const pattern = namespace === 'eip155' ? eip155Reference : caip2Reference
  if (!pattern.test(reference)) {
    throw invalid('chainId', `chainId ${JSON.stringify(chainId)} has an invalid reference`)
  }
  return { namespace: namespace as SiwxNamespace, reference }
}

function checkAddress(namespace: SiwxNamespace, address: string, strict: boolean): string {
  if (namespace === 'eip155') {
    const checksummed = toChecksumAddress(address)
    if (checksummed === null) throw invalid('accountAddress', 'the address must be 0x and 40 hex characters')
    const body = address.slice(2)
    const oneCase = body === body.toLowerCase() || body === body.toUpperCase()
    // A mixed-case address with a wrong checksum is a typo; in a signed text only the checksum form is valid.
    if (checksummed !== address && (strict || !oneCase)) {
      throw invalid('accountAddress', 'the address is not in its EIP-55 checksum form')
    }
    return checksummed
  }
  if (namespace === 'bip122') {
    if (!bitcoinAddress.test(address))
      throw invalid('accountAddress', 'the address must be a Bitcoin address')
    return address
  }
  if (!solanaAddress.test(address) || decodeBase58(address)?.length !== 32) {
    throw invalid('accountAddress', 'the address must be a base58 Solana public key')
  }
  return address
}

function checkDateTime(field: string, value: string | undefined): void {
  if (value !== undefined && !isSiwxDateTime(value)) {
    throw invalid(field, `${field} must be an RFC 3339 date-time such as 2021-09-30T16:25:24Z`)
  }
}

/** Checks every field; returns the address to write (checksummed for eip155) and the chain reference. */
function checkFields(
  fields: SiwxMessageFields,
  strict: boolean,
): { address: string; namespace: SiwxNamespace; reference: string } {
  const { namespace, reference } = siwxChain(fields.chainId)
  const address = checkAddress(namespace, fields.accountAddress, strict)
  if (fields.scheme !== undefined && !schemePattern.test(fields.scheme)) {
    throw invalid('scheme', 'scheme must be an RFC 3986 scheme such as https')
  }
  if (!domainPattern.test(fields.domain)) {
    throw invalid('domain', 'domain must be an RFC 3986 authority such as example.com or localhost:5173')
  }
  if (fields.statement !== undefined && /[\r\n]/.test(fields.statement)) {
    throw invalid('statement', 'statement must be one line')
  }
  if (!isUri(fields.uri))
    throw invalid('uri', 'uri must be an RFC 3986 URI such as https://example.com/login')
  if (fields.version !== '1') throw invalid('version', 'version must be 1')
  if (!noncePattern.test(fields.nonce)) throw invalid('nonce', 'nonce must be at least 8 letters or digits')
  checkDateTime('issuedAt', fields.issuedAt)
  checkDateTime('expirationTime', fields.expirationTime)
  checkDateTime('notBefore', fields.notBefore)
  if (fields.requestId !== undefined && !requestIdPattern.test(fields.requestId)) {
    throw invalid('requestId', 'requestId must use URI path characters only')
  }
  for (const resource of fields.resources ?? []) {
    if (!isUri(resource)) throw invalid('resources', `resource ${JSON.stringify(resource)} is not a URI`)
  }
  return { address, namespace, reference }
}

/**
 * The text of a sign-in message: exactly EIP-4361 for `eip155` chains (the address in its EIP-55 form,
 * `Chain ID` the EIP-155 number), and the same layout in the CAIP-122 form for `solana` and `bip122` chains
 * (`… with your Solana account:`, `Chain ID` the CAIP-2 reference). Optional fields that are absent
 * (or an empty statement) are left out; `issuedAt` defaults to now. Throws a `ValidationError` whose
 * `path` names the bad field.
 *
 * @example
 * createSiwxMessage({
 *   domain: 'service.org',
 *   accountAddress: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
 *   statement: 'I accept the ServiceOrg Terms of Service: https://service.org/tos',
 *   uri: 'https://service.org/login',
 *   version: '1',
 *   chainId: 'eip155:1',
 *   nonce: '32891756',
 *   issuedAt: '2021-09-30T16:25:24Z',
 * })
 * // 'service.org wants you to sign in with your Ethereum account:\n0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2\n\nI accept…'
 */
export function createSiwxMessage(fields: SiwxMessageFields): string {
  const { address, namespace, reference } = checkFields(fields, false)
  const issuedAt = fields.issuedAt ?? new Date().toISOString()
  const origin = fields.scheme === undefined ? fields.domain : `${fields.scheme}://${fields.domain}`
  const lines = [
    `${origin} wants you to sign in with your ${siwxChainNames[namespace]} account:`,
    address,
    '',
    // ABNF: address LF LF [ statement LF ] LF "URI: ": one empty line more when there is a statement.
    ...(fields.statement ? [fields.statement, ''] : ['']),
    `URI: ${fields.uri}`,
    `Version: ${fields.version}`,
    `Chain ID: ${reference}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${issuedAt}`,
  ]
  if (fields.expirationTime !== undefined) lines.push(`Expiration Time: ${fields.expirationTime}`)
  if (fields.notBefore !== undefined) lines.push(`Not Before: ${fields.notBefore}`)
  if (fields.requestId !== undefined) lines.push(`Request ID: ${fields.requestId}`)
  if (fields.resources !== undefined) {
    lines.push('Resources:', ...fields.resources.map((resource) => `- ${resource}`))
  }
  return lines.join('\n')
}

const headerPattern =
  /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):\/\/)?(\S+) wants you to sign in with your (\S+) account:$/

const namespaceOfChainName = new Map<string, SiwxNamespace>(
  Object.entries(siwxChainNames).map(([namespace, name]) => [name, namespace as SiwxNamespace]),
)

/**
 * Reads a sign-in message back into its fields: the EIP-4361 ABNF for `Ethereum` messages and its
 * CAIP-122 form for `Solana` ones, strictly (lines in order, LF line ends, no trailing text, EVM addresses
 * in their checksum form). Throws a `ValidationError` whose `path` names the bad field.
 *
 * @example
 * parseSiwxMessage(text)
 * // { domain: 'service.org', accountAddress: '0xC02a…', chainId: 'eip155:1', uri: …, version: '1', nonce: '32891756', issuedAt: … }
 */
export function parseSiwxMessage(text: string): SiwxMessage {
  if (text.includes('\r')) throw invalid('message', 'lines must end with LF alone, not CR LF')
  const lines = text.split('\n')
  let index = 0
  const next = () => lines[index++]

  const header = headerPattern.exec(next() ?? '')
  if (!header)
    throw invalid('domain', 'the first line must be "<domain> wants you to sign in with your … account:"')
  const [, scheme, domain = '', chainName = ''] = header
  const namespace = namespaceOfChainName.get(chainName)
  if (namespace === undefined)
    throw invalid('chainId', `sign-in with a ${chainName} account is not supported`)
  const accountAddress = next() ?? ''
  if (next() !== '') throw invalid('accountAddress', 'the address must be followed by an empty line')
  let statement: string | undefined
  if (lines[index] !== '') {
    statement = next()
    if (next() !== '') throw invalid('statement', 'the statement must be followed by an empty line')
  } else {
    index++
  }

  const tagged = (tag: string, field: string): string => {
    const line = next()
    if (line === undefined || !line.startsWith(`${tag}: `)) throw invalid(field, `expected a "${tag}: " line`)
    return line.slice(tag.length + 2)
  }
  const optional = (tag: string): string | undefined => {
    const line = lines[index]
    if (line === undefined || !line.startsWith(`${tag}: `)) return undefined
    index++
    return line.slice(tag.length + 2)
  }

  const uri = tagged('URI', 'uri')
  const version = tagged('Version', 'version')
  const reference = tagged('Chain ID', 'chainId')
  const nonce = tagged('Nonce', 'nonce')
  const issuedAt = tagged('Issued At', 'issuedAt')
  const expirationTime = optional('Expiration Time')
  const notBefore = optional('Not Before')
  const requestId = optional('Request ID')
  let resources: string[] | undefined
  if (lines[index] === 'Resources:') {
    index++
    resources = []
    while (index < lines.length) {
      const line = lines[index++] ?? ''
      if (!line.startsWith('- ')) throw invalid('resources', 'each resource must be a "- <URI>" line')
      resources.push(line.slice(2))
    }
  }
  if (index < lines.length) throw invalid('message', `unexpected text on line ${index + 1}`)

  const message: SiwxMessage = {
    domain,
    accountAddress,
    chainId: `${namespace}:${reference}`,
    uri,
    version: version as '1',
    nonce,
    issuedAt,
    ...(statement === undefined ? {} : { statement }),
    ...(expirationTime === undefined ? {} : { expirationTime }),
    ...(notBefore === undefined ? {} : { notBefore }),
    ...(requestId === undefined ? {} : { requestId }),
    ...(resources === undefined ? {} : { resources }),
    ...(scheme === undefined ? {} : { scheme }),
  }
  checkFields(message, true)
  return message
}
