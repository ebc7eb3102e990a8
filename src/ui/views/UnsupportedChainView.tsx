import { disconnect } from '../../core/index.ts'
import type { ViewProps } from '../modal/ModalShell.tsx'
import { useStrings } from '../modal/viewContext.ts'
import { NetworkList } from './NetworkList.tsx'

/** UnsupportedChain: the wallet is on a network the site does not list. */
export default function UnsupportedChainView({ config }: ViewProps) {
  const { t } = useStrings()
  return (
    <>
      <p className="status" role="alert">
        {t('unsupportedHint')}
      </p>
      <NetworkList config={config} />
      <div className="actions">
        <button type="button" className="secondary danger" onClick={() => void disconnect(config)}>
          {t('disconnect')}
        </button>
      </div>
    </>
  )
}
