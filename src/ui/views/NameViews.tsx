import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { navigate } from '../../core/actions/navigate.ts'
import type { View } from '../../core/modal/router.ts'
import { checkName, registerName, releaseName, setProfileImage } from '../../core/names.ts'
import { summarizeError } from '../../errors/base.ts'
import { toBaseError } from '../../errors/unknown.ts'
import { isAvatarUrl } from '../../protocol/api/avatars.ts'
import type { NameCheckResponse } from '../../protocol/api/names.ts'
import { isNameLabel } from '../../protocol/api/names.ts'
import { Alert } from '../components/Alert.tsx'
import { ErrorMessage } from '../components/Message.tsx'
import { NamesScope } from '../components/NamesScope.tsx'
import { useStore } from '../hooks/useStore.ts'
import { useAutoFocus, useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'
import { OnrampView } from './OnrampView.tsx'

/** How long typing must pause before a name is checked. */
const CHECK_DELAY_MS = 300

/**
 * RegisterAccountName (SPEC 2): a name is checked as it is typed (the SPEC section 5 rule here, then
 * the registry), a taken one offers free names like it, and Register asks the wallet to sign the
 * registration message.
 */
function RegisterAccountNameView({ config }: ViewProps) {
  const { t, error: errorText } = useStrings()
  const autoFocus = useAutoFocus()
  // An account with a name changes it here (a registration of another moves it) or releases it.
  const account = useStore(config.$account)
  const profiles = useStore(config.$profiles)
  const current = account ? (profiles[account.address]?.name ?? undefined) : undefined
  const id = useId()
  const ids = { input: `${id}name`, error: `${id}error`, status: `${id}status` }
  const input = useRef<HTMLInputElement>(null)
  const [value, setValue] = useState('')
  const [check, setCheck] = useState<NameCheckResponse | undefined>()
  const [checking, setChecking] = useState(false)
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const label = value.trim()

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-checked when the name changes.
  useEffect(() => {
    setCheck(undefined)
    if (label === '') return setError(undefined)
    let current = true
    const timer = setTimeout(() => {
      if (!isNameLabel(label)) return setError(t('nameRuleError'))
      setError(undefined)
      setChecking(true)
      checkName(config, label)
        .then((answer) => current && setCheck(answer))
        .catch((thrown: unknown) => current && setError(errorText(summarizeError(toBaseError(thrown)))))
        .finally(() => current && setChecking(false))
    }, CHECK_DELAY_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [config, label])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    if (!isNameLabel(label)) {
      setError(t('nameRuleError'))
      input.current?.focus()
      return
    }
    setBusy(true)
    setError(undefined)
    try {
      const answer = check?.name.startsWith(`${label.toLowerCase()}.`)
        ? check
        : await checkName(config, label)
      setCheck(answer)
      if (!answer.available) {
        input.current?.focus()
        return
      }
      const record = await registerName(config, answer.name)
      navigate(config, 'RegisterAccountNameSuccess', { name: record.name }, 'replace')
    } catch (thrown) {
      // Taken meanwhile: the registry's suggestions show again.
      const again = await checkName(config, label).catch(() => undefined)
      if (again && !again.available) setCheck(again)
      else setError(errorText(summarizeError(toBaseError(thrown))))
      input.current?.focus()
    } finally {
      setBusy(false)
    }
  }

  const release = async () => {
    if (busy) return
    setBusy(true)
    setError(undefined)
    try {
      await releaseName(config)
      navigate(config, 'Account', undefined, 'replace')
    } catch (thrown) {
      setError(errorText(summarizeError(toBaseError(thrown))))
    } finally {
      setBusy(false)
    }
  }

  const taken = check && !check.available
  return (
    <form className="form" part="register-name" noValidate onSubmit={(event) => void submit(event)}>
      <h3>{current ? t('changeName') : t('registerName')}</h3>
      <p className="hint">{current ? t('changeNameHint', { name: current }) : t('registerNameHint')}</p>
      <div className="field">
        <label htmlFor={ids.input}>{t('nameField')}</label>
        <input
          ref={input}
          id={ids.input}
          name="name"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          dir="ltr"
          value={value}
          readOnly={busy}
          aria-disabled={busy || undefined}
          autoFocus={autoFocus}
          aria-invalid={error || taken ? true : undefined}
          aria-describedby={`${ids.status} ${error ? ids.error : ''}`.trim()}
          onChange={(event) => setValue(event.target.value)}
        />
        <Alert id={ids.error} text={error} />
        <div className="status" role="status" id={ids.status}>
          {checking ? t('checking') : check?.available ? t('nameAvailable', { name: check.name }) : ''}
        </div>
        <div role="alert">
          {taken ? <ErrorMessage>{t('nameTaken', { name: check.name })}</ErrorMessage> : null}
        </div>
        {taken && check.suggestions.length > 0 ? (
          <ul className="suggestions" part="name-suggestions">
            {check.suggestions.map((suggestion) => (
              <li key={suggestion}>
                <button
                  type="button"
                  className="secondary"
                  onClick={() => {
                    setValue(suggestion.split('.')[0] ?? '')
                    input.current?.focus()
                  }}
                >
                  <bdi>{suggestion}</bdi>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <div className="status" role="status">
        {busy ? t('signInWallet') : ''}
      </div>
      <button type="submit" className="primary" part="register-submit" aria-disabled={busy || undefined}>
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {t('register', { name: check?.available ? check.name : label })}
      </button>
      {current ? (
        <button
          type="button"
          className="secondary danger"
          part="release-name-button"
          aria-disabled={busy || undefined}
          onClick={() => void release()}
        >
          {t('releaseName', { name: current })}
        </button>
      ) : null}
    </form>
  )
}

/**
 * RegisterAccountNameSuccess (SPEC 2): the name is the account's; it may set its profile image (an
 * https:// link the wallet signs for); Done goes back to Account.
 */
function RegisterAccountNameSuccessView({ config }: ViewProps) {
  const { t, error: errorText } = useStrings()
  const autoFocus = useAutoFocus()
  const name = String(useStore(config.$modal).router.data?.name ?? '')
  const id = useId()
  const ids = { input: `${id}image`, error: `${id}error` }
  const input = useRef<HTMLInputElement>(null)
  const [image, setImage] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [state, setState] = useState<'idle' | 'busy' | 'set'>('idle')

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (state === 'busy') return
    const url = image.trim()
    if (!isAvatarUrl(url)) {
      setError(t('imageRuleError'))
      input.current?.focus()
      return
    }
    setError(undefined)
    setState('busy')
    try {
      await setProfileImage(config, url)
      setState('set')
    } catch (thrown) {
      setState('idle')
      setError(errorText(summarizeError(toBaseError(thrown))))
      input.current?.focus()
    }
  }

  return (
    <div className="center" part="register-name-success">
      <div role="status">
        <h3 className="success-name">{t('nameRegistered', { name })}</h3>
        <p className="hint">{t('nameRegisteredHint', { name })}</p>
      </div>
      <form className="form" part="profile-image" noValidate onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label htmlFor={ids.input}>{t('imageField')}</label>
          <input
            ref={input}
            id={ids.input}
            name="image"
            type="url"
            inputMode="url"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            dir="ltr"
            value={image}
            readOnly={state === 'busy'}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? ids.error : undefined}
            onChange={(event) => {
              setImage(event.target.value)
              if (state === 'set') setState('idle')
            }}
          />
          <Alert id={ids.error} text={error} />
          <div className="status" role="status">
            {state === 'busy' ? t('signInWallet') : state === 'set' ? t('imageSet') : ''}
          </div>
        </div>
        <button type="submit" className="secondary" aria-disabled={state === 'busy' || undefined}>
          {t('setImage')}
        </button>
      </form>
      <button
        type="button"
        className="primary"
        autoFocus={autoFocus}
        onClick={() => navigate(config, 'Account', undefined, 'replace')}
      >
        {t('done')}
      </button>
    </div>
  )
}

const views: Partial<Record<View, (props: ViewProps) => ReactNode>> = {
  RegisterAccountName: RegisterAccountNameView,
  RegisterAccountNameSuccess: RegisterAccountNameSuccessView,
  OnRamp: OnrampView,
}

/**
 * The name and on-ramp views (RegisterAccountName, RegisterAccountNameSuccess, OnRamp): one chunk with
 * its own catalogue, loaded when one of them is first shown. OnRamp lives in ./OnrampView.tsx.
 */
export default function NameViews({ config }: ViewProps) {
  const Current = views[useStore(config.$modal).router.view]
  return Current ? (
    <NamesScope>
      <Current config={config} />
    </NamesScope>
  ) : null
}
