import type { ErrorSummary } from '../../errors/base.ts'
import type { SiwxSession } from '../../protocol/config.ts'

/** Sign-in progress shown by SIWXSignMessage. */
export interface SiwxState {
  status: 'idle' | 'signing' | 'signed' | 'error'
  error: ErrorSummary | undefined
}

/** No sign-in under way. */
export const IDLE_SIWX: SiwxState = { status: 'idle', error: undefined }

/** The connected account's sign-in session, once known (SPEC section 3: data, message, signature, cacao). */
export type SessionState = { caipAddress: string; session: SiwxSession } | undefined
