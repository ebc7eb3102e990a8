// Wire formats of the wallet's export and deletion: frame <-> service.
import * as z from 'zod/mini'
import { opaqueId, otpCode } from './api.ts'
import { shareSetId, wireShare } from './keys.ts'

/** What a fresh code is asked for: showing the keys, or deleting the wallet from the service. */
export const exportCodePurpose = z.enum(['export', 'delete'])
export type ExportCodePurpose = z.infer<typeof exportCodePurpose>

/** `POST /embedded/v1/export/code`: mails the signed-in person a fresh code for one of the two. */
export const exportCodeRequest = z.object({ purpose: exportCodePurpose })
/** Answer of `POST /embedded/v1/export/code`: the code's id and when another may be asked. */
export const exportCodeResponse = z.object({ codeId: opaqueId, resendAfterSeconds: z.number() })

/** `POST /embedded/v1/export` and `POST /embedded/v1/wallet/delete`: the fresh code. */
export const exportConfirmRequest = z.object({ codeId: opaqueId, otp: otpCode })

/**
 * Answer of `POST /embedded/v1/export` (to the frame only, `Cache-Control: no-store`): the service's
 * auth share of the current set; the frame combines it with its device share and shows the
 * recovery phrase and the keys on its own origin. The service never holds the keys.
 */
export const exportResponse = z.object({ setId: shareSetId, authShare: wireShare })
export type ExportResponse = z.infer<typeof exportResponse>

/** Answer of `POST /embedded/v1/wallet/delete`: the sessions that ended with it. */
export const walletDeletedResponse = z.object({ deleted: z.literal(true), revoked: z.number() })
