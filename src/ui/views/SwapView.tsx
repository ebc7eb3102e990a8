import { useEffect, useRef } from 'react'
import type { SwapToken } from '../../core/index.ts'
import {
  editSwap,
  formatBalance,
  loadSwap,
  navigate,
  quoteSwap,
  resetSwap,
  swapTokens,
  usdValue,
} from '../../core/index.ts'
import { AccountScope } from '../components/AccountScope.tsx'
import { AmountField } from '../components/AmountField.tsx'
import { SwitchIcon } from '../components/Icons.tsx'
import { ErrorMessage } from '../components/Message.tsx'
import { useAmountForm } from '../hooks/useAmountForm.ts'
import { useStore } from '../hooks/useStore.ts'
import { useAutoFocus } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

/** Typing waits this long before a quote is asked for. */
const QUOTE_DEBOUNCE_MS = 300
/** The network fee is shown with this many decimals of the native currency. */
const FEE_PLACES = 6

/**
 * Swap (SPEC section 2): the token to sell and its amount, the token to buy; the quote (best of the
 * direct pool and one hop), its price impact, the minimum received at 1 % slippage and the network
 * fee, asked again 30 s after each quote. Swap sends, through the active connector's wallet, an
 * approval first when the sold token's allowance is short, then the swap; the result shows what
 * arrived, and balances are read again. A network without swaps shows `Network not supported for
 * Swaps`; errors stay on the form (a field's under it, the others above the button).
 */
function Swap({ config }: ViewProps) {
  const autoFocus = useAutoFocus()
  // The form, the swap in flight and its result live in the swap store: the wallet's approval view
  // replaces this one while it asks, and the form (or the result) is still here after it.
  const swap = useStore(config.$swap)
  const { from = 'native', to = '', amount = '' } = swap.form ?? {}
  const setFrom = (value: string) => editSwap(config, { from: value })
  const setTo = (value: string) => editSwap(config, { to: value })
  const setAmount = (value: string) => editSwap(config, { amount: value })
  const refs = {
    from: useRef<HTMLSelectElement>(null),
    to: useRef<HTMLSelectElement>(null),
    amount: useRef<HTMLInputElement>(null),
  }
  const error = swap.error
  const form = useAmountForm(config, {
    error,
    refs,
    // Tokens are loaded for a new swap (Account's Swap clears the store); back from the wallet's
    // approval, the swap in flight and its form stay as they are.
    loadWith: () => (config.$swap.get().tokens.length === 0 ? () => loadSwap(config) : undefined),
  })
  const { strings, account, network, balance, ids, firstInvalid, described, fieldError, toPlain } = form
  const { t } = strings

  // Once the tokens are known, buy the first one that is not sold (the list's first: its stablecoin).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the list changes.
  useEffect(() => {
    if (swap.tokens.length > 0 && !swap.tokens.some((token) => token.address === to))
      setTo(swap.tokens.find((token) => token.address !== from)?.address ?? '')
  }, [swap.tokens])

  // A quote for what is on the form, after a pause in typing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: asks again when the request changes.
  useEffect(() => {
    if (!to || swap.tokens.length === 0) return
    // Back from the approval view: the swap in flight, its result or the quote for this form stay.
    const { status, request } = config.$swap.get()
    if (status === 'approving' || status === 'swapping' || status === 'swapped') return
    if (
      request &&
      status !== 'idle' &&
      request.from === from &&
      request.to === to &&
      request.amount === toPlain(amount).trim()
    )
      return
    const timer = setTimeout(
      () => void quoteSwap(config, { from, to, amount: toPlain(amount) }),
      amount.trim() ? QUOTE_DEBOUNCE_MS : 0,
    )
    return () => clearTimeout(timer)
  }, [config, from, to, amount, swap.tokens])

  // A quote is good for 30 s: then a new one takes its place.
  useEffect(() => {
    const { quote, request, status } = swap
    if (status !== 'quoted' || !quote || !request) return
    const timer = setTimeout(
      () => void quoteSwap(config, request),
      Math.max(0, quote.expiresAt - config.platform.now()),
    )
    return () => clearTimeout(timer)
  }, [config, swap])

  const busy = swap.status === 'approving' || swap.status === 'swapping'

  if (!account || !network?.network) return null

  if (swap.status === 'loading' || (swap.status === 'idle' && swap.tokens.length === 0)) {
    return (
      <div className="fallback" role="status">
        <span className="spinner" aria-hidden="true" /> {t('loading')}
      </div>
    )
  }
  if (swap.status === 'unsupported' || swap.tokens.length === 0) {
    return (
      <div className="live" role="alert">
        {error ? <ErrorMessage>{strings.error(error)}</ErrorMessage> : null}
      </div>
    )
  }

  const held = (token: SwapToken | undefined) =>
    token?.address === 'native'
      ? balance?.value
      : (balance?.tokens.find((holding) => holding.address.toLowerCase() === token?.address.toLowerCase())
          ?.amount ?? (balance ? 0n : undefined))
  const fromToken = swap.tokens.find((token) => token.address === from)
  const toToken = swap.tokens.find((token) => token.address === to)
  const native = swap.tokens[0]
  const quote = swap.status === 'quoted' || swap.status === 'error' || busy ? swap.quote : undefined
  const percent = (value: number) =>
    new Intl.NumberFormat(strings.locale, { style: 'percent', maximumFractionDigits: 2 }).format(value / 100)
  const amountOf = (value: bigint, token: SwapToken | undefined, places?: number) =>
    `${formatBalance(value, token?.decimals ?? 18, { locale: strings.locale, ...(places ? { places } : {}) })} ${token?.symbol ?? ''}`
  const withValue = (text: string, value: number | undefined) =>
    value === undefined ? text : `${text} (${strings.currency(value, 'USD')})`

  const submit = async (event: React.FormEvent) => {
    event.preventDefault()
    if (busy || !quote) return
    try {
      // The form stays as it was behind the result, so nothing asks for a new quote.
      await swapTokens(config)
    } catch {
      // Shown from $swap: the form keeps what was typed and the (new) quote.
    }
  }

  if (swap.status === 'swapped') {
    return (
      <div className="center" part="swap-result">
        <div role="status">
          <h3>
            {t('swapped', {
              paid: form.toTyped(swap.paid ?? ''),
              received:
                swap.received !== undefined ? amountOf(swap.received, toToken) : (toToken?.symbol ?? ''),
            })}
          </h3>
        </div>
        <button
          type="button"
          className="primary"
          autoFocus={autoFocus}
          onClick={() => {
            resetSwap(config)
            navigate(config, 'back')
          }}
        >
          {t('done')}
        </button>
      </div>
    )
  }

  const option = (token: SwapToken) => {
    const amountHeld = held(token)
    return (
      <option key={token.address} value={token.address}>
        {token.symbol}
        {amountHeld !== undefined ? ` (${strings.balance(amountHeld, token.decimals)})` : ''}
      </option>
    )
  }
  const choose = (field: 'from' | 'to', value: string) => {
    if (busy) return
    // Choosing the other side's token switches the two.
    const other = field === 'from' ? to : from
    if (value === other)
      editSwap(config, field === 'from' ? { from: value, to: from } : { from: to, to: value })
    else if (field === 'from') setFrom(value)
    else setTo(value)
  }
  const heldFrom = held(fromToken)
  const status =
    swap.status === 'quoting'
      ? t('quoting')
      : swap.status === 'approving'
        ? t('approveWaiting', { symbol: fromToken?.symbol ?? '' })
        : swap.status === 'swapping'
          ? t('swapWaiting')
          : null

  return (
    <form className="form" part="swap-form" noValidate onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label htmlFor={ids.from}>{t('swapFrom')}</label>
        <select
          id={ids.from}
          ref={refs.from}
          value={from}
          aria-disabled={busy}
          {...described('from')}
          onChange={(event) => choose('from', event.target.value)}
        >
          {swap.tokens.map(option)}
        </select>
        <div role="alert">{fieldError('from')}</div>
      </div>
      <AmountField
        form={form}
        value={amount}
        onChange={setAmount}
        busy={busy}
        autoFocus={autoFocus}
        hint={heldFrom !== undefined}
      >
        {heldFrom !== undefined && fromToken ? (
          <span className="hint" id={ids.hint}>
            {t('available', {
              amount: `${strings.balance(heldFrom, fromToken.decimals)} ${fromToken.symbol}`,
            })}
          </span>
        ) : null}
      </AmountField>
      <button
        type="button"
        className="icon-button switch-button"
        part="switch-button"
        aria-label={t('switchTokens')}
        aria-disabled={busy}
        onClick={() => {
          if (busy) return
          editSwap(config, { from: to, to: from })
        }}
      >
        <SwitchIcon />
      </button>
      <div className="field">
        <label htmlFor={ids.to}>{t('swapTo')}</label>
        <select
          id={ids.to}
          ref={refs.to}
          value={to}
          aria-disabled={busy}
          {...described('to')}
          onChange={(event) => choose('to', event.target.value)}
        >
          {swap.tokens.map(option)}
        </select>
        <div role="alert">{fieldError('to')}</div>
      </div>
      {quote ? (
        <dl className="quote" part="quote">
          <div>
            <dt>{t('expectedOutput')}</dt>
            <dd>
              <bdi>
                {withValue(
                  amountOf(BigInt(quote.amountOut), toToken),
                  usdValue(BigInt(quote.amountOut), toToken?.decimals ?? 18, toToken?.price),
                )}
              </bdi>
            </dd>
          </div>
          <div>
            <dt>{t('priceImpact')}</dt>
            <dd>
              <bdi>{percent(quote.priceImpactPercent)}</bdi>
            </dd>
          </div>
          <div>
            <dt>{t('minimumReceived', { percent: percent(quote.slippagePercent) })}</dt>
            <dd>
              <bdi>{amountOf(BigInt(quote.minimumReceived), toToken)}</bdi>
            </dd>
          </div>
          <div>
            <dt>{t('networkFee')}</dt>
            <dd>
              {swap.networkFee !== undefined ? (
                <bdi>
                  {withValue(
                    amountOf(swap.networkFee, native, FEE_PLACES),
                    usdValue(swap.networkFee, native?.decimals ?? 18, native?.price),
                  )}
                </bdi>
              ) : swap.feeError ? (
                <ErrorMessage>{strings.error(swap.feeError)}</ErrorMessage>
              ) : null}
            </dd>
          </div>
        </dl>
      ) : null}
      <div className="status" role="status">
        {status}
      </div>
      <div className="live" role="alert">
        {error && !firstInvalid ? <ErrorMessage>{strings.error(error)}</ErrorMessage> : null}
      </div>
      <button
        type="submit"
        className="primary"
        part="swap-submit"
        aria-disabled={busy || !quote || (swap.status === 'error' && firstInvalid !== undefined)}
      >
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {swap.needsApproval ? t('approveAndSwap', { symbol: fromToken?.symbol ?? '' }) : t('swap')}
      </button>
    </form>
  )
}

/** Swap, in the words and styles of the views after connecting (`AccountScope`). */
export default function SwapView(props: ViewProps) {
  return (
    <AccountScope>
      <Swap {...props} />
    </AccountScope>
  )
}
