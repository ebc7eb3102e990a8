/**
 * Approvals named wherever they hide: every call or typed-data signature that gives an address rights
 * over the person's assets (ERC-20 `approve` and `increaseAllowance`, EIP-2612 and DAI `permit`, Permit2's
 * `approve`, `permit` and its signed permits, ERC-721 `approve`, ERC-721 / ERC-1155 `setApprovalForAll`),
 * read from the bytes that are signed, inside the wrappers drainers use to hide them: a token's own
 * `multicall`, Multicall3's `aggregate*`, and the smart account's `execute` / `executeBatch`.
 *
 * Pure and synchronous: the frame's preview builder calls it and adds what only the chain knows (the
 * token's symbol and decimals). `approve(address,uint256)` has one selector for ERC-20 and ERC-721, so it
 * is named `ERC-20 / ERC-721` with its `amount`; the builder reads it as a token id when the token has no
 * `decimals()` and says it is ERC-721.
 */
import {
  type Address,
  decodeFunctionData,
  getAddress,
  type Hex,
  isAddress,
  isAddressEqual,
  parseAbi,
} from 'viem'

/** Permit2's address on every chain (Uniswap's deployment through the deterministic deployer). */
export const PERMIT2_ADDRESS: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
/** Wrappers opened inside one another at most; a call nested deeper is left unread (the preview warns). */
export const APPROVAL_MAX_DEPTH = 4
/**
 * Calls read in one request at most, wrappers included: ABI offsets may point many entries at the same
 * bytes, so a small calldata could otherwise unfold into millions of calls. Past it the rest is unread.
 */
export const APPROVAL_MAX_CALLS = 256
/** A uint256 amount of this much or more is unlimited (max uint256 and its usual stand-ins). */
export const UNLIMITED_AMOUNT = 2n ** 255n
/** A Permit2 allowance (uint160) of this much or more is unlimited (max uint160 and its stand-ins). */
export const UNLIMITED_PERMIT2_AMOUNT = 2n ** 159n
/** The last second of year 9999: a time past it (max uint48, max uint256) never comes. */
const NEVER = 253_402_300_799n

/**
 * One approval: who gets rights (`spender`) over which asset (`token`), how much, until when, and the
 * wrappers it was found in.
 *
 * @example
 * { standard: 'ERC-20 / ERC-721', name: 'approve', token: usdc, spender: drainer,
 *   amount: 2n ** 256n - 1n, unlimited: true, via: ['multicall'] }
 */
export interface NamedApproval {
  /**
   * `ERC-20 / ERC-721` (`approve`: one selector for both), `ERC-20` (`increaseAllowance`), `EIP-2612`,
   * `DAI permit`, `Permit2` or `ERC-721 / ERC-1155` (`setApprovalForAll`).
   */
  standard: string
  /** The function (`approve`, `permit`, …) or the typed data's primary type (`PermitSingle`, …). */
  name: string
  /** The asset's contract (for Permit2, the token inside, never Permit2). */
  token: Address
  /** Who gets the rights (the operator of `setApprovalForAll`). */
  spender: Address
  /** Whose assets, where the call or the message names them (a permit's owner or holder). */
  owner?: Address
  /** Base units (for `approve`, a token id when the token is ERC-721); absent for `setApprovalForAll`. */
  amount?: bigint
  /** `amount` is `UNLIMITED_AMOUNT` or more (`UNLIMITED_PERMIT2_AMOUNT` for Permit2 allowances). */
  unlimited?: true
  /** `increaseAllowance`: `amount` is added to what the spender may already take. */
  increase?: true
  /** `setApprovalForAll(operator, true)`: every token of the collection, now and later. */
  all?: true
  /** Unix seconds: when the rights end (a Permit2 allowance's expiration, a signed transfer's deadline). */
  expiration?: number
  /** Unix seconds: until when the signature can be used (a permit's deadline, Permit2's `sigDeadline`). */
  deadline?: number
  /** Permit2 only: whether the contract called (or the typed data's `verifyingContract`) is `PERMIT2_ADDRESS`. */
  canonicalPermit2?: boolean
  /** The wrappers it was found in, outermost first: `['executeBatch', 'multicall']`. */
  via: string[]
}

/** A call this module did not read, with the wrappers it was found in (outermost first). */
export interface UnreadCall {
  to: Address
  data: Hex
  via: string[]
}

/**
 * What a call gives away: every approval in it, and the calls (at any depth) that are neither an
 * approval nor a wrapper read here, or whose data is malformed or nested too deep. The preview decodes
 * those otherwise (a `transfer`) or keeps its warning that the call could not be read.
 */
export interface CallApprovals {
  approvals: NamedApproval[]
  unread: UnreadCall[]
}

const abi = parseAbi([
  // ERC-20, ERC-721, ERC-1155
  'function approve(address spender, uint256 amount)',
  'function increaseAllowance(address spender, uint256 addedValue)',
  'function setApprovalForAll(address operator, bool approved)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function permit(address holder, address spender, uint256 nonce, uint256 expiry, bool allowed, uint8 v, bytes32 r, bytes32 s)',
  // Permit2 (AllowanceTransfer)
  'struct PermitDetails { address token; uint160 amount; uint48 expiration; uint48 nonce; }',
  'struct PermitSingle { PermitDetails details; address spender; uint256 sigDeadline; }',
  'struct PermitBatch { PermitDetails[] details; address spender; uint256 sigDeadline; }',
  'function approve(address token, address spender, uint160 amount, uint48 expiration)',
  'function permit(address owner, PermitSingle permitSingle, bytes signature)',
  'function permit(address owner, PermitBatch permitBatch, bytes signature)',
  // Wrappers: a contract's own multicall (its calls go to itself), Multicall3, WalletAccount
  'function multicall(bytes[] data)',
  'function multicall(uint256 deadline, bytes[] data)',
  'struct Call { address target; bytes callData; }',
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Call3Value { address target; bool allowFailure; uint256 value; bytes callData; }',
  'function aggregate(Call[] calls)',
  'function tryAggregate(bool requireSuccess, Call[] calls)',
  'function blockAndAggregate(Call[] calls)',
  'function tryBlockAndAggregate(bool requireSuccess, Call[] calls)',
  'function aggregate3(Call3[] calls)',
  'function aggregate3Value(Call3Value[] calls)',
  'struct Execution { address target; uint256 value; bytes data; }',
  'function execute(address target, uint256 value, bytes data)',
  'function executeBatch(Execution[] calls)',
])

const unlimited = (amount: bigint, at: bigint): { unlimited?: true } =>
  amount >= at ? { unlimited: true } : {}

/** Unix seconds as a number, or nothing for a time that never comes. */
const seconds = (value: bigint): number | undefined => (value > NEVER ? undefined : Number(value))
const at = <K extends 'expiration' | 'deadline'>(key: K, value: bigint) => {
  const time = seconds(value)
  return (time === undefined ? {} : { [key]: time }) as { [P in K]?: number }
}

/** DAI's permit: an expiry of 0 never lapses. */
const daiExpiry = (expiry: bigint) => (expiry === 0n ? {} : at('deadline', expiry))

const isPermit2 = (contract: Address) => isAddressEqual(contract, PERMIT2_ADDRESS)

/** One Permit2 allowance (`PermitDetails`) as an approval. */
function permit2Allowance(
  name: string,
  details: { token: Address; amount: bigint; expiration: bigint },
  spender: Address,
  rest: Partial<NamedApproval> & { via: string[]; canonicalPermit2: boolean },
): NamedApproval {
  return {
    standard: 'Permit2',
    name,
    token: details.token,
    spender,
    amount: details.amount,
    ...unlimited(details.amount, UNLIMITED_PERMIT2_AMOUNT),
    ...at('expiration', details.expiration),
    ...rest,
  }
}

/** Reads one call into `out`, opening wrappers up to `APPROVAL_MAX_DEPTH` deep. */
function read(
  call: { to: Address; data: Hex },
  via: string[],
  out: CallApprovals,
  budget: { calls: number },
) {
  const unread = () => {
    out.unread.push({ to: call.to, data: call.data, via })
  }
  budget.calls -= 1
  let decoded: ReturnType<typeof decodeFunctionData<typeof abi>>
  try {
    decoded = decodeFunctionData({ abi, data: call.data })
  } catch {
    return unread()
  }
  const { to } = call
  const approval = (found: Omit<NamedApproval, 'via'>) => {
    out.approvals.push({ ...found, via })
  }
  const open = (inner: readonly { to: Address; data: Hex }[]) => {
    if (via.length >= APPROVAL_MAX_DEPTH) return unread()
    const path = [...via, decoded.functionName]
    for (const next of inner) {
      if (next.data === '0x') continue
      // Out of budget: the rest of this wrapper is unread, once.
      if (budget.calls <= 0) return unread()
      read(next, path, out, budget)
    }
  }
  switch (decoded.functionName) {
    case 'approve': {
      if (decoded.args.length === 2) {
        const [spender, amount] = decoded.args
        return approval({
          standard: 'ERC-20 / ERC-721',
          name: 'approve',
          token: to,
          spender,
          amount,
          ...unlimited(amount, UNLIMITED_AMOUNT),
        })
      }
      const [token, spender, amount, expiration] = decoded.args
      return approval(
        permit2Allowance('approve', { token, amount, expiration: BigInt(expiration) }, spender, {
          canonicalPermit2: isPermit2(to),
          via,
        }),
      )
    }
    case 'increaseAllowance': {
      const [spender, amount] = decoded.args
      return approval({
        standard: 'ERC-20',
        name: 'increaseAllowance',
        token: to,
        spender,
        amount,
        ...unlimited(amount, UNLIMITED_AMOUNT),
        increase: true,
      })
    }
    case 'setApprovalForAll': {
      const [spender, approved] = decoded.args
      // `false` takes the rights back: nothing is given.
      if (approved)
        approval({ standard: 'ERC-721 / ERC-1155', name: 'setApprovalForAll', token: to, spender, all: true })
      return
    }
    case 'permit': {
      const { args } = decoded
      if (args.length === 7) {
        const [owner, spender, amount, deadline] = args
        return approval({
          standard: 'EIP-2612',
          name: 'permit',
          token: to,
          spender,
          owner,
          amount,
          ...unlimited(amount, UNLIMITED_AMOUNT),
          ...at('deadline', deadline),
        })
      }
      if (args.length === 8) {
        const [owner, spender, , expiry, allowed] = args
        // DAI's permit allows everything (max uint256) or takes it back.
        if (allowed)
          approval({
            standard: 'DAI permit',
            name: 'permit',
            token: to,
            spender,
            owner,
            amount: 2n ** 256n - 1n,
            unlimited: true,
            ...daiExpiry(expiry),
          })
        return
      }
      const [owner, permit] = args
      const rest = { owner, canonicalPermit2: isPermit2(to), via, ...at('deadline', permit.sigDeadline) }
      const details = 'token' in permit.details ? [permit.details] : permit.details
      for (const detail of details)
        out.approvals.push(
          permit2Allowance(
            'permit',
            { ...detail, expiration: BigInt(detail.expiration) },
            permit.spender,
            rest,
          ),
        )
      return
    }
    case 'multicall': {
      const inner = decoded.args.length === 1 ? decoded.args[0] : decoded.args[1]
      return open(inner.map((data) => ({ to, data })))
    }
    case 'aggregate':
    case 'blockAndAggregate':
    case 'aggregate3':
    case 'aggregate3Value':
      return open(decoded.args[0].map((inner) => ({ to: inner.target, data: inner.callData })))
    case 'tryAggregate':
    case 'tryBlockAndAggregate':
      return open(decoded.args[1].map((inner) => ({ to: inner.target, data: inner.callData })))
    case 'execute': {
      const [target, , data] = decoded.args
      return open([{ to: target, data }])
    }
    case 'executeBatch':
      return open(decoded.args[0].map((inner) => ({ to: inner.target, data: inner.data })))
  }
}

/**
 * The approvals a call gives, read from its data (and from every call of the wrappers it opens), and
 * the calls it could not read. A call without data gives nothing and is read. For `wallet_sendCalls`,
 * read each call; for a UserOperation, its `callData` sent to its `sender`.
 *
 * @example
 * approvalsInCall({ to: usdc, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [drainer, maxUint256] }) })
 * // { approvals: [{ standard: 'ERC-20 / ERC-721', name: 'approve', token: usdc, spender: drainer, amount: maxUint256, unlimited: true, via: [] }], unread: [] }
 */
export function approvalsInCall(call: { to: Address; data?: Hex | undefined }): CallApprovals {
  const out: CallApprovals = { approvals: [], unread: [] }
  if (!call.data || call.data === '0x') return out
  read({ to: call.to, data: call.data }, [], out, { calls: APPROVAL_MAX_CALLS })
  return out
}

/** EIP-712 typed data as it is signed (viem's `TypedDataDefinition`, loosely typed). */
export interface TypedDataApprovalInput {
  domain?: Record<string, unknown> | undefined
  types: Record<string, readonly { name: string; type: string }[]>
  primaryType: string
  message: Record<string, unknown>
}

/**
 * The approvals a typed-data signature gives: EIP-2612 `Permit` (and DAI's `allowed` form), Permit2's
 * `PermitSingle`, `PermitBatch`, `PermitTransferFrom`, `PermitBatchTransferFrom` and their witness forms.
 * Read by the primary type's name and only when its declared fields have the types those contracts hash
 * (a signature of another shape would not verify there); anything else gives `[]`, and so does a
 * permit whose domain names no `verifyingContract` (no token verifies it).
 *
 * @example
 * approvalsInTypedData({ domain: { verifyingContract: usdc }, types, primaryType: 'Permit', message })
 * // [{ standard: 'EIP-2612', name: 'Permit', token: usdc, spender, owner, amount, deadline, via: [] }]
 */
export function approvalsInTypedData(typedData: TypedDataApprovalInput): NamedApproval[] {
  try {
    return typedApprovals(typedData)
  } catch {
    return []
  }
}

/** A message's value as the uint viem encodes (bigint, safe number, decimal or hex string); throws otherwise. */
function uint(value: unknown): bigint {
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value))) {
    if (value < 0) throw new Error('negative')
    return BigInt(value)
  }
  if (typeof value === 'string' && /^(?:\d+|0x[0-9a-fA-F]+)$/.test(value)) return BigInt(value)
  throw new Error('not a uint')
}

function address(value: unknown): Address {
  if (typeof value !== 'string' || !isAddress(value, { strict: false })) throw new Error('not an address')
  return getAddress(value)
}

function record(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a struct')
  return value as Record<string, unknown>
}

function list(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new Error('not an array')
  return value
}

function typedApprovals({ domain, types, primaryType, message }: TypedDataApprovalInput): NamedApproval[] {
  /** Whether `struct` declares each field with exactly that type. */
  const declares = (struct: string, fields: Record<string, string>) =>
    Object.entries(fields).every(([name, type]) =>
      types[struct]?.some((field) => field.name === name && field.type === type),
    )
  const contract =
    typeof domain?.verifyingContract === 'string' && isAddress(domain.verifyingContract, { strict: false })
      ? getAddress(domain.verifyingContract)
      : undefined
  const via: string[] = []
  const permit2 = { canonicalPermit2: contract !== undefined && isPermit2(contract), via }

  if (primaryType === 'Permit') {
    if (!contract) return []
    if (
      declares('Permit', {
        owner: 'address',
        spender: 'address',
        value: 'uint256',
        nonce: 'uint256',
        deadline: 'uint256',
      })
    ) {
      const amount = uint(message.value)
      return [
        {
          standard: 'EIP-2612',
          name: 'Permit',
          token: contract,
          spender: address(message.spender),
          owner: address(message.owner),
          amount,
          ...unlimited(amount, UNLIMITED_AMOUNT),
          ...at('deadline', uint(message.deadline)),
          via,
        },
      ]
    }
    if (
      declares('Permit', {
        holder: 'address',
        spender: 'address',
        nonce: 'uint256',
        expiry: 'uint256',
        allowed: 'bool',
      })
    ) {
      if (message.allowed !== true) return []
      return [
        {
          standard: 'DAI permit',
          name: 'Permit',
          token: contract,
          spender: address(message.spender),
          owner: address(message.holder),
          amount: 2n ** 256n - 1n,
          unlimited: true,
          ...daiExpiry(uint(message.expiry)),
          via,
        },
      ]
    }
    return []
  }

  const details = { token: 'address', amount: 'uint160', expiration: 'uint48', nonce: 'uint48' }
  const allowance = (detail: unknown) => {
    const fields = record(detail)
    return { token: address(fields.token), amount: uint(fields.amount), expiration: uint(fields.expiration) }
  }
  if (primaryType === 'PermitSingle' || primaryType === 'PermitBatch') {
    const single = primaryType === 'PermitSingle'
    if (
      !declares(primaryType, {
        details: single ? 'PermitDetails' : 'PermitDetails[]',
        spender: 'address',
        sigDeadline: 'uint256',
      }) ||
      !declares('PermitDetails', details)
    )
      return []
    const spender = address(message.spender)
    const rest = { ...permit2, ...at('deadline', uint(message.sigDeadline)) }
    const entries = single ? [message.details] : list(message.details)
    return entries.map((detail) => permit2Allowance(primaryType, allowance(detail), spender, rest))
  }

  // Signature transfers: the spender may move up to each amount once, until the deadline.
  const single = primaryType === 'PermitTransferFrom' || primaryType === 'PermitWitnessTransferFrom'
  const batch = primaryType === 'PermitBatchTransferFrom' || primaryType === 'PermitBatchWitnessTransferFrom'
  if (!single && !batch) return []
  if (
    !declares(primaryType, {
      permitted: single ? 'TokenPermissions' : 'TokenPermissions[]',
      spender: 'address',
      nonce: 'uint256',
      deadline: 'uint256',
    }) ||
    !declares('TokenPermissions', { token: 'address', amount: 'uint256' })
  )
    return []
  const spender = address(message.spender)
  const expiration = at('expiration', uint(message.deadline))
  const entries = single ? [message.permitted] : list(message.permitted)
  return entries.map((entry) => {
    const permitted = record(entry)
    const amount = uint(permitted.amount)
    return {
      standard: 'Permit2',
      name: primaryType,
      token: address(permitted.token),
      spender,
      amount,
      ...unlimited(amount, UNLIMITED_AMOUNT),
      ...expiration,
      ...permit2,
    }
  })
}
