import type { FeeSpeed } from '../../chains/bip122/node.ts'
import type { ErrorSummary } from '../../errors/base.ts'

/** The Send view's form, as typed: the token (`native` or its address), the amount and the receiver. */
export interface SendForm {
  token: string
  amount: string
  receiver: string
  /** How fast a Bitcoin payment should confirm (its fee rate); other networks set their own fees. */
  speed?: FeeSpeed
}

export interface SendState {
  status: 'idle' | 'sending' | 'sent' | 'error'
  error: ErrorSummary | undefined
  /** The transaction hash (EVM) or signature (Solana) once sent. */
  hash: string | undefined
  /**
   * What the person typed: kept here, not in the view, so the form (or its result) is still there
   * when the wallet's approval view gives the screen back. Cleared once sent; kept on an error.
   */
  form: SendForm
  /** What was sent (the amount in whole tokens, the symbol, the receiver as typed), once sent. */
  sent: { amount: string; symbol: string; receiver: string } | undefined
}

/** A send not started: the native currency, nothing typed. */
export const IDLE_SEND: SendState = {
  status: 'idle',
  error: undefined,
  hash: undefined,
  form: { token: 'native', amount: '', receiver: '' },
  sent: undefined,
}
