import { z } from 'zod'
import { blankToUndefined, optionalInteger } from '../config/env.ts'

/** Sign-in's slice of the service configuration; absent members take the defaults in server/auth. */
export interface AuthConfig {
  /** Sign-in session lifetime in seconds (`AUTH_SESSION_TTL`); absent: 7 days (`authLimits`). */
  authSessionTtlSeconds?: number
  /** `iss` claim of sign-in tokens (`AUTH_ISSUER`); absent: `wallet-elements`. */
  authIssuer?: string
}

/** Sign-in's variables: `AUTH_SESSION_TTL`, `AUTH_ISSUER`. */
export const authEnv = z.object({
  // A minute to a year.
  AUTH_SESSION_TTL: optionalInteger('AUTH_SESSION_TTL', 60, 31_536_000),
  AUTH_ISSUER: z.preprocess(
    (value) => (typeof value === 'string' ? blankToUndefined(value.trim()) : value),
    z
      .string()
      .regex(/^[\x21-\x7e]{1,256}$/, 'AUTH_ISSUER must be 1 to 256 printable characters without spaces')
      .optional(),
  ),
})

/**
 * Sign-in's slice: a member is present only when its variable is set, so the defaults stay in one
 * place (server/auth).
 *
 * @example
 * const auth = authConfig(authEnv.parse({ AUTH_ISSUER: 'example.com' })) // { authIssuer: 'example.com' }
 */
export function authConfig(values: z.output<typeof authEnv>): AuthConfig {
  return {
    ...(values.AUTH_SESSION_TTL === undefined ? {} : { authSessionTtlSeconds: values.AUTH_SESSION_TTL }),
    ...(values.AUTH_ISSUER === undefined ? {} : { authIssuer: values.AUTH_ISSUER }),
  }
}
