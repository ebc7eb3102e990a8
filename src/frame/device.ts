/**
 * The page a mailed approval link opens (`/device#secret`, on the frame's origin, never framed):
 * who is signing in, where and from which browser, then Approve or Deny.
 */
import './frame.css'
import { type DeviceDetailsResponse, deviceDetailsResponse } from '../protocol/embedded/api.ts'
import { ApiError, createFrameApi } from './api.ts'
import { format, frameEn } from './strings.ts'

const t = frameEn
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

function show(...children: (Node | string)[]) {
  const heading = el('h1', { tabindex: '-1' }, t.deviceTitle)
  root.replaceChildren(
    el('main', { class: 'panel page-panel', 'aria-labelledby': 'device-title' }, heading, ...children),
  )
  heading.id = 'device-title'
  heading.focus()
}

const host = (site: string) => {
  try {
    return new URL(site).host
  } catch {
    return site
  }
}

function render(details: DeviceDetailsResponse) {
  const site = host(details.site)
  if (details.status === 'approved')
    return show(el('p', { role: 'status' }, format(t.deviceApproved, { site })))
  if (details.status === 'denied') return show(el('p', { role: 'status' }, t.deviceDenied))
  if (details.status === 'expired') return show(el('p', { role: 'alert', class: 'error' }, t.deviceExpired))
  const approve = el('button', { type: 'button', class: 'primary' }, t.deviceApprove)
  const deny = el('button', { type: 'button', class: 'secondary' }, t.deviceDeny)
  const decide = (path: 'device/approve' | 'device/deny') => async () => {
    approve.setAttribute('disabled', '')
    deny.setAttribute('disabled', '')
    try {
      render(await api.request('POST', path, deviceDetailsResponse, { token: secret }))
    } catch (error) {
      show(
        el(
          'p',
          { role: 'alert', class: 'error' },
          error instanceof ApiError ? error.message : t.deviceInvalid,
        ),
      )
    }
  }
  approve.addEventListener('click', decide('device/approve'))
  deny.addEventListener('click', decide('device/deny'))
  show(
    el('p', {}, format(t.deviceIntro, { email: details.email, site, browser: details.browser })),
    el(
      'p',
      { class: 'muted' },
      format(t.deviceRequested, { time: new Date(details.requestedAt).toLocaleString() }),
    ),
    el('p', { class: 'warning' }, t.deviceWarning),
    el('div', { class: 'actions' }, deny, approve),
  )
}

async function load() {
  if (!secret) return show(el('p', { role: 'alert', class: 'error' }, t.deviceInvalid))
  show(el('p', { role: 'status' }, t.deviceLoading))
  try {
    render(await api.request('POST', 'device/details', deviceDetailsResponse, { token: secret }))
  } catch {
    show(el('p', { role: 'alert', class: 'error' }, t.deviceInvalid))
  }
}

void load()
