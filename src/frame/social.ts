/**
 * The page a social provider sends the person back to (`/social/callback/<provider>`, on the frame's
 * origin, in the popup the modal opened). The service has already finished the exchange; this page
 * only tells the window that opened it, at the exact origin of the site that started the sign-in,
 * that it is done (no code, token or state in the message), then says so in the browser's language.
 */
import './frame.css'
import { SOCIAL_CALLBACK_MESSAGE } from '../protocol/embedded/api.ts'
import { loadStrings } from './strings.ts'

interface Outcome {
  site?: string
  ok: boolean
}

function outcome(): Outcome {
  try {
    const parsed = JSON.parse(document.getElementById('wallet-frame-config')?.textContent ?? '') as Outcome
    return { ok: parsed.ok === true, ...(typeof parsed.site === 'string' ? { site: parsed.site } : {}) }
  } catch {
    return { ok: false }
  }
}

const result = outcome()
// The sign-in's code and state stay out of the address bar and the history.
history.replaceState(null, '', location.pathname)
if (result.site && window.opener) {
  try {
    ;(window.opener as Window).postMessage({ type: SOCIAL_CALLBACK_MESSAGE }, result.site)
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
