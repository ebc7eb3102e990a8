/**
 * The embedded-wallet frame (served by the companion service on its own origin). It waits for the
 * modal's handshake on the window, accepts exactly one (see ./handshake.ts), and from then on speaks
 * only over that MessageChannel port: one answer per app event, every message checked with the
 * shared zod schemas, nothing else on the window ever read again.
 */
import './frame.css'
import * as z from 'zod/mini'
import type { CaipNetworkId } from '../protocol/caip.ts'
import type { AppEvent, CustodyMode, EmbeddedUser, FrameNotice } from '../protocol/embedded/index.ts'
import {
  appEvent,
  appEventPayloads,
  embeddedLimits,
  frameQuery,
  requestId,
} from '../protocol/embedded/index.ts'
import { createFrameApi } from './api.ts'
import { createApprovalUi } from './approval.ts'
import { createExportUi } from './exportView.ts'
import { acceptHandshake } from './handshake.ts'
import { drawIdentity } from './identity.ts'
import { deviceShareStore } from './keys/deviceShare.ts'
import { sessionKeyStore } from './keys/sessionKeys.ts'
import { createPasskeyUi } from './passkeyView.ts'
import { createRecoveryUi } from './recoveryView.ts'
import { frameStorage } from './storage.ts'
import { loadStrings, type Strings } from './strings.ts'
import { createFrameWallet } from './wallet.ts'

const settingsSchema = z.object({
  projectId: z.string(),
  origins: z.array(z.string()),
  frameOrigin: z.string(),
})

function start(): void {
  const settingsText = document.getElementById('wallet-frame-config')?.textContent ?? ''
  let settingsJson: unknown
  try {
    settingsJson = JSON.parse(settingsText)
  } catch {
    return
  }
  const settings = settingsSchema.safeParse(settingsJson)
  const query = frameQuery.safeParse(Object.fromEntries(new URLSearchParams(location.search)))
  if (!settings.success || !query.success) return
  const config = settings.data
  const loadedOn = (query.data.chainId ?? 'eip155:1') as CaipNetworkId
  const logging = query.data.enableLogger === 'true'
  const log = (message: string, details?: Record<string, unknown>) => {
    if (logging) console.debug(`[wallet-frame] ${message}`, details ?? '')
  }

  // The nonce of this load, then out of the address bar (and of anything that reads it later).
  const nonce = /^#nonce=([A-Za-z0-9_-]{22,64})$/.exec(location.hash)?.[1]
  if (location.hash) history.replaceState(null, '', location.pathname + location.search)

  const ancestors = location.ancestorOrigins ? [...location.ancestorOrigins] : undefined
  const onMessage = (event: MessageEvent) => {
    const result = acceptHandshake({
      data: event.data,
      origin: event.origin,
      source: event.source,
      ports: event.ports,
      parent: window.parent,
      self: window,
      nonce,
      allowed: config.origins,
      ancestorOrigins: ancestors,
    })
    if ('refused' in result) {
      log('ignored a window message', { reason: result.refused })
      return
    }
    // One handshake per load: nothing on the window is read again.
    window.removeEventListener('message', onMessage)
    listen(result.port, event.origin)
  }
  window.addEventListener('message', onMessage)

  function listen(port: MessagePort, site: string): void {
    const notify = (notice: FrameNotice) => port.postMessage(notice)
    // The browser's language until the modal says its own (SYNC_DAPP_DATA); loaded when first needed.
    let strings: Promise<Strings> | undefined
    let language: string | undefined
    const root = document.getElementById('app') ?? document.body
    const loaded = () => {
      strings ??= loadStrings(language)
      return strings
    }
    // Who is signed in, drawn here (never answered to the page): redrawn on each change and language.
    const identityRoot = document.getElementById('identity')
    let shownUser: EmbeddedUser | undefined
    let shownCustody: CustodyMode | undefined
    const identity = (user: EmbeddedUser | undefined, custody?: CustodyMode) => {
      shownUser = user
      shownCustody = user ? custody : undefined
      if (identityRoot)
        void loaded().then((current) => drawIdentity(identityRoot, shownUser, current, shownCustody))
    }
    const indexedDb = safeIndexedDb()
    const storage = frameStorage(safeLocalStorage(), config.projectId, indexedDb)
    const wallet = createFrameWallet({
      api: createFrameApi({ projectId: config.projectId, site: () => site, sessionKey: storage.sessionKey }),
      storage,
      approvals: createApprovalUi({
        root,
        notify,
        strings: loaded,
        site: () => site,
      }),
      exportUi: createExportUi({ root, notify, strings: loaded }),
      recoveryUi: createRecoveryUi({ root, notify, strings: loaded }),
      passkeyUi: createPasskeyUi({ root, notify, strings: loaded }),
      ...(typeof PublicKeyCredential === 'function' && navigator.credentials
        ? { webauthn: browserWebAuthn() }
        : {}),
      ...(indexedDb
        ? { deviceShares: deviceShareStore(indexedDb), sessionKeys: sessionKeyStore(indexedDb) }
        : {}),
      look: {
        theme(mode, accent) {
          document.documentElement.dataset.theme = mode
          if (accent) document.documentElement.style.setProperty('--accent', accent)
          else document.documentElement.style.removeProperty('--accent')
        },
        locale(locale) {
          language = locale
          strings = undefined
          identity(shownUser, shownCustody)
        },
      },
      chainId: loadedOn,
      site,
      log,
      onSessionEnded: () => notify({ type: 'SESSION_ENDED', payload: {} }),
      identity,
    })
    port.onmessage = (message: MessageEvent) => {
      const parsed = appEvent.safeParse(message.data)
      if (!parsed.success) {
        // A request we can name gets its one (error) answer; anything else is dropped.
        const envelope = z.object({ id: requestId, type: z.string() }).safeParse(message.data)
        if (envelope.success && envelope.data.type in appEventPayloads) {
          port.postMessage({
            id: envelope.data.id,
            type: `${envelope.data.type}_ERROR`,
            payload: { message: 'Invalid request', code: -32602 },
          })
        }
        log('dropped a malformed message')
        return
      }
      const event = parsed.data as AppEvent
      void wallet.handle(event).then((answer) => port.postMessage({ id: event.id, ...answer }))
    }
    port.start()
    notify({ type: 'FRAME_READY', payload: { nonce: nonce ?? '', version: embeddedLimits.sdkVersion } })
    log('ready', { site })
  }
}

/** The browser's passkey ceremonies, in and out in WebAuthn's JSON forms (Level 3). */
function browserWebAuthn() {
  const toJson = (credential: Credential | null) => {
    if (!(credential instanceof PublicKeyCredential)) throw new DOMException('No passkey', 'NotAllowedError')
    return credential.toJSON()
  }
  return {
    async create(options: Record<string, unknown>) {
      const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(
        options as unknown as PublicKeyCredentialCreationOptionsJSON,
      )
      return toJson(await navigator.credentials.create({ publicKey }))
    },
    async get(options: Record<string, unknown>) {
      const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(
        options as unknown as PublicKeyCredentialRequestOptionsJSON,
      )
      return toJson(await navigator.credentials.get({ publicKey }))
    },
  }
}

function safeIndexedDb(): IDBFactory | undefined {
  try {
    return window.indexedDB ?? undefined
  } catch {
    return undefined
  }
}

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage
  } catch {
    return undefined
  }
}

start()
