// The frame's recovery views: set up a recovery password, and recover with it on a new browser.

import type { FrameNotice } from '../protocol/embedded/index.ts'
import { ApiError } from './api.ts'
import { h } from './dom.ts'
import { createPanelHost } from './panelHost.ts'
import { passkeyMessage } from './passkeyMessages.ts'
import { passwordProblem } from './recoveryPassword.ts'
import type { Strings } from './strings.ts'

/**
 * The ways a view offers, each sealing (set-up) or opening (recovery) the recovery share its own way:
 * a password typed in the view, a passkey by its button (where the browser has WebAuthn).
 */
export interface RecoveryMethods {
  password?: ((password: string) => Promise<void>) | undefined
  passkey?: (() => Promise<void>) | undefined
  /** The set-up of a wallet the operator could recover until its project left operator custody. */
  custodySwitch?: boolean | undefined
}

export interface RecoveryUi {
  /** "Protect your wallet": resolves true once a method sealed the share, false on Later (or closed). */
  showSetup(methods: RecoveryMethods): Promise<boolean>
  /** "Recover your wallet" with the method(s) set: tried again after a wrong key; true once recovered. */
  showRecover(methods: RecoveryMethods): Promise<boolean>
  /** The app left the view (the modal closed): close it. */
  cancel(): void
}

/** A refusal of what was typed, named by its catalogue key. */
class FieldError extends Error {
  constructor(readonly key: Parameters<Strings['t']>[0]) {
    super(key)
  }
}

/** A refusal in the person's words: a wrong password or passkey, no PRF, too many tries, a passkey's own, else a retry. */
function messageOf(strings: Strings, failure: unknown): { text: string; calm: boolean } {
  const { t } = strings
  const name = (failure as { name?: unknown } | undefined)?.name
  if (name === 'WrongRecoveryPasswordError') return { text: t('frameRecoverWrong'), calm: false }
  if (name === 'WrongRecoveryPasskeyError') return { text: t('frameRecoverWrongPasskey'), calm: false }
  if (name === 'PasskeyPrfUnavailableError') return { text: t('frameRecoveryNoPrf'), calm: false }
  if (failure instanceof ApiError && failure.code === 'TOO_MANY_REQUESTS')
    return { text: t('error.tooManyRequests', { seconds: failure.secondsLeft ?? 1 }), calm: false }
  return passkeyMessage(strings, failure)
}

/** A password field with its label; `autocomplete` tells password managers what it is. */
function passwordField(id: string, label: string, autocomplete: string, describedBy: string) {
  const input = h('input', {
    id,
    type: 'password',
    class: 'text-input',
    autocomplete,
    spellcheck: 'false',
    'aria-describedby': describedBy,
  }) as HTMLInputElement
  return { input, row: h('div', { class: 'field' }, h('label', { for: id }, label), input) }
}

/**
 * Draws into `root` as the export view does (over the modal's ApproveTransaction view). The password
 * exists only in the inputs and the call that seals or opens with it; closing empties `root`.
 *
 * @example
 * const ui = createRecoveryUi({ root, notify, strings })
 * await ui.showSetup({ password: (password) => keyring.setUpRecovery({ method: 'password', password }) })
 */
export function createRecoveryUi(options: {
  root: HTMLElement
  notify: (notice: FrameNotice) => void
  strings: () => Promise<Strings>
}): RecoveryUi {
  const host = createPanelHost(options)
  let close: ((done: boolean) => void) | undefined

  /**
   * One form: its fields, the show/hide toggle, a red announced error, Enter or the primary button to
   * submit, and a passkey button above when `passkey` is given; while one runs the panel is busy and
   * says `busyText`. Without fields (a passkey alone) the toggle is left out.
   */
  function formPanel(
    strings: Strings,
    parts: {
      id: string
      title: string
      intro: string
      fields: { input: HTMLInputElement; row: HTMLElement }[]
      hint?: string
      submitLabel: string
      dismissLabel: string
      busyText: string
      submit: () => Promise<void>
      passkey?: { label: string; run: () => Promise<void> } | undefined
    },
  ) {
    const { t } = strings
    const error = h('p', { id: `${parts.id}-error`, class: 'error', role: 'alert' })
    const status = h('p', { class: 'muted', role: 'status', 'data-busy': '' })
    const toggle = h(
      'button',
      {
        type: 'button',
        class: 'link',
        'aria-pressed': 'false',
        'aria-controls': parts.fields.map((field) => field.input.id).join(' '),
        'data-action': 'toggle-password',
      },
      t('frameRecoveryShow'),
    )
    toggle.addEventListener('click', () => {
      const shown = toggle.getAttribute('aria-pressed') !== 'true'
      toggle.setAttribute('aria-pressed', String(shown))
      toggle.textContent = shown ? t('frameRecoveryHide') : t('frameRecoveryShow')
      for (const { input } of parts.fields) input.type = shown ? 'text' : 'password'
    })
    const submit = h(
      'button',
      { type: 'button', class: 'primary', 'data-action': 'confirm' },
      parts.submitLabel,
    )
    const passkey = parts.passkey
      ? h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            'data-action': 'passkey',
            'aria-describedby': `${parts.id}-error`,
          },
          parts.passkey.label,
        )
      : null
    const dismiss = h(
      'button',
      { type: 'button', class: 'secondary', 'data-action': 'close' },
      parts.dismissLabel,
    )
    dismiss.addEventListener('click', () => close?.(false))
    const panel = h(
      'main',
      { class: 'panel', 'aria-labelledby': `${parts.id}-title`, dir: strings.dir, lang: strings.locale },
      h('h1', { id: `${parts.id}-title`, tabindex: '-1' }, parts.title),
      h('p', { id: `${parts.id}-intro` }, parts.intro),
      passkey ? h('div', { class: 'actions' }, passkey) : null,
      // No <form>: the frame's sandbox has no allow-forms, so a button and Enter submit.
      h(
        'div',
        { class: 'form' },
        ...parts.fields.map((field) => field.row),
        parts.hint ? h('p', { id: `${parts.id}-hint`, class: 'muted' }, parts.hint) : null,
        parts.fields.length > 0 ? toggle : null,
        error,
        status,
        h('div', { class: 'actions' }, dismiss, submit),
      ),
    )
    const buttons = [submit, dismiss, passkey].filter((button) => button !== null)
    let busy = false
    /** Runs one way in; a failure is said (red and announced, or calm) and focus goes to `retry`. */
    const send = (task: () => Promise<void>, retry: HTMLElement, invalid?: HTMLInputElement) => {
      if (busy) return
      busy = true
      error.textContent = ''
      for (const { input } of parts.fields) input.removeAttribute('aria-invalid')
      panel.setAttribute('aria-busy', 'true')
      for (const button of buttons) button.setAttribute('disabled', '')
      status.textContent = parts.busyText
      task().then(
        () => close?.(true),
        (failure: unknown) => {
          busy = false
          panel.removeAttribute('aria-busy')
          for (const button of buttons) button.removeAttribute('disabled')
          const said =
            failure instanceof FieldError
              ? { text: t(failure.key), calm: false }
              : messageOf(strings, failure)
          status.textContent = said.calm ? said.text : ''
          error.textContent = said.calm ? '' : said.text
          if (!said.calm) invalid?.setAttribute('aria-invalid', 'true')
          retry.focus()
        },
      )
    }
    const first = parts.fields[0]?.input
    const sendForm = () => send(parts.submit, first ?? submit, first)
    submit.addEventListener('click', sendForm)
    const run = parts.passkey?.run
    if (passkey && run) passkey.addEventListener('click', () => send(run, passkey))
    panel.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !busy) close?.(false)
      if (event.key === 'Enter' && event.target instanceof HTMLInputElement) sendForm()
    })
    return panel
  }

  /** Runs one view until it settles; the panel (and the typed password) go with it. */
  function run(draw: (strings: Strings) => HTMLElement): Promise<boolean> {
    close?.(false)
    return options.strings().then(
      (strings) =>
        new Promise<boolean>((resolve) => {
          close = (done) => {
            close = undefined
            host.clear()
            resolve(done)
          }
          const panel = draw(strings)
          const first =
            panel.querySelector<HTMLElement>('input') ??
            panel.querySelector<HTMLElement>('[data-action="confirm"]') ??
            undefined
          host.draw(panel, true, first)
        }),
    )
  }

  return {
    showSetup(methods) {
      return run((strings) => {
        const { t } = strings
        const described = 'setup-intro setup-hint setup-error'
        const password = passwordField(
          'setup-password',
          t('frameRecoveryPassword'),
          'new-password',
          described,
        )
        const repeated = passwordField('setup-repeat', t('frameRecoveryRepeat'), 'new-password', described)
        return formPanel(strings, {
          id: 'setup',
          title: t('frameRecoverySetupTitle'),
          intro: t(methods.custodySwitch ? 'frameRecoverySwitchIntro' : 'frameRecoverySetupIntro'),
          fields: [password, repeated],
          hint: t('frameRecoveryRule'),
          submitLabel: t('frameRecoverySave'),
          dismissLabel: t('frameRecoveryLater'),
          busyText: t('frameRecoveryBusy'),
          async submit() {
            const problem = passwordProblem(password.input.value, repeated.input.value)
            if (problem) throw new FieldError(problem)
            await methods.password?.(password.input.value)
          },
          passkey: methods.passkey && { label: t('frameRecoveryUsePasskey'), run: methods.passkey },
        })
      })
    },
    showRecover(methods) {
      return run((strings) => {
        const { t } = strings
        const common = {
          id: 'recover',
          title: t('frameRecoverTitle'),
          dismissLabel: t('frameRecoveryLater'),
          busyText: t('frameRecoverBusy'),
        }
        const byPassword = methods.password
        if (!byPassword) {
          // A passkey alone: its button is the view's one action.
          const byPasskey = methods.passkey ?? (() => Promise.reject(new Error('No recovery method')))
          return formPanel(strings, {
            ...common,
            intro: t('frameRecoverIntroPasskey'),
            fields: [],
            submitLabel: t('frameRecoverUsePasskey'),
            submit: byPasskey,
          })
        }
        const password = passwordField(
          'recover-password',
          t('frameRecoveryPassword'),
          'current-password',
          'recover-intro recover-error',
        )
        return formPanel(strings, {
          ...common,
          intro: t('frameRecoverIntro'),
          fields: [password],
          submitLabel: t('frameRecoverSubmit'),
          submit: () => byPassword(password.input.value),
          passkey: methods.passkey && { label: t('frameRecoverUsePasskey'), run: methods.passkey },
        })
      })
    },
    cancel() {
      close?.(false)
    },
  }
}
