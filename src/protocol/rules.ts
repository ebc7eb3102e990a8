import * as z from 'zod/mini'
import type { Hex } from './address.ts'
import { TokenBalanceSchema } from './entities.ts'
import { type ValidationResult, validate } from './validation.ts'

export {
  AccentSchema,
  type SocialProvider,
  SocialProviderSchema,
  type ThemeAttribute,
  ThemeAttributeSchema,
} from './optionRules.ts'

// Validation rules of SPEC section 5; messages are the spec's where it gives one.

/**
 * An e-mail address (connect and update).
 *
 * @example
 * EmailSchema.parse('ada@example.com')
 */
export const EmailSchema = z.email({
  // Only the format gets this message, so a missing e-mail still reads "Required".
  error: (issue) => (issue.code === 'invalid_format' ? 'Invalid email address' : undefined),
})

/**
 * A one-time code as typed by the person.
 *
 * @example
 * OtpSchema.parse('123456')
 */
export const OtpSchema = z.string()

/**
 * A resolved theme mode.
 *
 * @example
 * ThemeModeSchema.parse('dark')
 */
export const ThemeModeSchema = z.enum(['light', 'dark'])
export type ThemeMode = z.infer<typeof ThemeModeSchema>

const prefixed = (error: string) =>
  z.pipe(
    z.string(),
    z.custom<Hex, string>((value) => value.startsWith('0x'), { error }),
  )

/**
 * A wallet call list (`wallet_sendCalls`): destination and data start with 0x.
 *
 * @example
 * CallListSchema.parse([{ to: '0xab16…', data: '0x', value: '0x1' }])
 */
export const CallListSchema = z.array(
  z.object({
    to: prefixed('Call destination must start with 0x'),
    data: z.optional(prefixed('Call data must start with 0x')),
    value: z.optional(z.union([z.bigint(), prefixed('Call value must start with 0x')])),
  }),
)
export type CallList = z.infer<typeof CallListSchema>

/**
 * EIP-5792: the first capability of a `wallet_sendCalls` request the wallet must honour and cannot (one
 * not in `honoured` and not marked `optional: true`), which refuses the batch (5700); none: `undefined`.
 *
 * @example
 * unhonouredCapability({ paymasterService: { url } }, new Set()) // 'paymasterService'
 */
export function unhonouredCapability(
  capabilities: Record<string, unknown> | undefined,
  honoured: ReadonlySet<string>,
): string | undefined {
  return Object.entries(capabilities ?? {}).find(
    ([name, value]) => !honoured.has(name) && (value as { optional?: unknown } | null)?.optional !== true,
  )?.[0]
}

/**
 * EIP-5792's status of a batch sent one transaction after another, from its receipts (`null`: not mined
 * yet): 100 pending, 200 all succeeded, 500 all reverted, 600 some reverted.
 *
 * @example
 * callsStatusOf([{ status: '0x1' }, null]) // 100
 */
export function callsStatusOf(receipts: readonly ({ status?: unknown } | null)[]): 100 | 200 | 500 | 600 {
  if (receipts.some((receipt) => receipt === null)) return 100
  if (receipts.every((receipt) => receipt?.status === '0x1')) return 200
  if (receipts.every((receipt) => receipt?.status === '0x0')) return 500
  return 600
}

const AMOUNT_AND_RECEIVER = 'An amount and receiver address are required'
const requiredText = (error: string) => z.string({ error }).check(z.minLength(1, { error }))

/**
 * A send-token form ready to submit. Key order gives the spec's message order.
 *
 * @example
 * validate(SendFormSchema, { loading: false }) // { ok: false, message: 'An amount and receiver address are required', … }
 */
export const SendFormSchema = z.object({
  sendTokenAmount: requiredText(AMOUNT_AND_RECEIVER).check(
    z.regex(/^\d*\.?\d+$/, { error: 'Invalid amount' }),
  ),
  receiverAddress: requiredText(AMOUNT_AND_RECEIVER),
  token: z.object(TokenBalanceSchema.shape, { error: 'A token is required' }),
  receiverProfileName: z.optional(z.string()),
  receiverProfileImageUrl: z.optional(z.string()),
  networkBalanceInUSD: z.optional(z.string()),
  loading: z.optional(z.boolean()),
})
export type SendForm = z.infer<typeof SendFormSchema>

/**
 * Checks the send-token form before sending.
 *
 * @example
 * validateSendForm({ sendTokenAmount: '1', receiverAddress: '0xab16…', loading: false })
 * // { ok: false, message: 'A token is required', path: ['token'] }
 */
export function validateSendForm(state: unknown): ValidationResult<SendForm> {
  return validate(SendFormSchema, state)
}

/**
 * A wallet-side name: letters, digits and hyphens, at least 4 characters.
 *
 * @example
 * AccountNameSchema.parse('ada-1')
 */
export const AccountNameSchema = z
  .string()
  .check(
    z.minLength(4, { error: 'Name must be at least 4 characters' }),
    z.regex(/^[a-zA-Z0-9-]*$/, { error: 'Name can only contain letters, digits and hyphens' }),
  )

/**
 * The message for a sign-in e-mail asked for again within the cooldown.
 *
 * @example
 * emailCooldownMessage(12) // 'Please try again after 12 seconds'
 */
export function emailCooldownMessage(secondsLeft: number): string {
  return `Please try again after ${Math.max(0, Math.ceil(secondsLeft))} seconds`
}
