import * as z from 'zod/mini'

// Its own module (storage.ts re-exports it): the Connect view reads it on the dialog's first open,
// and the schemas of the other keys (sessions, balances, e-mail) stay out of that open.

/**
 * The recent wallets list.
 *
 * @example
 * RecentWalletsSchema.parse([{ id: 'io.metamask', name: 'MetaMask' }])
 */
export const RecentWalletsSchema = z.array(
  z.object({ id: z.string(), name: z.string(), icon: z.optional(z.string()) }),
)
export type RecentWallet = z.infer<typeof RecentWalletsSchema>[number]
