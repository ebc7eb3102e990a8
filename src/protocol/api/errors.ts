import { embeddedErrorCodes } from '../embedded/errorCodes.ts'
import { authErrorCodes } from './auth.ts'
import { blockchainErrorCodes } from './blockchain.ts'
import { namesErrorCodes } from './names.ts'
import { onrampErrorCodes } from './onramp.ts'
import { paymasterErrorCodes } from './paymaster.ts'

/**
 * Machine-readable codes of the API's error bodies. The modal maps them to its error catalogue
 * (SPEC section 8); the messages below are the catalogue's exact words where it has them.
 */
export const apiErrorCodes = [
  'BAD_REQUEST',
  'PROJECT_ID_NOT_CONFIGURED',
  'INVALID_PROJECT_ID',
  'INVALID_APP_CONFIGURATION',
  'NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'METHOD_NOT_ALLOWED',
  'UPSTREAM_ERROR',
  'UPSTREAM_TIMEOUT',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
  ...authErrorCodes,
  ...blockchainErrorCodes,
  ...embeddedErrorCodes,
  ...namesErrorCodes,
  ...onrampErrorCodes,
  ...paymasterErrorCodes,
] as const

export type ApiErrorCode = (typeof apiErrorCodes)[number]

/**
 * Fixed messages of the codes that have one (SPEC section 8).
 *
 * @example
 * if (body.error.code === 'INVALID_APP_CONFIGURATION') showAlert(apiErrorMessages.INVALID_APP_CONFIGURATION)
 */
export const apiErrorMessages = {
  PROJECT_ID_NOT_CONFIGURED: 'Project ID Not Configured',
  INVALID_PROJECT_ID: 'Invalid Project ID',
  INVALID_APP_CONFIGURATION: 'Invalid App Configuration',
} as const satisfies Partial<Record<ApiErrorCode, string>>

export { type ApiErrorBody, apiErrorBody } from './errorBody.ts'
