import type { ErrorSummary } from '../../errors/base.ts'

/** A WalletConnect pairing shown by the ConnectingWalletConnect views. */
export interface PairingState {
  status: 'idle' | 'creating' | 'waiting' | 'rejected' | 'failed'
  uri: string | undefined
  createdAt: number
  error: ErrorSummary | undefined
}

export const IDLE_PAIRING: PairingState = { status: 'idle', uri: undefined, createdAt: 0, error: undefined }
