import { BaseError, type ErrorParameters } from './base.ts'

/**
 * The page's origin is not on the project's allow-list (the service answered 403).
 *
 * @example
 * throw new InvalidAppConfigurationError({ details: `Origin ${origin} not on allowlist` })
 */
export class InvalidAppConfigurationError extends BaseError {
  override name = 'InvalidAppConfigurationError' as const
  constructor({ details = 'Origin not on allowlist', ...rest }: ErrorParameters = {}) {
    super('Invalid App Configuration', { details, ...rest })
  }
}

/**
 * A network was asked for that is not in the configured `networks`.
 *
 * @example
 * throw new NetworkNotFoundError({ caipNetworkId: 'eip155:10' })
 */
export class NetworkNotFoundError extends BaseError {
  override name = 'NetworkNotFoundError' as const
  constructor({ caipNetworkId, ...rest }: ErrorParameters & { caipNetworkId?: string } = {}) {
    super('Network Not Found', {
      details: `${caipNetworkId ?? 'The network'} must be in the networks array`,
      ...rest,
    })
  }
}

/**
 * The service does not know the project id.
 *
 * @example
 * throw new InvalidProjectIdError({ details: `Unknown project ${projectId}` })
 */
export class InvalidProjectIdError extends BaseError {
  override name = 'InvalidProjectIdError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('Invalid Project ID', parameters)
  }
}

/**
 * No project id was given to the modal.
 *
 * @example
 * if (!projectId) throw new ProjectIdNotConfiguredError()
 */
export class ProjectIdNotConfiguredError extends BaseError {
  override name = 'ProjectIdNotConfiguredError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('Project ID Not Configured', parameters)
  }
}
