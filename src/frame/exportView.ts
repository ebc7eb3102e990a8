// The frame's Export and Delete views: a fresh code, a warning, the keys, on the frame's origin only.
import type { FrameNotice } from '../protocol/embedded/index.ts'
import { ApiError } from './api.ts'
import { h } from './dom.ts'
import { FrameFailure } from './failure.ts'
import { createPanelHost } from './panelHost.ts'
import type { Strings } from './strings.ts'

/**
 * The keys the view shows, made in the frame from this browser's share and the export's auth share:
 * the EVM key, the Solana secret key as Phantom imports it, and the phrase of a phrase secret.
 */
export interface ExportedKeys {
  evmPrivateKey: string
  solanaSecretKey: string
  recoveryPhrase: string | null
}

/** What the view asks of the wallet: the code's check, answering the keys (export) or nothing (delete). */
export type ExportStep<T> = (otp: string) => Promise<T>

export interface ExportUi {
  /** Code, then warning, then keys; resolves when the person closes (true once the keys were shown). */
  showExport(confirm: ExportStep<ExportedKeys>): Promise<boolean>
  /** Code and the deletion's warning; resolves true once deleted, false when closed before. */
  showDelete(confirm: ExportStep<void>): Promise<boolean>
  /** The app left the view (the modal closed): close it, keys and all. */
  cancel(): void
}

/** A refused code in the person's language where the catalogue has it, else the service's words. */
function messageOf({ t }: Strings, failure: unknown): string {
  // This browser has no share of the wallet's current set: nothing here can show the keys.
  if (failure instanceof FrameFailure && failure.payload.code === 'KEYS_NOT_ON_DEVICE')
    return t('frameExportNoDeviceShare')
  if (!(failure instanceof ApiError)) return t('frameExportFailed')
  if (failure.code === 'INVALID_CODE' && failure.attemptsLeft !== undefined)
    return t('error.InvalidCodeError', { attemptsLeft: failure.attemptsLeft })
  if (failure.code === 'CODE_EXPIRED') return t('error.CodeExpiredError')
  return failure.message
}

/**
 * The views draw into `root` as the approval view does (the modal shows the frame on APPROVAL_SHOW and
 * takes it away on APPROVAL_HIDE). Keys exist as text nodes only while shown; closing empties `root`.
 *
 * @example
 * const ui = createExportUi({ root, notify, strings })
 * await ui.showExport(async (otp) => keyring.exportKeys(await exportAuthShare(otp)))
 */
export function createExportUi(options: {
  root: HTMLElement
  notify: (notice: FrameNotice) => void
  strings: () => Promise<Strings>
}): ExportUi {
  let close: ((done: boolean) => void) | undefined
  const host = createPanelHost(options)
  /** Shows a panel (the first one tells the modal to show the frame). */
  const draw = host.draw

  function panelOf(strings: Strings, title: string, ...children: (HTMLElement | false)[]) {
    const panel = h(
      'main',
      { class: 'panel', 'aria-labelledby': 'export-title', dir: strings.dir, lang: strings.locale },
      h('h1', { id: 'export-title', tabindex: '-1' }, title),
      ...children,
    )
    panel.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') close?.(false)
    })
    return panel
  }

  /** The code form; `onCode` runs with the typed code, its error shown red and announced. */
  function codePanel(
    strings: Strings,
    title: string,
    hint: string,
    submitLabel: string,
    onCode: (otp: string) => Promise<void>,
  ) {
    const { t } = strings
    const input = h('input', {
      id: 'export-code',
      class: 'code-input',
      inputmode: 'numeric',
      autocomplete: 'one-time-code',
      maxlength: '12',
      'aria-describedby': 'export-hint export-error',
    }) as HTMLInputElement
    const error = h('p', { id: 'export-error', class: 'error', role: 'alert' })
    const submit = h('button', { type: 'button', class: 'primary', 'data-action': 'confirm' }, submitLabel)
    const cancel = h(
      'button',
      { type: 'button', class: 'secondary', 'data-action': 'close' },
      t('frameCancel'),
    )
    cancel.addEventListener('click', () => close?.(false))
    // No <form>: the frame's sandbox has no allow-forms, so a button and Enter submit.
    const form = h(
      'div',
      { class: 'form' },
      h('label', { for: 'export-code' }, t('code')),
      input,
      error,
      h('div', { class: 'actions' }, cancel, submit),
    )
    let busy = false
    const send = () => {
      if (busy) return
      busy = true
      submit.setAttribute('aria-busy', 'true')
      error.textContent = ''
      input.removeAttribute('aria-invalid')
      onCode(input.value.replace(/\s/g, '')).then(
        () => {
          busy = false
        },
        (failure: unknown) => {
          busy = false
          submit.removeAttribute('aria-busy')
          input.setAttribute('aria-invalid', 'true')
          error.textContent = messageOf(strings, failure)
          input.focus()
        },
      )
    }
    submit.addEventListener('click', send)
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') send()
    })
    const panel = panelOf(strings, title, h('p', { id: 'export-hint' }, hint), form)
    return { panel, input }
  }

  /** One secret with its Copy button. */
  function secretRow(strings: Strings, label: string, value: string, name: string, status: HTMLElement) {
    const { t } = strings
    const copy = h('button', { type: 'button', class: 'secondary', 'data-copy': name }, t('frameCopy'))
    copy.setAttribute('aria-label', `${t('frameCopy')}: ${label}`)
    copy.addEventListener('click', () => {
      void navigator.clipboard.writeText(value).then(
        () => {
          status.textContent = t('frameCopied')
        },
        () => {
          status.textContent = t('frameCopyFailed')
        },
      )
    })
    return h(
      'div',
      { class: 'row' },
      h('dt', {}, label),
      h('dd', {}, h('code', { class: 'mono wrap', 'data-secret': name }, value), copy),
    )
  }

  function keysPanel(strings: Strings, keys: ExportedKeys) {
    const { t } = strings
    const status = h('p', { class: 'muted', role: 'status', 'data-copied': '' })
    const done = h('button', { type: 'button', class: 'primary', 'data-action': 'close' }, t('frameClose'))
    done.addEventListener('click', () => close?.(true))
    return panelOf(
      strings,
      t('frameExportTitle'),
      h(
        'dl',
        { class: 'rows' },
        secretRow(strings, t('frameEvmKey'), keys.evmPrivateKey, 'evm', status),
        secretRow(strings, t('frameSolanaKey'), keys.solanaSecretKey, 'solana', status),
        keys.recoveryPhrase !== null &&
          secretRow(strings, t('frameRecoveryPhrase'), keys.recoveryPhrase, 'phrase', status),
      ),
      keys.recoveryPhrase === null && h('p', { class: 'muted', 'data-no-phrase': '' }, t('frameNoPhrase')),
      status,
      h('div', { class: 'actions' }, done),
    )
  }

  /** Runs one flow; the view and every key in it go when it settles. */
  function run(
    flow: (strings: Strings, settle: (done: boolean) => void, proven: () => void) => void,
  ): Promise<boolean> {
    close?.(false)
    // The code was right: the service recorded the export, however the view is closed after.
    let confirmed = false
    return options.strings().then(
      (strings) =>
        new Promise<boolean>((resolve) => {
          close = (done) => {
            close = undefined
            host.clear()
            resolve(done || confirmed)
          }
          flow(
            strings,
            (done) => close?.(done),
            () => {
              confirmed = true
            },
          )
        }),
    )
  }

  return {
    showExport(confirm) {
      return run((strings, settle, proven) => {
        const { t } = strings
        const code = codePanel(
          strings,
          t('frameExportTitle'),
          t('frameExportCodeHint'),
          t('frameConfirm'),
          async (otp) => {
            const keys = await confirm(otp)
            proven()
            const show = h(
              'button',
              { type: 'button', class: 'primary', 'data-action': 'show-keys' },
              t('frameShowKeys'),
            )
            const cancel = h(
              'button',
              { type: 'button', class: 'secondary', 'data-action': 'close' },
              t('frameClose'),
            )
            cancel.addEventListener('click', () => settle(false))
            show.addEventListener('click', () => draw(keysPanel(strings, keys), false))
            draw(
              panelOf(
                strings,
                t('frameExportWarningTitle'),
                h('p', { class: 'warning', role: 'alert' }, t('frameExportWarning')),
                h('div', { class: 'actions' }, cancel, show),
              ),
              false,
            )
          },
        )
        draw(code.panel, true, code.input)
      })
    },
    showDelete(confirm) {
      return run((strings, settle) => {
        const { t } = strings
        const code = codePanel(
          strings,
          t('frameDeleteTitle'),
          t('frameDeleteHint'),
          t('frameDeleteConfirm'),
          async (otp) => {
            await confirm(otp)
            settle(true)
          },
        )
        draw(code.panel, true, code.input)
      })
    },
    cancel() {
      close?.(false)
    },
  }
}
