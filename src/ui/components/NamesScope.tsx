import type { ReactNode } from 'react'
import namesLoaders from '../../shared/i18n/namesLoaders.ts'
import { AccountScope } from './AccountScope.tsx'
import { CatalogueScope } from './CatalogueScope.tsx'

const namesStyles =
  '.suggestions{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0 0;padding:0;list-style:none}.suggestions button{min-height:44px;max-width:100%;overflow-wrap:anywhere}.success-name{overflow-wrap:anywhere}'

/**
 * The name and on-ramp views (RegisterAccountName, RegisterAccountNameSuccess, OnRamp) in their own
 * words: the views after connecting's catalogue and styles (`AccountScope`) with the language's
 * `src/shared/locales/names/` chunk added, fetched when one of them is first shown.
 *
 * @example
 * <NamesScope><RegisterAccountNameView config={config} /></NamesScope>
 */
export function NamesScope({ children }: { children: ReactNode }) {
  return (
    <AccountScope>
      <CatalogueScope loaders={namesLoaders} styles={namesStyles}>
        {children}
      </CatalogueScope>
    </AccountScope>
  )
}
