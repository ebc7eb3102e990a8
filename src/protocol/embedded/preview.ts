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
   * A permission to grant or revoke (ERC-7715, issue 27): what the session may do without asking, until
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
