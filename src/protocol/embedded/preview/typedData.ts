/**
 * The preview of EIP-712 typed data, built from what viem signs (by the frame from what it signs, and
 * by the service to check a request before storing it): the domain's standard fields and the primary
 * type's struct walked in its declared order, recursively. A key the types do not declare is
 * refused (it would be shown and not signed), as is typed data too long to show in full, and any domain
 * the person's own keys sign for their accounts (the EntryPoint's, the WalletAccount's, the person's
 * smart account): typed data there would sign a UserOperation or an account's message past every check.
 */
import { type Address, getAddress, isAddress } from 'viem'
import { isReservedDomain, reservedDomainMessage } from '../signingRules.ts'

/** Rows of a typed-data preview at most: past this the request is refused, never cut. */
export const TYPED_DATA_MAX_ROWS = 200
/** Nesting of structs and arrays at most. */
const MAX_DEPTH = 8

/** The domain fields viem signs, in the order it hashes them (EIP-712's `EIP712Domain`). */
const domainFields = ['name', 'version', 'chainId', 'verifyingContract', 'salt'] as const

export interface TypedDataInput {
  domain?: Record<string, unknown> | undefined
  types: Record<string, readonly { name: string; type: string }[]>
  primaryType: string
  message: Record<string, unknown>
}

export interface TypedDataRows {
  domain: { name: string; value: string }[]
  primaryType: string
  fields: { name: string; value: string }[]
}

/**
 * Typed data that cannot be shown whole, or whose domain is one the person's own keys sign for their
 * accounts (`reserved`): the service answers it as its error, the frame refuses to sign it.
 */
export class TypedDataRefusedError extends Error {
  override name = 'TypedDataRefusedError'
  readonly reserved: boolean
  constructor(message: string, reserved = false) {
    super(message)
    this.reserved = reserved
  }
}

const refused = (message: string) => new TypedDataRefusedError(message)

export { reservedDomainMessage }

/**
 * Refuses a domain the owner key must never sign for a page (`isReservedDomain` of the signing rules,
 * which the signer checks again where the key signs).
 *
 * @example
 * refuseReservedDomain(typed.domain, [smartAccountAddress])
 */
export function refuseReservedDomain(
  domain: Record<string, unknown> | undefined,
  ownAccounts: readonly Address[],
): void {
  if (isReservedDomain(domain, ownAccounts)) throw new TypedDataRefusedError(reservedDomainMessage, true)
}

const integer = /^u?int(\d{0,3})$/
const fixedBytes = /^bytes([1-9]|[12]\d|3[0-2])$/

/** A field's value as text, checked against its atomic type (what viem encodes). */
function atomicText(type: string, value: unknown, path: string): string {
  const bad = () => refused(`The typed data's ${path} is not a valid ${type}`)
  if (type === 'address') {
    if (typeof value !== 'string' || !isAddress(value, { strict: false })) throw bad()
    return getAddress(value)
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw bad()
    return String(value)
  }
  if (type === 'string') {
    if (typeof value !== 'string') throw bad()
    return value
  }
  if (type === 'bytes' || fixedBytes.test(type)) {
    if (typeof value !== 'string' || !/^0x(?:[0-9a-fA-F]{2})*$/.test(value)) throw bad()
    return value.toLowerCase()
  }
  if (integer.test(type)) {
    if (typeof value !== 'string' && typeof value !== 'number') throw bad()
    if (typeof value === 'number' && !Number.isSafeInteger(value)) throw bad()
    try {
      return BigInt(value).toString()
    } catch {
      throw bad()
    }
  }
  throw refused(`The typed data uses the undeclared type ${type}`)
}

/**
 * The rows of typed data as it will be signed, or a refusal. `ownAccounts` are the person's smart
 * accounts (their domains are refused).
 *
 * @example
 * const { domain, primaryType, fields } = typedDataRows(typed, { chainId: 1, ownAccounts: [] })
 */
export function typedDataRows(
  typed: TypedDataInput,
  { chainId, ownAccounts }: { chainId: number; ownAccounts: readonly Address[] },
): TypedDataRows {
  const { EIP712Domain: declaredDomain, ...types } = typed.types
  const domain = typed.domain ?? {}
  refuseReservedDomain(domain, ownAccounts)

  // The domain: only its standard fields are signed; any other key would be shown and not signed.
  const extra = Object.keys(domain).filter((key) => !(domainFields as readonly string[]).includes(key))
  if (extra.length)
    throw refused(`The typed data's domain has fields that are not signed: ${extra.join(', ')}`)
  const present = domainFields.filter((key) => domain[key] !== undefined)
  if (declaredDomain) {
    const declared = declaredDomain.map((field) => field.name)
    if (declared.length !== present.length || declared.some((name) => !present.includes(name as never)))
      throw refused("The typed data's EIP712Domain does not match its domain")
  }
  if (domain.chainId !== undefined && Number(domain.chainId) !== chainId)
    throw refused(`The typed data is for chain ${String(domain.chainId)}, not the wallet's network`)
  const domainTypes = {
    name: 'string',
    version: 'string',
    chainId: 'uint256',
    verifyingContract: 'address',
    salt: 'bytes32',
  } as const
  const domainRows = present.map((key) => ({
    name: key,
    value: atomicText(domainTypes[key], domain[key], `domain.${key}`),
  }))

  if (!types[typed.primaryType]) throw refused(`The typed data does not declare ${typed.primaryType}`)
  const fields: { name: string; value: string }[] = []
  const push = (name: string, value: string) => {
    if (domainRows.length + fields.length >= TYPED_DATA_MAX_ROWS)
      throw refused(
        `The typed data has more than ${TYPED_DATA_MAX_ROWS} fields: too long to show in full, so it is not signed`,
      )
    fields.push({ name, value })
  }

  const walk = (type: string, value: unknown, path: string, depth: number): void => {
    if (depth > MAX_DEPTH) throw refused('The typed data is nested too deeply to show')
    const array = /^(.*)\[(\d*)\]$/.exec(type)
    if (array) {
      const [, inner = '', length] = array
      if (!Array.isArray(value)) throw refused(`The typed data's ${path} is not an array`)
      if (length !== '' && value.length !== Number(length))
        throw refused(`The typed data's ${path} does not have ${length} items`)
      if (value.length === 0) push(path, '[]')
      for (const [index, item] of value.entries()) walk(inner, item, `${path}[${index}]`, depth + 1)
      return
    }
    const struct = types[type]
    if (!struct) {
      push(path, atomicText(type, value, path))
      return
    }
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw refused(`The typed data's ${path || 'message'} is not a ${type}`)
    const record = value as Record<string, unknown>
    const declared = new Set(struct.map((field) => field.name))
    const undeclared = Object.keys(record).filter((key) => !declared.has(key))
    if (undeclared.length)
      throw refused(
        `The typed data's ${path || 'message'} has fields ${type} does not declare: ${undeclared.slice(0, 5).join(', ')}${undeclared.length > 5 ? ', …' : ''}`,
      )
    for (const field of struct) {
      const child = path ? `${path}.${field.name}` : field.name
      if (!(field.name in record)) throw refused(`The typed data's ${child} is missing`)
      walk(field.type, record[field.name], child, depth + 1)
    }
  }
  walk(typed.primaryType, typed.message, '', 0)
  return { domain: domainRows, primaryType: typed.primaryType, fields }
}
