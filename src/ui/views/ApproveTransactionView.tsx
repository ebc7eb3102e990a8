import { useRef } from 'react'
import { embeddedState } from '../../core/embeddedState.ts'
import { useFrameOverlay } from '../hooks/useFrameOverlay.ts'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

/**
 * ApproveTransaction (SPEC 2): the embedded wallet's frame, on its own origin, shows what is asked in
 * plain words with Approve and Reject; this view makes room for it and lays the frame over that room.
 * The page cannot click inside another origin's frame, so only the person approves.
 */
export default function ApproveTransactionView({ config }: ViewProps) {
  const { t } = useStrings()
  const state = useStore(embeddedState(config))
  const area = useRef<HTMLElement>(null)
  const height = Math.max(160, state.approval?.height ?? 320)

  // Each view the frame shows (a flow's next step too) opens at its top.
  useFrameOverlay(area, { interactive: true, layoutKey: state.approval?.shown })

  return (
    <section
      ref={area}
      className="frame-area"
      part="approval-frame"
      aria-label={t('approveInFrame')}
      aria-owns="wallet-frame"
      // The frame's height, and below it the safe area's padding (embeddedStyles).
      style={{ height: `calc(${height}px + var(--_safe-bottom, 0px))` }}
    />
  )
}
