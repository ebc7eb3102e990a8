// The OnRamp view: buying a token of the connected network with a card or bank transfer (shown in the
// name views' chunk, with their catalogue).
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { navigate } from '../../core/actions/navigate.ts'
import { parseAmount } from '../../core/amount.ts'
import type { OnrampSelection } from '../../core/onramp.ts'
import { buyOnramp, loadOnramp, onrampState, openedOnrampCheckout, quoteOnramp } from '../../core/onramp.ts'
import type { ErrorSummary } from '../../errors/base.ts'
import { withinLimits } from '../../protocol/api/onramp.ts'
import { Alert } from '../components/Alert.tsx'
import { useStore } from '../hooks/useStore.ts'
import { useAutoFocus, useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

/** How long typing must pause before the amount is quoted. */
const QUOTE_DELAY_MS = 300

/**
 * OnRamp: buy a token of the connected network with a card or bank transfer. The amount is checked
 * against the payment method's limits here (the service checks again), a quote follows the typing,
 * and Continue opens the provider's checkout in a new tab, then says when the tokens arrived. A tab the
 * browser refused is offered as a link to tap.
 */
export function OnrampView({ config }: ViewProps) {
  const strings = useStrings()
  const { t } = strings
  const autoFocus = useAutoFocus()
  const network = useStore(config.$network)
  const state = useStore(onrampState(config))
  const id = useId()
  const ids = { token: `${id}token`, method: `${id}method`, amount: `${id}amount`, error: `${id}error` }
  const amountInput = useRef<HTMLInputElement>(null)
  const [token, setToken] = useState('')
  const [method, setMethod] = useState<OnrampSelection['paymentMethod']>('card')
  const [amount, setAmount] = useState('50')
  const [rangeError, setRangeError] = useState<string | undefined>()

  useEffect(() => {
    void loadOnramp(config)
  }, [config])

  const chainId = network?.caipNetworkId ?? ''
  const tokens = (state.options?.purchaseCurrencies ?? []).filter((currency) =>
    currency.networks.some((entry) => entry.chain_id === chainId),
  )
  const chosen = tokens.find((currency) => currency.id === token) ?? tokens[0]
  // USD first, EUR as the fallback (SPEC 9).
  const payment =
    state.options?.paymentCurrencies.find((currency) => currency.id === 'USD') ??
    state.options?.paymentCurrencies[0]
  const limits = payment?.payment_method_limits.find((limit) => limit.id === method)
  const plain = amount.trim().replace(strings.decimalSeparator, '.')
  const selection: OnrampSelection | undefined =
    chosen && payment
      ? {
          purchaseCurrency: chosen.id,
          paymentCurrency: payment.id,
          paymentMethod: method,
          amount: plain,
          network: chainId,
        }
      : undefined
  const outOfRange = (): string | undefined =>
    limits && payment && !(/^\d{1,9}(\.\d{1,2})?$/.test(plain) && withinLimits(plain, limits))
      ? t('amountRangeError', { min: limits.min, max: limits.max, currency: payment.id })
      : undefined

  // The quote follows the typing, once it pauses, for an amount within the limits.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-quoted when the choice changes.
  useEffect(() => {
    if (!selection) return
    const problem = outOfRange()
    setRangeError(problem)
    if (problem) return
    const timer = setTimeout(() => void quoteOnramp(config, selection), QUOTE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [config, selection?.purchaseCurrency, selection?.paymentCurrency, method, plain, chainId])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!selection || state.loading || state.purchase) return
    const problem = outOfRange()
    setRangeError(problem)
    if (problem) return amountInput.current?.focus()
    // In the tap itself: the checkout's tab opens before anything is awaited.
    void buyOnramp(config, selection)
  }

  const failure: ErrorSummary | undefined = state.error
  const purchase = state.purchase
  /** A token amount as the rest of the modal shows it: 3 decimals, rounded down, in the language's digits. */
  const tokens3 = (amount: string) => {
    const value = parseAmount(amount, 18)
    return value === undefined ? amount : strings.balance(value, 18)
  }
  const money = (amount: string, currency: string) => {
    const value = Number(amount)
    return Number.isFinite(value) ? strings.currency(value, currency) : `${amount} ${currency}`
  }
  if (state.options && tokens.length === 0)
    return (
      <div className="center" part="onramp">
        <Alert text={t('onrampUnavailable')} />
      </div>
    )
  return (
    <form className="form" part="onramp" noValidate onSubmit={submit}>
      {/* The dialog's heading says "Buy crypto" already. */}
      <div className="field">
        <label htmlFor={ids.token}>{t('buyToken')}</label>
        <select
          id={ids.token}
          value={chosen?.id ?? ''}
          autoFocus={autoFocus}
          onChange={(event) => setToken(event.target.value)}
        >
          {tokens.map((currency) => (
            <option key={currency.id} value={currency.id}>
              {currency.symbol} · {currency.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.method}>{t('payWith')}</label>
        <select
          id={ids.method}
          value={method}
          onChange={(event) => setMethod(event.target.value as OnrampSelection['paymentMethod'])}
        >
          {(payment?.payment_method_limits ?? []).map((limit) => (
            <option key={limit.id} value={limit.id}>
              {t(limit.id)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.amount}>{t('amountIn', { currency: payment?.id ?? 'USD' })}</label>
        <input
          ref={amountInput}
          id={ids.amount}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          aria-invalid={rangeError ? true : undefined}
          aria-describedby={rangeError ? ids.error : undefined}
          onChange={(event) => setAmount(event.target.value)}
        />
        <Alert id={ids.error} text={rangeError} />
      </div>
      <div className="status" role="status" part="onramp-quote">
        {state.loading && !state.quote
          ? t('quoteLoading')
          : state.quote && !rangeError
            ? t('youGet', {
                amount: tokens3(state.quote.purchaseAmount.amount),
                symbol: state.quote.purchaseAmount.currency,
                fee: money(state.quote.fee.amount, state.quote.fee.currency),
              })
            : ''}
      </div>
      {/* Once the payment has started, its status is what the person needs: shown as the result, with
          Done as the main action, so nobody pays twice. */}
      <div className="purchase" role="status" part="onramp-purchase">
        {purchase ? (
          <h3 data-status={purchase.status}>
            {purchase.status === 'pending'
              ? t(purchase.blockedCheckout ? 'checkoutBlocked' : 'checkoutOpened')
              : purchase.status === 'completed' && state.quote
                ? t('purchaseArrived', {
                    amount: tokens3(state.quote.purchaseAmount.amount),
                    symbol: state.quote.purchaseAmount.currency,
                  })
                : purchase.status === 'failed'
                  ? t('purchaseFailed')
                  : ''}
          </h3>
        ) : null}
      </div>
      <Alert
        text={failure && !rangeError ? t('failedWith', { message: strings.error(failure) }) : undefined}
      />
      {purchase?.blockedCheckout ? (
        // The browser refused the tab: a link opens it from the person's own tap (never blocked).
        <a
          className="primary"
          part="onramp-open-checkout"
          href={purchase.blockedCheckout}
          target="_blank"
          rel="noopener noreferrer"
          onClick={() => openedOnrampCheckout(config)}
        >
          {t('openCheckout')}
        </a>
      ) : purchase ? (
        <button type="button" className="primary" part="onramp-done" onClick={() => navigate(config, 'back')}>
          {t('done')}
        </button>
      ) : (
        <button
          type="submit"
          className="primary"
          part="onramp-submit"
          aria-disabled={state.loading || undefined}
        >
          {state.loading ? <span className="spinner" aria-hidden="true" /> : null}
          {t('continueToPayment')}
        </button>
      )}
    </form>
  )
}
