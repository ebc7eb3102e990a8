import { disconnect } from '../../core/index.ts'
import { en } from '../locales/en.ts'
import type { ViewProps } from '../modal/ModalShell.tsx'
import { NetworkList } from './NetworkList.tsx'

/** UnsupportedChain: the wallet is on a network the site does not list. */
export default function UnsupportedChainView({ config }: ViewProps) {
  return (
    <>
      <p className="status" role="alert">
        {en.unsupportedHint}
      </p>
      <NetworkList config={config} />
      <div className="actions">
        <button type="button" className="secondary danger" onClick={() => void disconnect(config)}>
          {en.disconnect}
        </button>
      </div>
    </>
  )
}
