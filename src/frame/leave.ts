// The frame's Export and Delete handlers: a fresh code from the service, then the view.
import {
  authShareResponse,
  type ExportCodePurpose,
  exportCodeResponse,
  walletDeletedResponse,
} from '../protocol/embedded/index.ts'
import type { ExportUi } from './exportView.ts'
import { notAvailable } from './failure.ts'
import type { Keyring } from './keyring.ts'
import type { FrameSession } from './session.ts'
import type { FrameHandlers, FrameWalletDependencies } from './walletTypes.ts'

/**
 * EXPORT_WALLET and DELETE_WALLET: each mails a fresh code (a refusal, such as deleting before an
 * export, is the answer), then shows its view in the frame. The code releases the auth share, which
 * the frame combines with this browser's share (the service alone holds no key): the keys exist in the view
 * and nowhere else; the answer to the page says only whether it happened.
 *
 * @example
 * const leave = createLeave(session, deps, { ui, ended, keyring })
 * await leave.handlers.EXPORT_WALLET({})
 */
export function createLeave(
  session: FrameSession,
  { api }: Pick<FrameWalletDependencies, 'api'>,
  options: {
    ui: ExportUi | undefined
    ended: () => void | Promise<void>
    keyring: Pick<Keyring, 'exportKeys'>
  },
) {
  const ui = () => {
    if (!options.ui) throw notAvailable()
    return options.ui
  }
  const mailCode = (purpose: ExportCodePurpose) =>
    session.withSession((token) => api.request('POST', 'export/code', exportCodeResponse, { purpose }, token))

  const handlers: FrameHandlers<'EXPORT_WALLET' | 'DELETE_WALLET'> = {
    async EXPORT_WALLET() {
      const view = ui()
      const { codeId } = await mailCode('export')
      const exported = await view.showExport(async (otp) =>
        options.keyring.exportKeys(
          await session.withSession((token) =>
            api.request('POST', 'export', authShareResponse, { codeId, otp }, token),
          ),
        ),
      )
      // What GET_USER answers from now on (as `GET me` will after a reload).
      const user = session.user
      if (exported && user) session.setUser({ ...user, exported: true })
      return { exported }
    },
    async DELETE_WALLET() {
      const view = ui()
      const { codeId } = await mailCode('delete')
      const deleted = await view.showDelete(async (otp) => {
        await session.withSession((token) =>
          api.request('POST', 'wallet/delete', walletDeletedResponse, { codeId, otp }, token),
        )
      })
      if (deleted) await options.ended()
      return { deleted }
    },
  }
  return { handlers, cancel: () => options.ui?.cancel() }
}
