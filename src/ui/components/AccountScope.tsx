import type { ReactNode } from 'react'
import accountLoaders from '../../shared/i18n/accountLoaders.ts'
import { accountStyles } from '../theme/accountStyles.ts'
import { CatalogueScope } from './CatalogueScope.tsx'

/**
 * The views after connecting (Account, Send, Swap, Networks, UnsupportedChain) in their own words and
 * styles: the catalogue `src/shared/locales/account/` and `accountStyles`, which the dialog's first open
 * never fetches.
 *
 * @example
 * <AccountScope><AccountView config={config} /></AccountScope>
 */
export function AccountScope({ children }: { children: ReactNode }) {
  return (
    <CatalogueScope loaders={accountLoaders} styles={accountStyles}>
      {children}
    </CatalogueScope>
  )
}
