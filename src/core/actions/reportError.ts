import type { BaseError } from '../../errors/index.ts'
import { toBaseError } from '../../errors/index.ts'
import type { Config } from '../config.ts'

/**
 * Turns anything thrown into the typed error and tells the page through `wallet-error`.
 *
 * @example
 * try { await connect(config, { connector }) } catch (error) { reportError(config, error) }
 */
export function reportError(config: Config, error: unknown): BaseError {
  const base = toBaseError(error)
  config.events.emit('error', { code: base.code, message: base.shortMessage })
  return base
}
