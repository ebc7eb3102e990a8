import type { ReactNode } from 'react'
import embeddedLoaders from '../../shared/i18n/embeddedLoaders.ts'
import { embeddedStyles } from '../theme/embeddedStyles.ts'
import { CatalogueScope } from './CatalogueScope.tsx'

/**
 * The embedded wallet's parts of the modal in their own words and styles: its catalogue
 * (`src/shared/locales/embedded/`, fetched with the e-mail section and views, or before, by the idle
 * prefetch of a page that offers the e-mail sign-in) and `embeddedStyles`.
 *
 * @example
 * <EmbeddedScope><CodeForm … /></EmbeddedScope>
 */
export function EmbeddedScope({ children }: { children: ReactNode }) {
  return (
    <CatalogueScope loaders={embeddedLoaders} styles={embeddedStyles}>
      {children}
    </CatalogueScope>
  )
}
