import { useEffect, useState } from 'react'
import { navigate } from '../../core/actions/navigate.ts'
import type { Config } from '../../core/createConfig.ts'
import { inFarcasterMiniApp, mayBeMiniApp } from '../../core/farcasterMiniApp.ts'
import type { ErrorSummary } from '../../errors/base.ts'
import { useStrings } from '../modal/viewContext.ts'
import { summaryOf } from './EmailForm.tsx'
import { ErrorMessage } from './Message.tsx'

// The mini app's sign-in loads with its first use.
const loadMiniAppSignIn = () => import('../../core/actions/connectFarcasterMiniApp.ts')

/**
 * Connect's "Continue with Farcaster". In a browser it goes to ConnectingFarcaster (a QR code and a
 * link to the Farcaster app). Inside a Farcaster mini app the host app itself asks the person and signs
 * (no code to scan): the button starts that sign-in, a status line says where to approve, and a refusal
 * or failure shows under it (red, announced) with the button usable again. Where no host can be, the
 * mini app's code is never loaded.
 */
export function FarcasterLogin({ config }: { config: Config }) {
  const strings = useStrings()
  const { t } = strings
  // Where a host can be, the answer comes from the host; the live regions exist before it does.
  const [maybe] = useState(() => mayBeMiniApp(config.platform.window))
  const [waiting, setWaiting] = useState(false)
  const [error, setError] = useState<ErrorSummary | undefined>()
  useEffect(() => {
    if (maybe) void inFarcasterMiniApp(config)
  }, [config, maybe])
  const signIn = () => {
    setError(undefined)
    setWaiting(true)
    void loadMiniAppSignIn()
      .then(({ connectFarcasterMiniApp }) => connectFarcasterMiniApp(config))
      .catch((thrown: unknown) => setError(summaryOf(thrown)))
      .finally(() => setWaiting(false))
  }
  const start = () => {
    if (!maybe) return navigate(config, 'ConnectingFarcaster')
    if (waiting) return
    // A tap before the host has answered waits for its answer (asked since the button showed).
    void inFarcasterMiniApp(config).then((inside) =>
      inside ? signIn() : navigate(config, 'ConnectingFarcaster'),
    )
  }
  return (
    <>
      <button
        type="button"
        className="secondary"
        part="farcaster-login"
        aria-disabled={waiting ? true : undefined}
        onClick={start}
      >
        {t('continueWithProvider', { provider: 'Farcaster' })}
      </button>
      {maybe ? (
        <>
          <div role="status">{waiting ? t('farcasterMiniAppWaiting') : null}</div>
          <div role="alert">{error ? <ErrorMessage>{strings.error(error)}</ErrorMessage> : null}</div>
        </>
      ) : null}
    </>
  )
}
