import * as z from 'zod/mini'

// The rules of SPEC section 5 that the modal's options use (rules.ts re-exports them). Kept apart
// because the first paint parses the options: importing rules.ts there would bring every other rule,
// the entity schemas behind them and the zod schema kinds they use into the first chunk.

/**
 * A social login provider.
 *
 * @example
 * SocialProviderSchema.parse('github')
 */
export const SocialProviderSchema = z.enum(['google', 'github', 'apple', 'facebook', 'x', 'discord'])
export type SocialProvider = z.infer<typeof SocialProviderSchema>

/**
 * The `theme` attribute: a mode, or `system` to follow `prefers-color-scheme`.
 *
 * @example
 * ThemeAttributeSchema.parse('system')
 */
export const ThemeAttributeSchema = z.enum(['light', 'dark', 'system'])
export type ThemeAttribute = z.infer<typeof ThemeAttributeSchema>

/**
 * The `default-account-type` attribute: the EVM account a new embedded-wallet user starts on (SPEC 3).
 *
 * @example
 * AccountTypeAttributeSchema.parse('smartAccount')
 */
export const AccountTypeAttributeSchema = z.enum(['eoa', 'smartAccount'])

const HEX_COLOUR = /^#([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i
const COLOUR_FUNCTION = /^(rgba?|hsla?)\(\s*[-+0-9.%,/\sa-z]*\)$/i
const COLOUR_WORD = /^[a-z]+$/i

/**
 * The `accent` attribute: a CSS colour (hex, `rgb()`/`hsl()` or a colour word). It ends up in a
 * style sheet, so anything that could close a declaration or load a resource is refused.
 *
 * @example
 * AccentSchema.parse('#3b82f6')
 * AccentSchema.parse('hsl(220 90% 56%)')
 */
export const AccentSchema = z.string().check(
  z.refine((value) => !/[;{}]|url\(/i.test(value), { error: 'Invalid accent colour', abort: true }),
  z.refine(
    (value) => [HEX_COLOUR, COLOUR_FUNCTION, COLOUR_WORD].some((pattern) => pattern.test(value.trim())),
    { error: 'Invalid accent colour' },
  ),
)
