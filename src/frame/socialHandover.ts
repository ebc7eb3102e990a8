import { socialHandoverMessage } from '../protocol/embedded/api.ts'

/** Handover secrets from the social callback page (issue 23 item 1), as the frame receives them. */
export interface SocialHandovers {
  /** Forgets what came before (a new sign-in starts). */
  reset(): void
  /** The next handover: one already received, or the first within `waitMs`; undefined if none came. */
  take(waitMs: number): Promise<string | undefined>
}

/**
 * Listens on the frame's window for the callback page's handover: a message from a document of the
 * frame's own origin only (the callback page, which the site's page cannot be), checked with the shared
 * schema. The page and the provider never see it; `social/finish` needs it.
 *
 * @example
 * const handovers = socialHandovers(window)
 * const handover = await handovers.take(10_000)
 */
export function socialHandovers(win: Window): SocialHandovers {
  let latest: string | undefined
  let waiting: ((handover: string) => void) | undefined
  win.addEventListener('message', (event: MessageEvent) => {
    if (event.origin !== win.location.origin) return
    const parsed = socialHandoverMessage.safeParse(event.data)
    if (!parsed.success) return
    latest = parsed.data.handover
    waiting?.(latest)
  })
  return {
    reset() {
      latest = undefined
    },
    take(waitMs) {
      if (latest !== undefined) {
        const handover = latest
        latest = undefined
        return Promise.resolve(handover)
      }
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting = undefined
          resolve(undefined)
        }, waitMs)
        waiting = (handover) => {
          clearTimeout(timer)
          waiting = undefined
          latest = undefined
          resolve(handover)
        }
      })
    },
  }
}
