// The service's Drizzle schema. Each context's tables live beside its code (server/<context>/tables.ts);
// this module gathers them, so every import of `db/schema.ts` and Drizzle itself see the one schema.

import { analyticsEvents } from '../analytics/tables.ts'
import { authKeys, authNonces, authSessions } from '../auth/tables.ts'
import { images, wallets } from '../catalogue/tables.ts'
import {
  walletCallBatches,
  walletCodes,
  walletDataKeys,
  walletDeviceApprovals,
  walletDevices,
  walletEmailThrottle,
  walletEmailUpdates,
  walletFarcasterLogins,
  walletIdentities,
  walletKeys,
  walletRequests,
  walletSessionNonces,
  walletSessions,
  walletSocialLogins,
  walletUsers,
} from '../embedded/tables.ts'
import { historyNetworks, historyTransfers } from '../history/tables.ts'
import { rateLimits } from '../http/tables.ts'
import { names } from '../names/tables.ts'
import { onrampPurchases } from '../onramp/tables.ts'
import { projectOrigins, projects } from '../projects/tables.ts'

export { analyticsEvents } from '../analytics/tables.ts'
export { authKeys, authNonces, authSessions } from '../auth/tables.ts'
export { images, wallets } from '../catalogue/tables.ts'
export {
  walletCallBatches,
  walletCodes,
  walletDataKeys,
  walletDeviceApprovals,
  walletDevices,
  walletEmailThrottle,
  walletEmailUpdates,
  walletFarcasterLogins,
  walletIdentities,
  walletKeys,
  walletRequests,
  walletSessionNonces,
  walletSessions,
  walletSocialLogins,
  walletUsers,
} from '../embedded/tables.ts'
export { historyNetworks, historyTransfers } from '../history/tables.ts'
export { rateLimits } from '../http/tables.ts'
export { names } from '../names/tables.ts'
export { onrampPurchases } from '../onramp/tables.ts'
export { projectOrigins, projects } from '../projects/tables.ts'

export const schema = {
  projects,
  projectOrigins,
  wallets,
  images,
  analyticsEvents,
  authKeys,
  authNonces,
  authSessions,
  rateLimits,
  walletUsers,
  walletDataKeys,
  walletKeys,
  walletEmailThrottle,
  walletCodes,
  walletDevices,
  walletDeviceApprovals,
  walletSessions,
  walletSessionNonces,
  walletEmailUpdates,
  walletRequests,
  walletCallBatches,
  names,
  onrampPurchases,
  walletIdentities,
  walletSocialLogins,
  walletFarcasterLogins,
  historyNetworks,
  historyTransfers,
}
