import type { AnalyticsEvent } from '../../protocol/api/index.ts'
import { analyticsConfigResponse, analyticsEventBatch } from '../../protocol/api/index.ts'
import { ERROR_TELEMETRY_MAX_EVENTS, ERROR_TELEMETRY_WINDOW_MS } from '../../protocol/constants.ts'
import { reportServiceError } from '../actions/reportServiceError.ts'
import type { Config } from '../config.ts'
import type { WalletEventMap } from '../events/types.ts'
import { serviceClient } from '../service.ts'
import type { TrackedEvent } from './tracked.ts'
import { TRACKED } from './tracked.ts'

/** Codes of a person saying no (EIP-1193 4001, CAIP 5000): not errors worth reporting. */
const REJECTIONS = new Set([4001, 5000])

/**
 * When each page last reported errors: at most 5 per 60 s per page (SPEC section 9), whatever the
 * number of modals on it. Keyed by the page's window, so nothing outlives it.
 */
const errorTimes = new WeakMap<object, number[]>()

/** Whether an error may be reported now, counting it when it may. */
function errorAllowed(page: object, now: number): boolean {
  const times = (errorTimes.get(page) ?? []).filter((time) => now - time < ERROR_TELEMETRY_WINDOW_MS)
  errorTimes.set(page, times)
  if (times.length >= ERROR_TELEMETRY_MAX_EVENTS) return false
  times.push(now)
  return true
}

/** An error message without the addresses, keys or hashes a wallet may have written into it. */
const withoutAddresses = (message: string) =>
  message.replace(/\b0x[0-9a-fA-F]{40,}\b/g, '0x…').replace(/\b[1-9A-HJ-NP-Za-km-z]{32,88}\b/g, '…')

/** Events are sent in batches: at 10, or 5 s after the first one waiting, and on pagehide. */
const BATCH_SIZE = 10
const BATCH_DELAY_MS = 5_000

/**
 * Batches analytics events and sends them to `POST /e`, only after `/getAnalyticsConfig` says the
 * project has analytics on. Each batch is validated before it leaves; on `pagehide` what is
 * waiting goes out with `sendBeacon`.
 *
 * @example
 * const tracker = createTracker(config)
 * tracker.track({ name: 'open', detail: { view: 'Connect' }, at: Date.now() })
 */
export function createTracker(config: Config) {
  const http = serviceClient(config)
  const win = config.platform.window
  let queue: AnalyticsEvent[] = []
  let timer: ReturnType<typeof setTimeout> | undefined
  let enabled: Promise<boolean> | undefined
  // The service's answer once known: `pagehide` cannot wait for it, so it sends only when it is true.
  let knownEnabled = false

  const isEnabled = () => {
    enabled ??= http
      ? http
          .getJson('/getAnalyticsConfig', {}, analyticsConfigResponse)
          .then((answer) => answer.isAnalyticsEnabled)
          .catch((error: unknown) => {
            reportServiceError(config, error)
            return false
          })
      : Promise.resolve(false)
    void enabled.then((value) => {
      knownEnabled = value
    })
    return enabled
  }

  const take = () => {
    clearTimeout(timer)
    timer = undefined
    const batch = queue
    queue = []
    const checked = analyticsEventBatch.safeParse(batch)
    return batch.length > 0 && checked.success ? checked.data : undefined
  }

  const flush = async () => {
    const batch = take()
    if (!batch || !http || !(await isEnabled())) return
    try {
      await http.postJson('/e', batch, { keepalive: true })
    } catch (error) {
      reportServiceError(config, error)
    }
  }

  const onPageHide = () => {
    const batch = take()
    if (!batch || !http || !knownEnabled) return
    const body = new Blob([JSON.stringify(batch)], { type: 'text/plain;charset=UTF-8' })
    if (!win?.navigator.sendBeacon?.(http.url('/e'), body))
      void http.postJson('/e', batch, { keepalive: true })
  }
  win?.addEventListener('pagehide', onPageHide)
  // Created on the first event (the person acted): ask now, so a later pagehide knows the answer.
  void isEnabled()

  return {
    track({ name, detail, at }: TrackedEvent) {
      const event = TRACKED[name]
      if (!event || !win) return
      if (name === 'error') {
        const { code, message } = detail as WalletEventMap['error']
        if (REJECTIONS.has(code) || !errorAllowed(win, at)) return
        detail = { code, message: withoutAddresses(message) }
      }
      const account = config.$account.get()
      queue.push({
        eventId: win.crypto.randomUUID(),
        url: win.location.href,
        domain: win.location.hostname || 'localhost',
        timestamp: at,
        props: {
          type: 'track',
          event,
          properties: JSON.parse(JSON.stringify(detail)) as Record<string, unknown>,
          ...(account ? { address: account.address } : {}),
        },
      })
      if (queue.length >= BATCH_SIZE) void flush()
      else timer ??= setTimeout(() => void flush(), BATCH_DELAY_MS)
    },
    /** Sends what is waiting; the modal is going away. */
    stop() {
      win?.removeEventListener('pagehide', onPageHide)
      void flush()
    },
    flush,
  }
}
