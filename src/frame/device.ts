/**
 * The page a mailed approval link opens (`/device#secret`, on the frame's origin, never framed):
 * who is signing in, where, from which browser and when, then the code that browser shows and
 * Approve, or Deny. A wrong code denies that browser. In the browser's language.
 */
import './frame.css'
import { type DeviceDetailsResponse, deviceDetailsResponse } from '../protocol/embedded/api.ts'
import { ApiError, createFrameApi } from './api.ts'
import { h, hostOf } from './dom.ts'
import { loadStrings, type Strings } from './strings.ts'

const root = document.getElementById('app') ?? document.body
const secret = /^#([A-Za-z0-9_-]{43})$/.exec(location.hash)?.[1]
// The secret stays out of the address bar and the history.
if (location.hash) history.replaceState(null, '', location.pathname)
const api = createFrameApi({ projectId: '-', site: () => location.origin })

function page(strings: Strings) {
  const { t } = strings
  document.documentElement.lang = strings.locale
  document.documentElement.dir = strings.dir
  document.title = t('deviceApprove')

  const show = (...children: (Node | string)[]) => {
    const heading = h('h1', { id: 'device-title', tabindex: '-1' }, t('approveBrowser'))
    root.replaceChildren(
      h('main', { class: 'panel page-panel', 'aria-labelledby': 'device-title' }, heading, ...children),
    )
    heading.focus()
  }
  const problem = (text: string) => show(h('p', { role: 'alert', class: 'error' }, text))

  const render = (details: DeviceDetailsResponse) => {
    const site = hostOf(details.site)
    if (details.status === 'approved') return show(h('p', { role: 'status' }, t('deviceApproved', { site })))
    if (details.status === 'denied') return show(h('p', { role: 'status' }, t('deviceDenied')))
    if (details.status === 'expired') return problem(t('deviceExpired'))
    // The code the signing-in browser shows: without it nothing is approved, so a person who opens a
    // link someone else caused cannot approve that someone by a click.
    const input = h('input', {
      id: 'device-code',
      name: 'code',
      type: 'text',
      inputmode: 'text',
      autocomplete: 'off',
      autocapitalize: 'characters',
      spellcheck: 'false',
      maxlength: '16',
      'aria-describedby': 'device-code-hint',
      class: 'code-input',
    }) as HTMLInputElement
    const label = h('label', { for: 'device-code' }, t('deviceCodeLabel'))
    const hint = h(
      'p',
      { id: 'device-code-hint', class: 'muted' },
      t('deviceCodeHint', { browser: details.browser }),
    )
    const approve = h('button', { type: 'submit', class: 'primary' }, t('deviceApprove'))
    const deny = h('button', { type: 'button', class: 'secondary' }, t('deviceDeny'))
    const busy = () => approve.hasAttribute('aria-disabled')
    const send = async (path: 'device/approve' | 'device/deny', body: Record<string, string>) => {
      approve.setAttribute('aria-disabled', 'true')
      deny.setAttribute('aria-disabled', 'true')
      try {
        render(await api.request('POST', path, deviceDetailsResponse, body))
      } catch (error) {
        problem(
          error instanceof ApiError && error.status === 404
            ? t('deviceInvalid')
            : error instanceof ApiError && error.code === 'INVALID_CODE'
              ? t('deviceCodeMismatch')
              : t('error.UnknownError'),
        )
      }
    }
    const form = h(
      'form',
      { class: 'form', novalidate: '' },
      label,
      input,
      hint,
      h('div', { class: 'actions' }, deny, approve),
    )
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      if (busy() || !secret) return
      const code = input.value.trim()
      if (code === '') {
        input.setAttribute('aria-invalid', 'true')
        input.focus()
        return
      }
      void send('device/approve', { token: secret, code })
    })
    deny.addEventListener('click', () => {
      if (busy() || !secret) return
      void send('device/deny', { token: secret })
    })
    show(
      h('p', {}, t('deviceIntro', { email: details.email, site, browser: details.browser })),
      h('p', { class: 'muted' }, t('deviceRequested', { time: strings.date(new Date(details.requestedAt)) })),
      h('p', { class: 'warning' }, t('deviceWarning')),
      form,
    )
  }

  return { show, problem, render }
}

async function load() {
  const strings = await loadStrings(undefined)
  const view = page(strings)
  if (!secret) return view.problem(strings.t('deviceInvalid'))
  try {
    view.render(await api.request('POST', 'device/details', deviceDetailsResponse, { token: secret }))
  } catch {
    view.problem(strings.t('deviceInvalid'))
  }
}

void load()
