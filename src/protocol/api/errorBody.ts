import * as z from 'zod/mini'

// Its own module (errors.ts re-exports it): the modal's HTTP client reads error bodies without the
// list of every error code, which brings the sign-in API's schemas.

/**
 * The body of every non-2xx answer of the catalogue and analytics endpoints:
 * `{ error: { code, message, field? } }`. `field` names the query parameter, path parameter or body
 * field that was wrong.
 *
 * @example
 * const parsed = apiErrorBody.safeParse(await response.json())
 * if (parsed.success && parsed.data.error.field === 'entries') …
 */
export const apiErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    field: z.optional(z.string()),
  }),
})

export type ApiErrorBody = z.infer<typeof apiErrorBody>
