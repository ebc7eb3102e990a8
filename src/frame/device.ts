/**
 * The page a mailed approval link opens (`/device#secret`, on the frame's origin, never framed):
 * who is signing in, where and from which browser, then Approve or Deny. In the browser's language.
 */
import './frame.css'
import { type DeviceDetailsResponse, deviceDetailsResponse } from '../protocol/embedded/api.ts'
import { ApiError, createFrameApi } from './api.ts'
import { loadStrings, type Strings } from './strings.ts'

const root = document.getElementById('app') ?? document.body
const secret = /^#([A-Za-z0-9_-]{43})$/.exec(location.hash)?.[1]
// The secret stays out of the address bar and the history.
if (location.hash) history.replaceState(null, '', location.pathname)
const api = createFrameApi({ projectId: '-', site: () => location.origin })

function el(tag: string, attributes: Record<string, string>, ...children: (Node | string)[]) {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value)
  element.append(...children)
  return element
}

const host = (site: string) => {
  try {
    return new URL(site).host
  } catch {
    return site
  }
}

function page(strings: Strings) {
  const { t } = strings
  document.documentElement.lang = strings.locale
  document.documentElement.dir = strings.dir
  document.title = t('deviceApprove')

  const show = (...children: (Node | string)[]) => {
    const heading = el('h1', { id: 'device-title', tabindex: '-1' }, t('approveBrowser'))
    root.replaceChildren(
      el('main', { class: 'panel page-panel', 'aria-labelledby': 'device-title' }, heading, ...children),
    )
    heading.focus()
  }
  const problem = (text: string) => show(el('p', { role: 'alert', class: 'error' }, text))

  const render = (details: DeviceDetailsResponse) => {
    const site = host(details.site)
    if (details.status === 'approved') return show(el('p', { role: 'status' }, t('deviceApproved', { site })))
    if (details.status === 'denied') return show(el('p', { role: 'status' }, t('deviceDenied')))
    if (details.status === 'expired') return problem(t('deviceExpired'))
    const approve = el('button', { type: 'button', class: 'primary' }, t('deviceApprove'))
    const deny = el('button', { type: 'button', class: 'secondary' }, t('deviceDeny'))
    const decide = (path: 'device/approve' | 'device/deny') => async () => {
      if (approve.hasAttribute('aria-disabled')) return
      approve.setAttribute('aria-disabled', 'true')
      deny.setAttribute('aria-disabled', 'true')
      try {
        render(await api.request('POST', path, deviceDetailsResponse, { token: secret }))
      } catch (error) {
        problem(
          error instanceof ApiError && error.status === 404 ? t('deviceInvalid') : t('error.UnknownError'),
        )
      }
    }
    approve.addEventListener('click', decide('device/approve'))
    deny.addEventListener('click', decide('device/deny'))
    show(
      el('p', {}, t('deviceIntro', { email: details.email, site, browser: details.browser })),
      el(
        'p',
        { class: 'muted' },
        t('deviceRequested', { time: strings.date(new Date(details.requestedAt)) }),
      ),
      el('p', { class: 'warning' }, t('deviceWarning')),
      el('div', { class: 'actions' }, deny, approve),
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
