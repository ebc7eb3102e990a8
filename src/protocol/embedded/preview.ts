// The preview of a request the frame shows for approval: built by the service from what it will sign.
import * as z from 'zod/mini'
import { CaipNetworkIdSchema } from '../caip.ts'

/** A name and a value, shown as one row of a preview. */
const field = z.object({ name: z.string(), value: z.string() })

/** The network a request is for, with its native currency. */
export const previewNetwork = z.object({
  caipNetworkId: CaipNetworkIdSchema,
  name: z.string(),
  symbol: z.string(),
  decimals: z.number(),
})

/** An amount of the native currency, in base units (wei, lamports) as a decimal string. */
const baseUnits = z.string().check(z.regex(/^\d{1,78}$/, 'Expected base units'))

/** The labels of a decoded call's or instruction's fields (each a `frameField*` string of the catalogues). */
export const previewFieldLabels = [
  'owner',
  'spender',
  'from',
  'to',
  'operator',
  'allowed',
  'tokenId',
  'amount',
  'deadline',
  'account',
  'destination',
  'mint',
  'delegate',
  'authority',
  'newAuthority',
  'authorityType',
  'program',
  'space',
] as const
export type PreviewFieldLabel = (typeof previewFieldLabels)[number]

/**
 * Warnings a decoded action carries (each a `frameWarn*` string): what the person must read before
 * approving. A call whose data could not be decoded is warned of by the frame itself (`dataBytes > 0`
 * and no `action`), as are programs the service cannot read (`programs`).
 */
export const previewWarnings = [
  'unlimitedApproval',
  'approvalForAll',
  'assign',
  'delegate',
  'setAuthority',
  'closeAccount',
] as const
export type PreviewWarning = (typeof previewWarnings)[number]

/** One field of a decoded action: an address, an amount of the action's token, or a text. */
const actionField = z.object({
  label: z.enum(previewFieldLabels),
  address: z.optional(z.string()),
  /** Base units of the action's token (`token.decimals` when known). */
  amount: z.optional(baseUnits),
  /** An approval of 2^255 or more (EVM) or of u64::MAX (SPL): shown as "Unlimited". */
  unlimited: z.optional(z.boolean()),
  text: z.optional(z.string()),
})

/**
 * A call's data or a Solana instruction as the service decoded it from the bytes that will be signed:
 * the standard (`ERC-20`, `ERC-721`, `ERC-1155`, `System`, `SPL Token`, …), the function or
 * instruction's name, the contract or program, the token (read from the chain) and the fields.
 */
export const previewAction = z.object({
  standard: z.string(),
  name: z.string(),
  contract: z.string(),
  token: z.optional(z.object({ symbol: z.optional(z.string()), decimals: z.optional(z.number()) })),
  fields: z.array(actionField),
  warnings: z.array(z.enum(previewWarnings)),
})
export type PreviewAction = z.infer<typeof previewAction>

/**
 * An approval a request gives (read by ./approvals.ts from what is signed, with the token's symbol and
 * decimals read from the chain): who gets rights over which asset, how much, until when, and the
 * wrappers it was found in. The frame shows these first, before everything else.
 */
export const previewApproval = z.object({
  /** `ERC-20`, `ERC-721`, `EIP-2612`, `DAI permit`, `Permit2`, `ERC-721 / ERC-1155`, … (never translated). */
  standard: z.string(),
  /** The function or the typed data's primary type (`approve`, `PermitSingle`, …). */
  name: z.string(),
  /** The asset's contract (for Permit2, the token inside). */
  token: z.string(),
  symbol: z.optional(z.string()),
  decimals: z.optional(z.number()),
  /** Who gets the rights (the operator, for `all`). */
  spender: z.string(),
  /** Whose assets, where a permit names them (shown when it is not the person). */
  owner: z.optional(z.string()),
  /** Base units of the token (`decimals` when known). */
  amount: z.optional(baseUnits),
  /** 2^255 or more (2^159 or more for a Permit2 allowance): shown as "Unlimited", with its warning. */
  unlimited: z.optional(z.boolean()),
  /** `amount` is added to what the spender may already take (`increaseAllowance`). */
  increase: z.optional(z.boolean()),
  /** An ERC-721 `approve`: this one token. */
  tokenId: z.optional(baseUnits),
  /** `setApprovalForAll(operator, true)`: every token of the collection. */
  all: z.optional(z.boolean()),
  /** Unix seconds: when the rights end; absent when they do not. */
  expiration: z.optional(z.number()),
  /** Unix seconds: until when the signature can be used (a permit's deadline). */
  deadline: z.optional(z.number()),
  /** A Permit2 approval: whether it is for the canonical Permit2 contract (the frame warns when not). */
  canonicalPermit2: z.optional(z.boolean()),
  /** The index in `transfers` of the call it is in; absent for typed data. */
  call: z.optional(z.number()),
  /** The wrappers it was found in, outermost first (`executeBatch`, `multicall`). */
  via: z.array(z.string()),
})
export type PreviewApproval = z.infer<typeof previewApproval>

/** One input or output of a Bitcoin transaction: its address (or `script:<hex>`), satoshis, and whether it is the person's. */
const bitcoinEntry = z.object({ address: z.string(), amount: baseUnits, own: z.boolean() })

/**
 * A PSBT as the service read it from its bytes: every input (those of the person's address are the ones
 * signed) and every output; the fee (inputs − outputs) is the preview's `fee`.
 */
export const bitcoinPreview = z.object({
  inputs: z.array(bitcoinEntry),
  outputs: z.array(bitcoinEntry),
})
export type BitcoinPreview = z.infer<typeof bitcoinPreview>

/** A token allowance of a permission: base units per `period` seconds (`total`: once, until the expiry). */
const permissionToken = z.object({
  address: z.string(),
  symbol: z.optional(z.string()),
  decimals: z.optional(z.number()),
  amount: baseUnits,
  period: z.number(),
  total: z.boolean(),
})

/** A permission as the person reads it before granting or revoking it. */
export const permissionsPreview = z.object({
  action: z.enum(['grant', 'revoke']),
  /** Unix seconds: the first second the session can no longer act. */
  expiry: z.number(),
  tokens: z.array(permissionToken),
  /** Contracts and their functions (signatures where the site gave them, else selectors). */
  contracts: z.array(z.object({ address: z.string(), functions: z.array(z.string()) })),
  /** Native currency per action, in base units ("0": none). */
  valueCap: baseUnits,
  /** At most this many actions (0: no limit). */
  callLimit: z.number(),
  /** The most one action's network fee may be, in base units. */
  maxGasCost: baseUnits,
})
export type PermissionsPreview = z.infer<typeof permissionsPreview>

/**
 * What a request asks for, in plain words, as the frame shows it for approval (ApproveTransaction).
 * The service builds it from the request it stores, so what the person approves is what it signs.
 */
export const approvalPreview = z.object({
  method: z.string(),
  network: previewNetwork,
  from: z.string(),
  /** What the request gives rights to, wherever it was found (calls, wrappers, typed data): shown first. */
  approvals: z.optional(z.array(previewApproval)),
  /** A message to sign: its text when it is readable, else its bytes in hex. */
  message: z.optional(z.object({ text: z.optional(z.string()), hex: z.optional(z.string()) })),
  /** Typed data (EIP-712): the domain's fields, the primary type and the message's fields. */
  typedData: z.optional(
    z.object({ domain: z.array(field), primaryType: z.string(), fields: z.array(field) }),
  ),
  /** Transfers and calls: receiver, amount, data size. */
  transfers: z.optional(
    z.array(
      z.object({
        to: z.string(),
        value: baseUnits,
        /** Bytes of call data (0 for a plain transfer). */
        dataBytes: z.number(),
        /** The call data decoded; absent when it could not be (the frame then warns). */
        action: z.optional(previewAction),
        /**
         * Whether some of the call data could not be read, so the frame warns of it: `false` when all of
         * it was (an approval inside a `multicall`, named in `approvals`), `true` when part was not (a
         * wrapper with a call nothing reads). Absent: the frame warns when there is data and no `action`.
         */
        unreadable: z.optional(z.boolean()),
      }),
    ),
  ),
  /** Solana instructions the service decoded that are not plain SOL transfers. */
  instructions: z.optional(z.array(previewAction)),
  /** A Bitcoin transaction (PSBT): its inputs and outputs, read from the bytes that are signed. */
  bitcoin: z.optional(bitcoinPreview),
  /** Programs of Solana instructions the service cannot decode (the frame warns). */
  programs: z.optional(z.array(z.string())),
  /**
   * A permission to grant or revoke (ERC-7715): what the session may do without asking, until
   * when. The frame draws it from the page's own request and takes only the tokens' names from here.
   */
  permissions: z.optional(permissionsPreview),
  /** The most the network fee can be, in base units; absent when it could not be estimated. */
  fee: z.optional(baseUnits),
  /** The site's paymaster pays the network fee (ERC-7677): the UserOperation to sign carries its data. */
  sponsored: z.optional(z.literal(true)),
  /** That fee's value in US dollars, where the service knows the native currency's price. */
  feeUsd: z.optional(z.number().check(z.gte(0))),
})
export type ApprovalPreview = z.infer<typeof approvalPreview>
