import type { Config } from '../../core/createConfig.ts'
import { EmailLoginDependencyError } from '../../errors/embedded.ts'
import { useStrings } from '../modal/viewContext.ts'
import { EmailForm } from './EmailForm.tsx'
import { EmbeddedScope } from './EmbeddedScope.tsx'

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
 * frame when it takes focus, and Continue starts the sign-in.
 */
function EmailSectionBody({ config, takeFocus }: EmailSectionProps) {
  const { t } = useStrings()
  return (
    <div className="sections">
      <EmailForm
        label={t('email')}
        submitLabel={t('continueWithEmail')}
        part="email-form"
        takeFocus={takeFocus}
        onIntent={() => preloadEmailLogin(config)}
        onSubmit={async (email) => (await emailLogin()).connectEmail(config, { email })}
      />
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
