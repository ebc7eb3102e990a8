import * as z from 'zod/mini'
import { embeddedLimits } from './limits.ts'

// Its own module: the Connect view's e-mail field checks addresses with it, and must not bring the
// embedded wallet's API schemas (and the entity schemas they use) into the dialog's first open.

/**
 * An e-mail address as the embedded wallet takes it (SPEC 5): a dot-atom local part and a domain of two
 * or more labels ending in letters, at most 254 characters. A plain pattern rather than zod's email
 * format (`EmailSchema`), whose code would otherwise join the first paint.
 *
 * @example
 * embeddedEmail.parse('ada@example.com')
 */
export const embeddedEmail = z.string().check(
  z.regex(/^[A-Za-z0-9_'+-]+(\.[A-Za-z0-9_'+-]+)*@([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/, {
    error: 'Invalid email address',
  }),
  z.maxLength(embeddedLimits.maxEmailLength, 'Invalid email address'),
)
