/**
 * The page a social provider sends the person back to (`/social/callback/<provider>`, on the frame's
 * origin, in the popup the modal opened). The service has already finished the exchange; this page
 * hands the sign-in's handover secret to the wallet frames inside the window that opened it, at the
 * frame's own origin only (issue 23 item 1: the frame that started the sign-in needs it to take the
 * session, so someone who started it elsewhere cannot), then tells that window, at the exact origin of
 * the site that started the sign-in, that it is done (no secret in that message), and says so in the
 * browser's language.
 */
import * as z from 'zod/mini'
import './frame.css'
import { bindingSecret, SOCIAL_CALLBACK_MESSAGE, SOCIAL_HANDOVER_MESSAGE } from '../protocol/embedded/api.ts'
import { loadStrings } from './strings.ts'

const outcomeSchema = z.object({
  site: z.optional(z.string()),
  ok: z.boolean(),
  handover: z.optional(bindingSecret),
})
type Outcome = z.infer<typeof outcomeSchema>

function outcome(): Outcome {
  try {
    const parsed = outcomeSchema.safeParse(
      JSON.parse(document.getElementById('wallet-frame-config')?.textContent ?? ''),
    )
    return parsed.success ? parsed.data : { ok: false }
  } catch {
    return { ok: false }
  }
}

/** The frames inside `root` and theirs (a few levels): a cross-origin window still lists them. */
function framesOf(root: Window, depth = 0): Window[] {
  const found: Window[] = []
  let count = 0
  try {
    count = root.frames.length
  } catch {
    return found
  }
  for (let index = 0; index < count && index < 50; index++) {
    const child = root.frames[index]
    if (!child) continue
    found.push(child)
    if (depth < 3) found.push(...framesOf(child, depth + 1))
  }
  return found
}

const result = outcome()
// The sign-in's code and state stay out of the address bar and the history.
history.replaceState(null, '', location.pathname)
const opener = window.opener as Window | null
if (result.site && opener) {
  try {
    // Only documents of our own origin can receive it: the wallet frames, never the site's page.
    if (result.handover) {
      const message = { type: SOCIAL_HANDOVER_MESSAGE, handover: result.handover }
      for (const frame of framesOf(opener)) frame.postMessage(message, location.origin)
    }
    opener.postMessage({ type: SOCIAL_CALLBACK_MESSAGE }, result.site)
  } catch {
    // The opener navigated away: nothing to tell.
  }
}

async function render() {
  const strings = await loadStrings(undefined)
  const { t } = strings
  document.documentElement.lang = strings.locale
  document.documentElement.dir = strings.dir
  document.title = t('socialPageTitle')
  const heading = document.createElement('h1')
  heading.id = 'social-title'
  heading.tabIndex = -1
  heading.textContent = t('socialPageTitle')
  const message = document.createElement('p')
  message.setAttribute('role', result.ok ? 'status' : 'alert')
  if (!result.ok) message.className = 'error'
  message.textContent = result.ok ? t('socialDone') : result.site ? t('socialFailed') : t('socialInvalid')
  const main = document.createElement('main')
  main.className = 'panel page-panel'
  main.setAttribute('aria-labelledby', 'social-title')
  main.append(heading, message)
  ;(document.getElementById('app') ?? document.body).replaceChildren(main)
  heading.focus()
}

void render()
