import type { LogEntry, Logger, LogLevel } from './logger.ts'

export interface ClientLog {
  /** Keeps an entry when the log is on (`enableLogger`, the `debug` attribute); does nothing otherwise. */
  log(level: LogLevel, message: string, data?: unknown): void
  /** The entries kept, oldest first (once the buffer has loaded). */
  entries(): Promise<LogEntry[]>
}

/**
 * The client log as the first paint holds it: nothing but a switch. The buffer and its secret
 * filter (`logger.ts`) load on the first entry kept, which is only ever with `enableLogger`.
 *
 * @example
 * const logger = createClientLog(() => config.$options.get().enableLogger, Date.now)
 */
export function createClientLog(enabled: () => boolean, now: () => number): ClientLog {
  let logger: Logger | undefined
  let loading: Promise<void> | undefined
  let waiting: [LogLevel, string, unknown, number][] | undefined
  return {
    log(level, message, data, time = now()) {
      if (!enabled()) return
      if (logger) return logger.log(level, message, data, time)
      if (waiting) return void waiting.push([level, message, data, time])
      waiting = [[level, message, data, time]]
      loading = import('./logger.ts').then(({ createLogger }) => {
        logger = createLogger()
        for (const entry of waiting ?? []) logger.log(...entry)
        waiting = undefined
      })
    },
    async entries() {
      await loading
      return logger?.entries() ?? []
    },
  }
}
