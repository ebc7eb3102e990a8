import { useEffect, useState } from 'react'
import { connectSocial, socialProviderName } from '../../core/actions/connectSocial.ts'
import type { Config } from '../../core/createConfig.ts'
import { embeddedState } from '../../core/embeddedState.ts'
import { serviceClient } from '../../core/service.ts'
import type { ErrorSummary } from '../../errors/base.ts'
import { projectConfigResponse, socialProviders } from '../../protocol/api/catalogue.ts'
import type { SocialProvider } from '../../protocol/rules.ts'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import { summaryOf } from './EmailForm.tsx'
import { ErrorMessage } from './Message.tsx'

/**
 * Connect's social sign-in buttons, in the order of the `socials` attribute (SPEC 1, 5). A click opens
 * the sign-in window at once (so no popup blocker stops it); while it is open a status line says
 * where to sign in; a closed window, a cancel at the provider or a failure shows under the buttons
 * (red, announced), and the buttons stay usable. A window the browser refused anyway says so, with a
 * Try again button that opens it from a new tap.
 */
export function SocialButtons({
  config,
  providers,
}: {
  config: Config
  providers: readonly SocialProvider[]
}) {
  const strings = useStrings()
  const { t } = strings
  const waiting = useStore(embeddedState(config)).social as SocialProvider | undefined
  const [error, setError] = useState<ErrorSummary | undefined>()
  // The provider of the last try, for Try again after a blocked window.
  const [tried, setTried] = useState<SocialProvider | undefined>()
  // The service says which providers it can sign in with (credentials and the project's features);
  // the others are hidden. Without an answer, the page's list shows (the start then says why not).
  const [served, setServed] = useState<readonly SocialProvider[] | undefined>()
  useEffect(() => {
    let live = true
    const answer = serviceClient(config)?.getJson('/appkit/v1/config', {}, projectConfigResponse)
    void (answer ?? Promise.reject())
      .then(
        ({ features }) => features.socials,
        () => socialProviders,
      )
      .then((socials) => live && setServed(socials))
    return () => {
      live = false
    }
  }, [config])
  const start = (provider: SocialProvider) => {
    if (waiting) return
    setError(undefined)
    setTried(provider)
    // Synchronously in the tap: the sign-in window opens before anything is awaited (mobile Safari
    // and others refuse a window opened later).
    connectSocial(config, { provider }).catch((thrown: unknown) => setError(summaryOf(thrown)))
  }
  return (
    <div className="social" part="social-logins">
      <ul className="list social-list">
        {providers
          .filter((provider) => served?.includes(provider))
          .map((provider) => (
            <li key={provider}>
              <button
                type="button"
                className="secondary"
                part={`social-${provider}`}
                aria-disabled={waiting ? true : undefined}
                onClick={() => start(provider)}
              >
                {t('continueWithProvider', { provider: socialProviderName[provider] })}
              </button>
            </li>
          ))}
      </ul>
      <div role="status">
        {waiting ? t('socialWaiting', { provider: socialProviderName[waiting] }) : null}
      </div>
      <div role="alert">{error ? <ErrorMessage>{strings.error(error)}</ErrorMessage> : null}</div>
      {/* A refused window opens only from another tap: Try again is that tap. */}
      {error?.messageId === 'socialPopupBlocked' && tried ? (
        <button type="button" className="secondary" part="social-retry" onClick={() => start(tried)}>
          {t('socialRetry', { provider: socialProviderName[tried] })}
        </button>
      ) : null}
    </div>
  )
}
