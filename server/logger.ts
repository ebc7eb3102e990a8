import { pino } from 'pino'
import type { LogLevel } from './config.ts'

/** The part of a pino logger the service's modules use (so tests may pass any pino instance). */
export interface ServiceLogger {
  info(object: object, message?: string): void
  warn(object: object, message?: string): void
  error(object: object, message?: string): void
  debug(object: object, message?: string): void
}

/**
 * The service's structured JSON logger (pino), ISO timestamps, one line per event.
 *
 * @example
 * const logger = createLogger('info')
 * logger.info({ port: 8787 }, 'listening')
 */
export function createLogger(level: LogLevel) {
  return pino({
    level,
    base: { service: 'wallet-elements' },
    timestamp: pino.stdTimeFunctions.isoTime,
  })
}

export type Logger = ReturnType<typeof createLogger>
