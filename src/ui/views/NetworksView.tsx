import { navigate } from '../../core/index.ts'
import type { ViewProps } from '../modal/ModalShell.tsx'
import { NetworkList } from './NetworkList.tsx'

/** Networks: switch the wallet to another configured network. */
export default function NetworksView({ config }: ViewProps) {
  return (
    <NetworkList
      config={config}
      onSwitched={() => {
        if (config.$modal.get().router.history.length > 0) navigate(config, 'back')
      }}
    />
  )
}
