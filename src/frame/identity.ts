// The frame's identity area on Account: who is signed in, and who can use the wallet's keys.
import type { CustodyMode, EmbeddedUser } from '../protocol/embedded/index.ts'
import type { Strings } from './strings.ts'

/**
 * The frame's identity line: who is signed in (the e-mail, else a sign-in's username), drawn by the
 * frame on its own origin, which the modal lays over its Account view. The e-mail is never answered
 * to the page (any script of the site can open a frame of its own and ask), so this
 * is how the person still sees it. Below it, once known, who can use the wallet's keys (the
 * custody line): the person alone (`custody: user`), or the site too (`custody: operator`). Hidden while
 * the approval view shows (see frame.css).
 *
 * @example
 * drawIdentity(document.getElementById('identity'), user, await loadStrings('en'), 'user')
 */
export function drawIdentity(
  root: HTMLElement,
  user: EmbeddedUser | undefined,
  strings: Strings,
  custody?: CustodyMode,
): void {
  const name = user?.email || user?.userName
  if (!name) {
    root.replaceChildren()
    return
  }
  const line = document.createElement('p')
  line.className = 'identity'
  line.dir = strings.dir
  line.lang = strings.locale
  const label = document.createElement('span')
  label.className = 'label'
  label.textContent = strings.t('signedInWith')
  const value = document.createElement('bdi')
  value.className = 'value'
  value.textContent = name
  value.title = name
  line.append(label, ' ', value)
  if (!custody) {
    root.replaceChildren(line)
    return
  }
  const mode = document.createElement('p')
  mode.className = `custody custody-${custody}`
  mode.dir = strings.dir
  mode.lang = strings.locale
  mode.textContent = strings.t(custody === 'user' ? 'frameCustodyUser' : 'frameCustodyOperator')
  root.replaceChildren(line, mode)
}
