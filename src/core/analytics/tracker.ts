import type { AnalyticsEvent } from '../../protocol/api/index.ts'
import { analyticsConfigResponse, analyticsEventBatch } from '../../protocol/api/index.ts'
import { reportServiceError } from '../actions/reportServiceError.ts'
import type { Config } from '../createConfig.ts'
import { serviceClient } from '../service.ts'
import type { TrackedEvent } from './watch.ts'
import { TRACKED } from './watch.ts'

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
