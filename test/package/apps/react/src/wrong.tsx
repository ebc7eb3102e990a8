// Type checks only (never bundled): tsc must report each @ts-expect-error line.

import type { WalletEvent } from 'wallet-elements'
import type {} from 'wallet-elements/react'

// @types/node must not reach a browser app through the package: here setTimeout returns a number.
export const timer: number = setTimeout(() => {}, 0)

export const wrong = (
  <>
    {/* @ts-expect-error 'purple' is not a theme */}
    <wallet-modal theme="purple" />
    {/* @ts-expect-error the config property takes typed options */}
    <wallet-modal config={{ theme: 'purple' }} />
    {/* @ts-expect-error a connect handler does not take an error event */}
    <wallet-modal onwallet-connect={(event: WalletEvent<'error'>) => event.detail.code} />
    {/* @ts-expect-error sizes are sm, md and lg */}
    <wallet-button size="xl" />
  </>
)
