import { useEffect, useState } from 'react'
import {
  type EmbeddedAccountKind,
  embeddedAccountKind,
  setAccountType,
} from '../../core/actions/accountType.ts'
import type { Config } from '../../core/createConfig.ts'
import { freshBalances } from '../../core/freshBalances.ts'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import { ErrorMessage } from './Message.tsx'

/**
 * The embedded wallet's account type on Account (SPEC 3, 4), on an EVM network: the type, whether the
 * smart account is deployed, and a switch between the EOA and the smart account, which the person
 * approves in the wallet frame's approval view (whichever frame of the page asked). A refused switch (a
 * network the service has no bundler for) says `This application might not support Smart Accounts` (red, announced), and the
 * account stays the EOA. Inside `AccountScope`: its words are the account catalogue's.
 */
export function AccountTypeSwitch({ config }: { config: Config }) {
  const { t } = useStrings()
  const [kind, setKind] = useState<EmbeddedAccountKind>()
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState(false)

  // Read again on each new block while it is not deployed: its first transaction deploys it.
  const block = useStore(freshBalances(config))
  const waiting = kind === undefined || (kind.type === 'smartAccount' && !kind.deployed)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new block is the reason to read again.
  useEffect(() => {
    if (!waiting) return
    let live = true
    void embeddedAccountKind(config)
      .then((next) => live && setKind(next))
      .catch(() => {})
    return () => {
      live = false
    }
  }, [config, block, waiting])

  if (!kind) return null
  const next = kind.type === 'eoa' ? 'smartAccount' : 'eoa'

  async function toggle() {
    setBusy(true)
    setFailed(false)
    try {
      setKind(await setAccountType(config, next))
    } catch (error) {
      // Rejected in the wallet frame's approval view: the person said no, nothing failed.
      setFailed((error as { name?: unknown } | undefined)?.name !== 'UserRejectedRequestError')
    }
    setBusy(false)
  }

  return (
    <section className="account-type" part="account-type" data-account-type={kind.type}>
      <div className="identity">
        <span className="label">{t('accountType')}</span>
        <span className="value">{kind.type === 'smartAccount' ? t('smartAccount') : t('eoaAccount')}</span>
      </div>
      {kind.type === 'smartAccount' ? (
        <p className="hint-text" part="smart-account-deployed" data-deployed={String(kind.deployed)}>
          {kind.deployed ? t('smartAccountDeployed') : t('smartAccountNotDeployed')}
        </p>
      ) : null}
      <button
        type="button"
        className="secondary"
        part="account-type-button"
        disabled={busy}
        onClick={() => void toggle()}
      >
        {next === 'smartAccount' ? t('switchToSmartAccount') : t('switchToEoa')}
      </button>
      <div role="alert">{failed ? <ErrorMessage>{t('smartAccountUnsupported')}</ErrorMessage> : null}</div>
    </section>
  )
}
