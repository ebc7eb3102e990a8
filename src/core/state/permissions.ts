import type { ErrorSummary } from '../../errors/base.ts'
import type { GrantedPermission } from '../../protocol/embedded/grantedPermissions.ts'

/**
 * Account's list of what this site may do for the person without asking (ERC-7715 permissions): the
 * embedded wallet's permissions granted to this site on the connected network.
 */
export interface PermissionsState {
  /** `loading` the list (the one shown stays while it is read again), `loaded`, or `error`. */
  status: 'idle' | 'loading' | 'loaded' | 'error'
  /** Whose list on which network it is (`eip155:31337 0xf39F…`); another one starts over. */
  key: string
  permissions: GrantedPermission[]
  /** The contexts being revoked (the person approves in the wallet frame meanwhile). */
  revoking: string[]
  /** What kept the list from loading. */
  error?: ErrorSummary | undefined
  /** What kept a revoke from finishing (with its context). */
  revokeError?: { context: string; error: ErrorSummary } | undefined
}

/** A list not loaded yet. */
export const IDLE_PERMISSIONS: PermissionsState = { status: 'idle', key: '', permissions: [], revoking: [] }
