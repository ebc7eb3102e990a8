import type { BaseError } from '../../errors/index.ts'
import { summarizeError, toBaseError } from '../../errors/index.ts'
import type { Config } from '../config.ts'

const ALERTS = new Set([
  'InvalidAppConfigurationError',
  'InvalidProjectIdError',
  'ProjectIdNotConfiguredError',
])

/**
 * Reports a failed call to the companion service: configuration problems (origin not allowed,
 * unknown or missing project id) become the modal's alert; everything is dispatched as `wallet-error`.
 */
export function reportServiceError(config: Config, error: unknown): BaseError {
  const base = toBaseError(error)
  if (ALERTS.has(base.name)) config.$alert.set(summarizeError(base))
  config.events.emit('error', { code: base.code, message: base.shortMessage })
  return base
}
