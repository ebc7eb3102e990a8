import { navigate } from '../../core/index.ts'
import { AccountScope } from '../components/AccountScope.tsx'
import type { ViewProps } from '../modal/viewProps.ts'
import { NetworkList } from './NetworkList.tsx'

/** Networks: switch the wallet to another configured network. */
function Networks({ config }: ViewProps) {
  return (
    <NetworkList
      config={config}
      onSwitched={() => {
        // Sign-in for a newly connected namespace took over the modal: stay there.
        if (config.$modal.get().router.view !== 'Networks') return
        // A network of a namespace with no connection yet: connect for it.
        if (!config.$account.get()) navigate(config, 'Connect', {}, 'replace')
        else if (config.$modal.get().router.history.length > 0) navigate(config, 'back')
      }}
    />
  )
}

/** Networks, in the words and styles of the views after connecting (`AccountScope`). */
export default function NetworksView(props: ViewProps) {
  return (
    <AccountScope>
      <Networks {...props} />
    </AccountScope>
  )
}
