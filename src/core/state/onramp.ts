import type { ErrorSummary } from '../../errors/base.ts'
import type { OnrampOptionsResponse, OnrampQuoteResponse } from '../../protocol/api/onramp.ts'

/** What the on-ramp view shows: the options, the quote (SPEC 4: loading, amount fetched, error stored), the purchase. */
export interface OnrampState {
  options: OnrampOptionsResponse | undefined
  loading: boolean
  quote: OnrampQuoteResponse | undefined
  error: ErrorSummary | undefined
  purchase: OnrampPurchase | undefined
}

/** A purchase recorded with the service, followed until the provider reports it done. */
export interface OnrampPurchase {
  id: string
  status: 'pending' | 'completed' | 'failed'
  /**
   * The checkout's URL while the browser has refused to open it (a popup blocker): the view offers it
   * as a link, which a tap opens. Cleared once opened.
   */
  blockedCheckout?: string
}
