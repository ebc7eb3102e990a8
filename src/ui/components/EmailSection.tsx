import { useMemo } from 'react'
import type { Config } from '../../core/createConfig.ts'
import { detectInAppBrowser } from '../../core/inAppBrowser.ts'
import { EmailLoginDependencyError } from '../../errors/embedded.ts'
import { socialProviders } from '../../protocol/api/catalogue.ts'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import { EmailForm } from './EmailForm.tsx'
import { EmbeddedScope } from './EmbeddedScope.tsx'
import { FarcasterLogin } from './FarcasterLogin.tsx'
import { InAppNotice } from './InAppNotice.tsx'
import { PasskeyLogin } from './PasskeyLogin.tsx'
import { SocialButtons } from './SocialButtons.tsx'

// The e-mail sign-in's code and its frame load when someone starts using it, never before.
const emailLogin = () =>
  import('../../core/actions/connectEmail.ts').catch((cause: unknown) => {
    throw new EmailLoginDependencyError({ cause })
  })
const preloadEmailLogin = (config: Config) =>
  void import('../../core/embedded.ts').then((module) => module.embeddedConnector(config)).catch(() => {})

interface EmailSectionProps {
  config: Config
  takeFocus: boolean
}

/**
 * Connect's e-mail sign-in, above the wallets (SPEC 5: a valid e-mail address): the field loads the
 * frame when it takes focus, and Continue starts the sign-in. Inside an app's own browser (Instagram,
 * Telegram…) the social buttons, which cannot work there, give way to a notice with the way out.
 */
function EmailSectionBody({ config, takeFocus }: EmailSectionProps) {
  const { t } = useStrings()
  const { features, socials } = useStore(config.$options)
  // Inside an app's own browser social sign-in cannot finish: its buttons give way to a notice.
  const inApp = useMemo(() => detectInAppBrowser(config.platform.window), [config])
  return (
    <div className="sections">
      {features.email ? (
        <EmailForm
          label={t('email')}
          submitLabel={t('continueWithEmail')}
          part="email-form"
          takeFocus={takeFocus}
          onIntent={() => preloadEmailLogin(config)}
          onSubmit={async (email) => (await emailLogin()).connectEmail(config, { email })}
        />
      ) : null}
      {features.socials ? (
        inApp ? (
          <InAppNotice config={config} browser={inApp} email={features.email} />
        ) : (
          <SocialButtons config={config} providers={socials.length > 0 ? socials : socialProviders} />
        )
      ) : null}
      {features.email ? <PasskeyLogin config={config} /> : null}
      {features.farcaster ? <FarcasterLogin config={config} /> : null}
      <p className="divider" aria-hidden="true">
        {t('orUseAWallet')}
      </p>
    </div>
  )
}

/** Connect's e-mail section in the embedded wallet's words (its catalogue loads with the section). */
export default function EmailSection(props: EmailSectionProps) {
  return (
    <EmbeddedScope>
      <EmailSectionBody {...props} />
    </EmbeddedScope>
  )
}
