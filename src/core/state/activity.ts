import type { ErrorSummary } from '../../errors/base.ts'
import type { HistoryTransaction } from '../../protocol/api/history.ts'

/** The Activity list of the connected account on the connected network (SPEC 4: loading, empty, paginated by cursor). */
export interface ActivityState {
  /** `loading` the first page, `more` a next page, `ready`, or `error` (SPEC 8: the empty state). */
  status: 'idle' | 'loading' | 'more' | 'ready' | 'error'
  /** Whose history on which network the list is (`eip155:31337 0xf39F…`); another one starts over. */
  key: string
  transactions: HistoryTransaction[]
  /** The cursor of the next page; null after the last one. */
  next: string | null
  error?: ErrorSummary
}

/** A list not loaded yet. */
export const IDLE_ACTIVITY: ActivityState = { status: 'idle', key: '', transactions: [], next: null }
