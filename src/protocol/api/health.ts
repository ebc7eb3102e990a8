import * as z from 'zod/mini'

/**
 * Body of `GET /healthz`: `200 {status: 'ok', database: 'ok'}` when the service and its database
 * answer, `503 {status: 'error', database: 'error'}` otherwise.
 *
 * @example
 * const { status } = healthResponse.parse(await (await fetch(`${apiUrl}/healthz`)).json())
 */
export const healthResponse = z.object({
  status: z.enum(['ok', 'error']),
  database: z.enum(['ok', 'error']),
})

export type HealthResponse = z.infer<typeof healthResponse>
