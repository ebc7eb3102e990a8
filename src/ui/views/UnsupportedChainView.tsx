import { disconnect } from '../../core/index.ts'
import { AccountScope } from '../components/AccountScope.tsx'
import { useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'
import { NetworkList } from './NetworkList.tsx'

/** UnsupportedChain: the wallet is on a network the site does not list. */
function UnsupportedChain({ config }: ViewProps) {
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

/** UnsupportedChain, in the words and styles of the views after connecting (`AccountScope`). */
export default function UnsupportedChainView(props: ViewProps) {
  return (
    <AccountScope>
      <UnsupportedChain {...props} />
    </AccountScope>
  )
}
