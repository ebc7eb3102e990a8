/**
 * The page a social provider sends the person back to (`/social/callback/<provider>`, on the frame's
 * origin, in the popup the modal opened). The service has already finished the exchange; this page
 * tells the window that opened it, at the exact origin of the site that started the sign-in, that it
 * is done, with the sign-in's handover secret (so that knowing the sign-in's ids is not enough): the modal
 * passes it to its frame, the frame that started the sign-in, which needs it and its own binding secret to
 * take the session. So someone who started the sign-in elsewhere and sent the provider's URL to a victim
 * never gets it: it stays in the victim's browser. Then the page says so in the browser's language.
 */
import * as z from 'zod/mini'
import './frame.css'
import { bindingSecret, SOCIAL_CALLBACK_MESSAGE } from '../protocol/embedded/api.ts'
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

const result = outcome()
// The sign-in's code and state stay out of the address bar and the history.
history.replaceState(null, '', location.pathname)
const opener = window.opener as Window | null
if (result.site && opener) {
  try {
    const message = {
      type: SOCIAL_CALLBACK_MESSAGE,
      ...(result.handover ? { handover: result.handover } : {}),
    }
    // Only a window at the site that started this sign-in receives it.
    opener.postMessage(message, result.site)
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
