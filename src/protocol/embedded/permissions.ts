/**
 * ERC-7715 permission requests as the embedded wallet serves them: the shapes it
 * accepts (`wallet_grantPermissions` and the draft's newer `wallet_requestExecutionPermissions`), the
 * grant they ask for in one normal form, the WalletAccount session policy that grant becomes, and the
 * answers. The service builds the grant's UserOperation from this and the frame checks what it signs
 * against the same function, from the page's own params: neither trusts the other's reading.
 *
 * The signer is always the wallet (`signer.type: 'wallet'`): the frame makes the session key and keeps
 * it on its own origin; the site gets a context to name the session in `wallet_sendCalls`, never a key.
 */
import { type Address, getAddress, type Hex, isAddress, isHex, toFunctionSelector } from 'viem'
import * as z from 'zod/mini'
import type { PermissionsPreview } from './preview.ts'
import type { EncodedSessionPolicy } from './walletAccountSessions.ts'

/** The most a session's op may cost in network fees when the account pays (0.01 ETH): shown, and enforced on chain. */
export const SESSION_MAX_GAS_COST = 10n ** 16n

/** The permission types the wallet grants (what `wallet_getCapabilities` announces). */
export const permissionTypes = [
  'erc20-token-periodic',
  'erc20-token-transfer',
  'native-token-transfer',
  'contract-call',
] as const

/** The policy types it honours on a permission (`call-limit`: at most this many actions in all). */
export const policyTypes = ['call-limit', 'token-allowance'] as const

/** The signer types it grants to: the wallet's own session key. */
export const signerTypes = ['wallet'] as const

/** The approval methods of permissions (SPEC 6). */
export const grantMethods = ['wallet_grantPermissions', 'wallet_requestExecutionPermissions'] as const
export type GrantMethod = (typeof grantMethods)[number]

/** A refusal of a permission request the wallet cannot grant as asked (-32602, with these words). */
export class PermissionRequestError extends Error {
  override name = 'PermissionRequestError'
}

/**
 * Runs a read of a permission request, turning its refusal into the caller's own error (the service's
 * -32602, the frame's invalid request); any other error goes on as it is.
 *
 * @example
 * const key = readPermissionRequest(() => revokedKey(params), invalidParams)
 */
export function readPermissionRequest<T>(read: () => T, refusal: (message: string) => Error): T {
  try {
    return read()
  } catch (error) {
    if (error instanceof PermissionRequestError) throw refusal(error.message)
    throw error
  }
}

const refuse = (message: string): never => {
  throw new PermissionRequestError(message)
}

const hexOrNumber = z.union([z.string(), z.number()])
const record = z.record(z.string(), z.unknown())

/** A permission as ERC-7715's first shape has it: its type, its data, its policies. */
const permissionShape = z.object({
  type: z.string(),
  data: z.optional(record),
  policies: z.optional(z.array(z.object({ type: z.string(), data: z.optional(record) }))),
  required: z.optional(z.boolean()),
})

const signerShape = z.optional(z.object({ type: z.string(), data: z.optional(record) }))

/** `wallet_grantPermissions`' one request. */
const grantRequestShape = z.object({
  chainId: hexOrNumber,
  address: z.optional(z.string()),
  expiry: z.number(),
  signer: signerShape,
  permissions: z.array(permissionShape).check(z.minLength(1), z.maxLength(16)),
})

/** One entry of `wallet_requestExecutionPermissions` (one permission each, its expiry as a rule). */
const executionRequestShape = z.object({
  chainId: hexOrNumber,
  address: z.optional(z.string()),
  from: z.optional(z.string()),
  expiry: z.optional(z.number()),
  signer: signerShape,
  permission: z.object({ type: z.string(), isAdjustmentAllowed: z.optional(z.boolean()), data: record }),
  rules: z.optional(z.array(z.object({ type: z.string(), data: z.optional(record) }))),
})

/** A token's allowance in a grant: `amount` base units per `period` seconds (`total`: once, until expiry). */
export interface GrantToken {
  token: Address
  amount: bigint
  period: number
  total: boolean
}

/** A contract a grant may call, and its functions (their selectors, and the signatures when the site gave them). */
export interface GrantContract {
  address: Address
  functions: { selector: Hex; signature?: string }[]
}

/** What a permission request asks, in one form for both methods. */
export interface SessionGrant {
  chainId: number
  /** The account the site named (must be the person's smart account). */
  account?: Address
  /** The first second the session may act (0: now). */
  start: number
  /** The first second it may no longer act (unix seconds). */
  expiry: number
  tokens: GrantToken[]
  contracts: GrantContract[]
  /** Native currency per call (0: none). */
  valueCap: bigint
  /** At most this many calls in all (0: no limit). */
  callLimit: number
  /** The session key the frame made (set by the frame in `signer.data.key`, never by the site). */
  key?: Address
}

const addressOf = (value: unknown, what: string): Address =>
  typeof value === 'string' && isAddress(value, { strict: false })
    ? getAddress(value)
    : refuse(`${what} must be an address`)

const amountOf = (value: unknown, what: string): bigint => {
  try {
    if (typeof value === 'bigint' && value >= 0n) return value
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
    if (typeof value === 'string' && /^(0x[0-9a-fA-F]{1,64}|\d{1,78})$/.test(value)) {
      const amount = BigInt(value)
      if (amount < 2n ** 256n) return amount
    }
  } catch {
    // Falls through to the refusal.
  }
  return refuse(`${what} must be an amount in base units`)
}

const secondsOf = (value: unknown, what: string): number => {
  const seconds = typeof value === 'string' && isHex(value) ? Number(value) : value
  return typeof seconds === 'number' && Number.isSafeInteger(seconds) && seconds > 0 && seconds < 2 ** 48
    ? seconds
    : refuse(`${what} must be a number of seconds`)
}

/** A function of a `contract-call` permission: a signature (`swap(uint256,address)`) or a 4-byte selector. */
function functionOf(value: unknown): { selector: Hex; signature?: string } {
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{8}$/.test(value))
    return { selector: value.toLowerCase() as Hex }
  if (typeof value === 'string' && /^[A-Za-z_$][\w$]*\([\w,[\]() ]*\)$/.test(value.trim())) {
    const signature = value.trim().replace(/\s+/g, '')
    return { selector: toFunctionSelector(signature), signature }
  }
  return refuse('A contract-call permission lists functions by signature or 4-byte selector')
}

/** The chain id of a request (`0x…` or a number). */
const chainIdOf = (value: string | number): number => {
  const id = typeof value === 'number' ? value : isHex(value) ? Number(value) : Number.NaN
  return Number.isSafeInteger(id) && id > 0 ? id : refuse('chainId must be a chain id')
}

/** The key the frame put in `signer.data.key`, once the signer type is the wallet's. */
function keyOf(signer: z.infer<typeof signerShape>): Address | undefined {
  if (signer !== undefined && signer.type !== 'wallet')
    refuse('This wallet grants permissions to its own session key only (signer type "wallet")')
  const key = signer?.data?.key
  return key === undefined ? undefined : addressOf(key, 'The session key')
}

/** Adds one permission (with its policies) to the grant being built. */
function addPermission(
  grant: SessionGrant,
  type: string,
  data: Record<string, unknown>,
  policies: readonly { type: string; data?: Record<string, unknown> | undefined }[],
): void {
  let allowance: bigint | undefined
  for (const policy of policies) {
    if (policy.type === 'call-limit') {
      const count = secondsOf(policy.data?.count, 'A call-limit policy’s count')
      grant.callLimit = grant.callLimit === 0 ? count : Math.min(grant.callLimit, count)
    } else if (policy.type === 'token-allowance') {
      allowance = amountOf(policy.data?.allowance, 'A token-allowance policy’s allowance')
    } else refuse(`Unsupported policy type: ${policy.type}`)
  }
  switch (type) {
    case 'erc20-token-periodic': {
      const token = addressOf(data.tokenAddress ?? data.address, 'The token')
      grant.tokens.push({
        token,
        amount: amountOf(data.periodAmount, 'periodAmount'),
        period: secondsOf(data.periodDuration, 'periodDuration'),
        total: false,
      })
      if (data.startTime !== undefined)
        grant.start = Math.max(grant.start, secondsOf(data.startTime, 'startTime'))
      return
    }
    case 'erc20-token-transfer': {
      const token = addressOf(data.tokenAddress ?? data.address, 'The token')
      const amount = amountOf(data.allowance ?? data.maxAmount ?? allowance, 'The token allowance')
      grant.tokens.push({ token, amount, period: 0, total: true })
      return
    }
    case 'native-token-transfer': {
      const cap = amountOf(data.allowance ?? data.maxAmount ?? allowance, 'The native allowance')
      if (grant.valueCap === 0n || cap < grant.valueCap) grant.valueCap = cap
      return
    }
    case 'contract-call': {
      const address = addressOf(data.address ?? data.contract, 'The contract')
      const calls = Array.isArray(data.calls)
        ? data.calls
        : Array.isArray(data.functions)
          ? data.functions
          : []
      if (calls.length === 0 || calls.length > 16)
        refuse('A contract-call permission lists 1 to 16 functions')
      grant.contracts.push({ address, functions: calls.map(functionOf) })
      return
    }
  }
  refuse(`Unsupported permission type: ${type}`)
}

/** The checks every grant passes, whichever shape it came in. */
function checked(grant: SessionGrant, now: number): SessionGrant {
  if (grant.expiry <= now) refuse('The permission’s expiry has passed')
  if (grant.tokens.length === 0 && grant.contracts.length === 0)
    refuse('A permission must allow a token or a contract call')
  const periods = new Set(grant.tokens.map((token) => (token.total ? 0 : token.period)))
  if (periods.size > 1) refuse('All token allowances of one permission request must share one period')
  const tokens = new Set(grant.tokens.map((token) => token.token))
  if (tokens.size !== grant.tokens.length) refuse('A token may have one allowance per permission request')
  // A total allowance is one period that covers everything until the expiry.
  for (const token of grant.tokens) if (token.total) token.period = grant.expiry
  return grant
}

/**
 * The grant a permission request asks for (throws {@link PermissionRequestError} with the reason when
 * the wallet cannot grant it as asked). `now`: unix seconds.
 *
 * @example
 * const grant = grantOfRequest('wallet_grantPermissions', params, Math.floor(Date.now() / 1000))
 */
export function grantOfRequest(method: GrantMethod, params: unknown, now: number): SessionGrant {
  const list = Array.isArray(params) ? params : refuse('The params must be an array')
  if (method === 'wallet_grantPermissions') {
    const parsed = z.safeParse(grantRequestShape, list[0])
    if (!parsed.success || list.length !== 1) return refuse('Expected one ERC-7715 permission request')
    const request = parsed.data
    const grant: SessionGrant = {
      chainId: chainIdOf(request.chainId),
      ...(request.address ? { account: addressOf(request.address, 'address') } : {}),
      start: 0,
      expiry: secondsOf(request.expiry, 'expiry'),
      tokens: [],
      contracts: [],
      valueCap: 0n,
      callLimit: 0,
    }
    const key = keyOf(request.signer)
    if (key) grant.key = key
    for (const permission of request.permissions)
      addPermission(grant, permission.type, permission.data ?? {}, permission.policies ?? [])
    return checked(grant, now)
  }
  if (list.length === 0 || list.length > 16) refuse('Expected 1 to 16 permission requests')
  const entries = list.map((entry) => {
    const parsed = z.safeParse(executionRequestShape, entry)
    return parsed.success ? parsed.data : refuse('Expected ERC-7715 permission requests')
  })
  const [first] = entries as [z.infer<typeof executionRequestShape>]
  const expiries = entries.map((entry) => {
    const rule = entry.rules?.find((candidate) => candidate.type === 'expiry')
    return secondsOf(rule?.data?.timestamp ?? entry.expiry, 'The expiry rule’s timestamp')
  })
  const grant: SessionGrant = {
    chainId: chainIdOf(first.chainId),
    start: 0,
    expiry: Math.min(...expiries),
    tokens: [],
    contracts: [],
    valueCap: 0n,
    callLimit: 0,
  }
  const account = first.address ?? first.from
  if (account) grant.account = addressOf(account, 'address')
  const keys = new Set(entries.map((entry) => keyOf(entry.signer)))
  if (keys.size > 1) refuse('One permission request has one signer')
  const [key] = keys
  if (key) grant.key = key
  for (const entry of entries) {
    if (chainIdOf(entry.chainId) !== grant.chainId) refuse('One permission request is for one chain')
    const rules = (entry.rules ?? []).filter((rule) => rule.type !== 'expiry')
    addPermission(grant, entry.permission.type, entry.permission.data, rules)
  }
  return checked(grant, now)
}

/** ERC-20 `transfer(address,uint256)` and `approve(address,uint256)`: what a token allowance lets the session call. */
const TOKEN_SELECTORS: readonly Hex[] = ['0xa9059cbb', '0x095ea7b3']

/**
 * The WalletAccount session policy of a grant: its contracts' functions, `transfer` and `approve` on each
 * token within its allowance, the value cap, the call limit, the window and {@link SESSION_MAX_GAS_COST}.
 *
 * @example
 * encodeFunctionData({ abi: walletAccountSessionAbi, functionName: 'grantSession', args: [key, policyOfGrant(grant)] })
 */
export function policyOfGrant(grant: SessionGrant): EncodedSessionPolicy {
  const permissions = new Map<string, { target: Address; selector: Hex }>()
  const allow = (target: Address, selector: Hex) =>
    permissions.set(`${target.toLowerCase()}:${selector}`, { target, selector })
  for (const contract of grant.contracts)
    for (const { selector } of contract.functions) allow(contract.address, selector)
  for (const { token } of grant.tokens) for (const selector of TOKEN_SELECTORS) allow(token, selector)
  return {
    validAfter: grant.start,
    validUntil: grant.expiry,
    callLimit: grant.callLimit,
    valueCap: grant.valueCap,
    maxGasCost: SESSION_MAX_GAS_COST,
    permissions: [...permissions.values()],
    allowances: grant.tokens.map(({ token, amount, period }) => ({ token, amount, period })),
  }
}

/**
 * The allowance period a session's op spends in now (`floor(now / period)`), which its signature names;
 * 0 when the grant has no token allowance.
 *
 * @example
 * sessionPeriod(grant, Math.floor(Date.now() / 1000)) // 20_428 for a daily allowance
 */
export function sessionPeriod(policy: Pick<EncodedSessionPolicy, 'allowances'>, now: number): bigint {
  const [first] = policy.allowances
  return first ? BigInt(Math.floor(now / first.period)) : 0n
}

/**
 * The context a granted session is named by (`permissionsContext`, `context`): its key's address. It is
 * no secret: only the frame that made the key can sign with it, for the site that asked.
 */
export const contextOfKey = (key: Address): Hex => key.toLowerCase() as Hex

/** A context as the page gives it back (a 20-byte hex), or undefined. */
export function keyOfContext(context: unknown): Address | undefined {
  return typeof context === 'string' && /^0x[0-9a-fA-F]{40}$/.test(context) ? getAddress(context) : undefined
}

/**
 * `wallet_revokePermissions`' params: `[{ permissionsContext }]` (also `permissionContext` or `context`).
 *
 * @example
 * revokedKey([{ permissionsContext: '0xab…' }]) // '0xAb…'
 */
export function revokedKey(params: unknown): Address {
  const [first] = Array.isArray(params) ? params : [params]
  const given = first as Record<string, unknown> | undefined
  const key = keyOfContext(given?.permissionsContext ?? given?.permissionContext ?? given?.context)
  return key ?? refuse('Expected [{ permissionsContext }] of a permission this wallet granted')
}

/** The `permissions` capability of a `wallet_sendCalls` request: the session it sends with, or undefined. */
export function sessionOfCalls(capabilities: Record<string, unknown> | undefined): Address | undefined {
  const permissions = capabilities?.permissions as Record<string, unknown> | undefined
  if (permissions === undefined) return undefined
  return (
    keyOfContext(permissions.context) ??
    refuse('The permissions capability needs a context this wallet granted')
  )
}

/**
 * A grant as the person reads it (the approval's `permissions`); `names`: the tokens' symbols and
 * decimals where they are known (read from the chain by the service).
 *
 * @example
 * permissionsPreviewOf(grant, 'grant', { [usdc]: { symbol: 'USDC', decimals: 6 } })
 */
export function permissionsPreviewOf(
  grant: SessionGrant,
  action: 'grant' | 'revoke',
  names: Readonly<Record<string, { symbol?: string | undefined; decimals?: number | undefined }>> = {},
): PermissionsPreview {
  return {
    action,
    expiry: grant.expiry,
    tokens: grant.tokens.map(({ token, amount, period, total }) => {
      const name = names[token.toLowerCase()] ?? names[token]
      return {
        address: token,
        ...(name?.symbol !== undefined ? { symbol: name.symbol } : {}),
        ...(name?.decimals !== undefined ? { decimals: name.decimals } : {}),
        amount: amount.toString(),
        period,
        total,
      }
    }),
    contracts: grant.contracts.map(({ address, functions }) => ({
      address,
      functions: functions.map((fn) => fn.signature ?? fn.selector),
    })),
    valueCap: grant.valueCap.toString(),
    callLimit: grant.callLimit,
    maxGasCost: SESSION_MAX_GAS_COST.toString(),
  }
}
