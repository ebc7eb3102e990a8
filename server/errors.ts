import { type ApiErrorCode, apiErrorMessages } from '../src/protocol/api/index.ts'

export interface ServiceErrorOptions {
  /** The query parameter, path parameter or body field at fault. */
  field?: string
  cause?: unknown
}

/**
 * An error the service answers with: HTTP status, API error code, message and, for bad input, the field.
 * Identify it by `name`, not `instanceof`.
 *
 * @example
 * throw new ServiceError(400, 'BAD_REQUEST', 'entries: Expected at most 100', { field: 'entries' })
 */
export class ServiceError extends Error {
  override name = 'ServiceError'
  readonly statusCode: number
  readonly code: ApiErrorCode
  readonly field: string | undefined

  constructor(statusCode: number, code: ApiErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.statusCode = statusCode
    this.code = code
    this.field = options.field
  }
}

/**
 * Whether a value is a {@link ServiceError} (by name, so copies from another bundle count too).
 *
 * @example
 * if (isServiceError(error)) reply.code(error.statusCode)
 */
export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof Error && value.name === 'ServiceError' && 'code' in value && 'statusCode' in value
}

/** `400 Project ID Not Configured`: the request has no `projectId`. */
export function projectIdNotConfigured(): ServiceError {
  return new ServiceError(400, 'PROJECT_ID_NOT_CONFIGURED', apiErrorMessages.PROJECT_ID_NOT_CONFIGURED, {
    field: 'projectId',
  })
}

/** `401 Invalid Project ID`: no project has this id. */
export function invalidProjectId(): ServiceError {
  return new ServiceError(401, 'INVALID_PROJECT_ID', apiErrorMessages.INVALID_PROJECT_ID, {
    field: 'projectId',
  })
}

/** `403 Invalid App Configuration`: the page's origin is not on the project's allow-list. */
export function invalidAppConfiguration(): ServiceError {
  return new ServiceError(403, 'INVALID_APP_CONFIGURATION', apiErrorMessages.INVALID_APP_CONFIGURATION)
}

/** `400` naming the bad field. */
export function badRequest(field: string, message: string): ServiceError {
  return new ServiceError(400, 'BAD_REQUEST', message, { field })
}

/** `404` for an unknown resource. */
export function notFound(message: string): ServiceError {
  return new ServiceError(404, 'NOT_FOUND', message)
}

/** Seconds a client is asked to wait when the database is unavailable. */
export const databaseRetryAfterSeconds = 5

/**
 * `503 The database is unavailable` with `Retry-After`: PostgreSQL is down, restarting or unreachable.
 * The request may be sent again as it was (analytics event ids and nonces make that safe).
 */
export function databaseUnavailable(cause?: unknown): ServiceError {
  return Object.assign(
    new ServiceError(503, 'SERVICE_UNAVAILABLE', 'The database is unavailable: try again in a few seconds', {
      ...(cause === undefined ? {} : { cause }),
    }),
    { retryAfterSeconds: databaseRetryAfterSeconds },
  )
}
