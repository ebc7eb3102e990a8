import { useId, useRef } from 'react'
import {
  editSend,
  maxSendAmount,
  NATIVE_TOKEN,
  navigate,
  resetSend,
  sendToken,
  shortAddress,
  usdValue,
} from '../../core/index.ts'
import { AccountScope } from '../components/AccountScope.tsx'
import { AmountField } from '../components/AmountField.tsx'
import { ErrorMessage } from '../components/Message.tsx'
import { useAmountForm } from '../hooks/useAmountForm.ts'
import { useStore } from '../hooks/useStore.ts'
import { useAutoFocus } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

/** Whole units with every digit, for the Max button (the balance shown rounds to 3 places). */
function exact(value: bigint, decimals: number): string {
  const base = 10n ** BigInt(decimals)
  const fraction = (value % base).toString().padStart(decimals, '0').replace(/0+$/, '')
  return fraction ? `${value / base}.${fraction}` : `${value / base}`
}

/**
 * Send: a token of the connected account (the native currency, an ERC-20 of the service's list on
 * EVM, an SPL token on Solana), an amount and a receiver, with the balance's and the amount's value in
 * US dollars where the service has a price, and a Max that leaves the fee of a native send; the
 * active connector's wallet approves, then the view waits for confirmation and shows the result. Errors stay on the form with what was typed: a field's error sits under it (the field is
 * `aria-invalid` and described by it) and the first invalid field takes focus; the wallet's and
 * the network's errors sit above Send. While sending, the controls are `aria-disabled` and keep focus.
 */
function WalletSend({ config }: ViewProps) {
  const autoFocus = useAutoFocus()
  const speedId = useId()
  // What was typed, the send in flight and its result live in the send store: the wallet's approval
  // view replaces this one while it asks, and the form (or the result) is still here after it.
  const send = useStore(config.$send)
  const { token, amount, receiver, speed = 'normal' } = send.form
  const setToken = (value: string) => editSend(config, { token: value })
  const setAmount = (value: string) => editSend(config, { amount: value })
  const setReceiver = (value: string) => editSend(config, { receiver: value })
  const refs = {
    token: useRef<HTMLSelectElement>(null),
    amount: useRef<HTMLInputElement>(null),
    receiver: useRef<HTMLInputElement>(null),
  }
  const error = send.status === 'error' ? send.error : undefined
  const form = useAmountForm(config, { error, refs })
  const { strings, account, network, balance, ids, firstInvalid, described, fieldError, toTyped, toPlain } =
    form
  const { t } = strings

  if (!account || !network?.network) return null
  const native = network.network.nativeCurrency
  const choices = [
    {
      address: NATIVE_TOKEN,
      symbol: native.symbol,
      decimals: native.decimals,
      amount: balance?.value,
      price: balance?.nativePrice ?? null,
    },
    ...(balance?.tokens ?? []).map((holding) => ({
      ...holding,
      amount: holding.amount as bigint | undefined,
    })),
  ]
  const chosen = choices.find((choice) => choice.address === token)
  const sending = send.status === 'sending'
  const explorer = network.network.blockExplorers?.default.url
  // What the amount typed is worth: an estimate for the eye, so a float is enough.
  const typed = Number(toPlain(amount.trim()))
  const amountUsd =
    chosen?.price !== null &&
    chosen?.price !== undefined &&
    amount.trim() !== '' &&
    Number.isFinite(typed) &&
    typed >= 0
      ? typed * chosen.price
      : undefined
  const heldUsd =
    chosen?.amount !== undefined ? usdValue(chosen.amount, chosen.decimals, chosen.price) : undefined
  const fillMax = async () => {
    if (sending || !chosen) return
    const max = await maxSendAmount(config, chosen.address).catch(() => chosen.amount)
    if (max !== undefined) setAmount(toTyped(exact(max, chosen.decimals)))
  }

  const submit = async (event: React.FormEvent) => {
    event.preventDefault()
    if (sending) return
    try {
      await sendToken(config, {
        token: chosen?.address,
        amount: toPlain(amount),
        receiver,
        ...(account?.namespace === 'bip122' ? { speed } : {}),
      })
    } catch {
      // Shown from $send; what was typed stays.
    }
  }

  if (send.status === 'sent' && send.sent) {
    const { sent } = send
    return (
      <div className="center" part="send-result">
        <div role="status">
          <h3>
            {t('sent', {
              amount: `${toTyped(sent.amount)} ${sent.symbol}`,
              // A name (`alice.wallet.test`) as typed; an address shortened.
              receiver: sent.receiver.includes('.') ? sent.receiver : shortAddress(sent.receiver),
            })}
          </h3>
        </div>
        {explorer && send.hash ? (
          <a
            className="secondary"
            href={`${explorer.replace(/\/?(\?.*)?$/, (_, query = '') => `/tx/${send.hash}${query}`)}`}
            target="_blank"
            rel="noopener noreferrer"
          >
            {t('viewTransaction')}
          </a>
        ) : null}
        <button
          type="button"
          className="primary"
          autoFocus={autoFocus}
          onClick={() => {
            resetSend(config)
            navigate(config, 'back')
          }}
        >
          {t('done')}
        </button>
      </div>
    )
  }

  return (
    <form className="form" part="send-form" noValidate onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label htmlFor={ids.token}>{t('token')}</label>
        <select
          id={ids.token}
          ref={refs.token}
          value={token}
          aria-disabled={sending}
          autoFocus={autoFocus}
          {...described('token')}
          onChange={(event) => {
            if (!sending) setToken(event.target.value)
          }}
        >
          {choices.map((choice) => (
            <option key={choice.address} value={choice.address}>
              {choice.symbol}
              {choice.amount !== undefined ? ` (${strings.balance(choice.amount, choice.decimals)})` : ''}
            </option>
          ))}
        </select>
        <div role="alert">{fieldError('token')}</div>
      </div>
      <AmountField
        form={form}
        value={amount}
        onChange={setAmount}
        busy={sending}
        hint={chosen?.amount !== undefined}
      >
        {amountUsd !== undefined ? (
          <span className="hint" part="amount-value">
            {t('amountValue', { value: strings.currency(amountUsd, 'USD') })}
          </span>
        ) : null}
        {chosen?.amount !== undefined ? (
          <span className="hint">
            <span id={ids.hint}>
              {heldUsd !== undefined
                ? t('availableWithValue', {
                    amount: `${strings.balance(chosen.amount, chosen.decimals)} ${chosen.symbol}`,
                    value: strings.currency(heldUsd, 'USD'),
                  })
                : t('available', {
                    amount: `${strings.balance(chosen.amount, chosen.decimals)} ${chosen.symbol}`,
                  })}
            </span>
            <button
              type="button"
              className="link-button"
              aria-disabled={sending}
              onClick={() => void fillMax()}
            >
              {t('max')}
            </button>
          </span>
        ) : null}
      </AmountField>
      <div className="field">
        <label htmlFor={ids.receiver}>{t('receiver')}</label>
        <input
          id={ids.receiver}
          ref={refs.receiver}
          name="receiver"
          autoComplete="off"
          spellCheck={false}
          dir="auto"
          placeholder={t('receiverPlaceholder', { namespace: account.namespace })}
          value={receiver}
          readOnly={sending}
          aria-disabled={sending}
          {...described('receiver')}
          onChange={(event) => setReceiver(event.target.value)}
        />
        <div role="alert">{fieldError('receiver')}</div>
      </div>
      {account.namespace === 'bip122' ? (
        <div className="field">
          <label htmlFor={speedId}>{t('feeSpeed')}</label>
          <select
            id={speedId}
            name="speed"
            value={speed}
            aria-disabled={sending}
            onChange={(event) => {
              if (!sending) editSend(config, { speed: event.target.value as typeof speed })
            }}
          >
            {(['slow', 'normal', 'fast'] as const).map((choice) => (
              <option key={choice} value={choice}>
                {t('feeSpeedChoice', { speed: choice })}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="status" role="status">
        {sending ? t('sendWaiting') : null}
      </div>
      <div className="live" role="alert">
        {error && !firstInvalid ? <ErrorMessage>{strings.error(error)}</ErrorMessage> : null}
      </div>
      <button type="submit" className="primary" part="send-submit" aria-disabled={sending}>
        {sending ? <span className="spinner" aria-hidden="true" /> : null}
        {t('send')}
      </button>
    </form>
  )
}

/** WalletSend, in the words and styles of the views after connecting (`AccountScope`). */
export default function WalletSendView(props: ViewProps) {
  return (
    <AccountScope>
      <WalletSend {...props} />
    </AccountScope>
  )
}
