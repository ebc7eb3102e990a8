import type { ErrorSummary } from '../../errors/base.ts'
import type { OnrampOptionsResponse, OnrampQuoteResponse } from '../../protocol/api/onramp.ts'

/** What the on-ramp view shows: the options, the quote (SPEC 4: loading, amount fetched, error stored), the purchase. */
export interface OnrampState {
  options: OnrampOptionsResponse | undefined
  loading: boolean
  quote: OnrampQuoteResponse | undefined
  error: ErrorSummary | undefined
  purchase: { id: string; status: 'pending' | 'completed' | 'failed' } | undefined
}
