import { useEffect, useRef } from 'react'
import { useModule } from '../hooks/useModule.ts'
import { useStore } from '../hooks/useStore.ts'
import { configOf } from '../host.ts'
import { deepActiveElement } from './focus.ts'

const loadShell = () => import('./ModalShell.tsx')

/** Starts loading the dialog when the person shows intent (hover, focus), before the click. */
export const preloadModal = () => void loadShell().catch(() => {})

export interface ModalHostProps {
  container?: HTMLElement
}

/** The `<wallet-modal>` root: renders nothing until opened; the shell and its styles load on first open. */
export function ModalHost({ container }: ModalHostProps) {
  const host = (container as unknown as ShadowRoot | undefined)?.host
  const config = host ? configOf(host) : undefined
  if (!config || !host) return null
  return <Root config={config} host={host} />
}

function Root({ config, host }: { config: NonNullable<ReturnType<typeof configOf>>; host: Element }) {
  const modal = useStore(config.$modal)
  // What had focus when the modal opened (often the <wallet-button> inside another shadow root).
  // Read during render, before the views' autoFocus moves it, and given back on close.
  const trigger = useRef<Element | null>(null)
  const wasOpen = useRef(false)
  if (modal.open && !wasOpen.current) trigger.current = deepActiveElement(host.ownerDocument)
  wasOpen.current = modal.open
  useEffect(() => {
    if (modal.open) return
    const element = trigger.current
    trigger.current = null
    if (element instanceof HTMLElement && element.isConnected) element.focus()
  }, [modal.open])
  const ModalShell = useModule(modal.open ? loadShell : undefined)
  return modal.open && ModalShell ? <ModalShell config={config} host={host} /> : null
}
