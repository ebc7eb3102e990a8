// The frame's passkey views: sign in or create one on Connect; the list, Add and Remove on Account.
import type { FrameNotice, PasskeySummary } from '../protocol/embedded/index.ts'
import { h } from './dom.ts'
import { createPanelHost } from './panelHost.ts'
import { passkeyMessage } from './passkeyMessages.ts'
import type { Strings } from './strings.ts'

/** A date of the service (ISO) as the person's language writes it. */
const dated = (strings: Strings, iso: string) =>
  new Intl.DateTimeFormat(strings.locale, { dateStyle: 'medium' }).format(new Date(iso))

/** What the Connect view runs on each button (each one a WebAuthn ceremony that needs the click). */
export interface PasskeySignInActions {
  login(): Promise<void>
  register(): Promise<void>
}

/** What the Account view runs: each answers the person's passkeys as the service now lists them. */
export interface PasskeyManageActions {
  add(): Promise<PasskeySummary[]>
  remove(id: string): Promise<PasskeySummary[]>
}

export interface PasskeyUi {
  /** Connect: resolves true once a ceremony signed the person in, false when they closed the view. */
  showSignIn(actions: PasskeySignInActions): Promise<boolean>
  /** Account: resolves with the number of passkeys listed when the person closes the view. */
  showManage(passkeys: PasskeySummary[], actions: PasskeyManageActions): Promise<number>
  /** The app left the view (the modal closed). */
  cancel(): void
}

/**
 * The views draw into `root` as the export view does (the modal lays the frame over its
 * ApproveTransaction view), so every button that starts a ceremony is clicked inside the frame: a
 * cross-origin frame gets no passkey without its own user activation. A refusal of the service is shown
 * red and announced (role=alert) in the person's language; a cancelled browser dialog is a calm status
 * line, and the view stays usable.
 *
 * @example
 * const ui = createPasskeyUi({ root, notify, strings })
 * const connected = await ui.showSignIn({ login, register })
 */
export function createPasskeyUi(options: {
  root: HTMLElement
  notify: (notice: FrameNotice) => void
  strings: () => Promise<Strings>
}): PasskeyUi {
  const host = createPanelHost(options)
  let close: ((done: boolean) => void) | undefined

  /** A panel with its title, a status line (calm) and an alert (errors), closed by Escape. */
  function panelOf(strings: Strings, title: string, hint: string) {
    const status = h('p', { class: 'muted', role: 'status', 'data-passkey-status': '' })
    const alert = h('p', { class: 'error', role: 'alert', 'data-passkey-error': '' })
    const body = h('div', { class: 'form' })
    const panel = h(
      'main',
      { class: 'panel', 'aria-labelledby': 'passkey-title', dir: strings.dir, lang: strings.locale },
      h('h1', { id: 'passkey-title', tabindex: '-1' }, title),
      h('p', { id: 'passkey-hint' }, hint),
      body,
      status,
      alert,
    )
    panel.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') close?.(false)
    })
    /** Runs `step` from `button`: busy meanwhile, then its outcome said in the status or the alert. */
    const act = (button: HTMLElement, step: () => Promise<string | undefined>) => {
      button.addEventListener('click', () => {
        if (button.getAttribute('aria-busy') === 'true') return
        button.setAttribute('aria-busy', 'true')
        status.textContent = strings.t('framePasskeyWaiting')
        alert.textContent = ''
        step().then(
          (done) => {
            button.removeAttribute('aria-busy')
            status.textContent = done ?? ''
          },
          (failure: unknown) => {
            button.removeAttribute('aria-busy')
            const said = passkeyMessage(strings, failure)
            status.textContent = said.calm ? said.text : ''
            alert.textContent = said.calm ? '' : said.text
            button.focus()
          },
        )
      })
    }
    return { panel, body, act }
  }

  const button = (label: string, action: string, kind = 'primary') =>
    h('button', { type: 'button', class: kind, 'data-action': action }, label)

  /** Opens one view; it and all it shows go when it settles. */
  function run<T>(fallback: T, flow: (strings: Strings, settle: (value: T) => void) => void): Promise<T> {
    close?.(false)
    return options.strings().then(
      (strings) =>
        new Promise<T>((resolve) => {
          let value = fallback
          const settle = (next: T) => {
            value = next
            close?.(true)
          }
          close = () => {
            close = undefined
            host.clear()
            resolve(value)
          }
          flow(strings, settle)
        }),
    )
  }

  /** The list of passkeys, each with its Remove button. */
  function listOf(
    strings: Strings,
    passkeys: PasskeySummary[],
    onRemove: (item: PasskeySummary) => HTMLElement,
  ) {
    const { t } = strings
    const date = (iso: string) => dated(strings, iso)
    if (passkeys.length === 0)
      return h('p', { class: 'muted', 'data-passkeys-empty': '' }, t('framePasskeysEmpty'))
    return h(
      'ul',
      { class: 'rows', 'aria-label': t('framePasskeysTitle'), 'data-passkeys': '' },
      ...passkeys.map((item) =>
        h(
          'li',
          { class: 'row', 'data-passkey': item.id },
          h(
            'span',
            {},
            h('strong', {}, t('framePasskeyCreated', { date: date(item.createdAt) })),
            h('br'),
            h(
              'span',
              { class: 'muted' },
              item.lastUsedAt
                ? t('framePasskeyLastUsed', { date: date(item.lastUsedAt) })
                : t('framePasskeyNeverUsed'),
            ),
          ),
          onRemove(item),
        ),
      ),
    )
  }

  return {
    showSignIn(actions) {
      return run(false, (strings, settle) => {
        const { t } = strings
        const view = panelOf(strings, t('framePasskeyTitle'), t('framePasskeyHint'))
        const login = button(t('continueWithPasskey'), 'passkey-login')
        const register = button(t('framePasskeyCreate'), 'passkey-register', 'secondary')
        const cancel = button(t('frameCancel'), 'close', 'secondary')
        cancel.addEventListener('click', () => close?.(false))
        const signedIn = (step: () => Promise<void>) => async () => {
          await step()
          settle(true)
          return undefined
        }
        view.act(login, signedIn(actions.login))
        view.act(register, signedIn(actions.register))
        view.body.append(login, register, h('div', { class: 'actions' }, cancel))
        host.draw(view.panel, true)
        login.focus()
      })
    },
    showManage(passkeys, actions) {
      let count = 0
      return run(0, (strings) => {
        const { t } = strings
        const view = panelOf(strings, t('framePasskeysTitle'), t('framePasskeysHint'))
        const list = h('div', { 'data-passkey-list': '' })
        const show = (passkeys: PasskeySummary[]) => {
          count = passkeys.length
          list.replaceChildren(
            listOf(strings, passkeys, (item) => {
              const remove = button(t('framePasskeyRemove'), 'passkey-remove', 'secondary danger')
              remove.setAttribute(
                'aria-label',
                `${t('framePasskeyRemove')}: ${t('framePasskeyCreated', { date: dated(strings, item.createdAt) })}`,
              )
              view.act(remove, async () => {
                show(await actions.remove(item.id))
                return t('framePasskeyRemoved')
              })
              return remove
            }),
          )
        }
        const add = button(t('framePasskeyAdd'), 'passkey-add')
        const done = button(t('frameClose'), 'close', 'secondary')
        done.addEventListener('click', () => close?.(true))
        view.act(add, async () => {
          show(await actions.add())
          return t('framePasskeyAdded')
        })
        view.body.append(list, h('div', { class: 'actions' }, done, add))
        show(passkeys)
        host.draw(view.panel, true)
        add.focus()
      }).then(() => count)
    },
    cancel() {
      close?.(false)
    },
  }
}
