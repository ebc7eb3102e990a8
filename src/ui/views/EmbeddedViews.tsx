import type { ComponentType } from 'react'
import type { View } from '../../core/modal/router.ts'
import { EmbeddedScope } from '../components/EmbeddedScope.tsx'
import { useStore } from '../hooks/useStore.ts'
import type { ViewProps } from '../modal/viewProps.ts'
import ApproveTransactionView from './ApproveTransactionView.tsx'
import EmailVerifyDeviceView from './EmailVerifyDeviceView.tsx'
import EmailVerifyOtpView from './EmailVerifyOtpView.tsx'
import UpdateEmailOtpView from './UpdateEmailOtpView.tsx'
import UpdateEmailWalletView from './UpdateEmailWalletView.tsx'

const views: Partial<Record<View, ComponentType<ViewProps>>> = {
  EmailVerifyOtp: EmailVerifyOtpView,
  EmailVerifyDevice: EmailVerifyDeviceView,
  ApproveTransaction: ApproveTransactionView,
  UpdateEmailWallet: UpdateEmailWalletView,
  UpdateEmailOtp: UpdateEmailOtpView,
}

/**
 * The embedded wallet's views (the e-mail code, a new browser, ApproveTransaction, Update e-mail):
 * one chunk, the shell's one loader for all of them, each view in the embedded wallet's words and
 * styles (`EmbeddedScope`). Shows the router's current view.
 */
export default function EmbeddedViews({ config }: ViewProps) {
  const Current = views[useStore(config.$modal).router.view]
  return Current ? (
    <EmbeddedScope>
      <Current config={config} />
    </EmbeddedScope>
  ) : null
}
