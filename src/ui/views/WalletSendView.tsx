import { useEffect, useId, useState } from 'react'
import {
  balanceKey,
  fetchBalance,
  formatBalance,
  loadNetworks,
  NATIVE_TOKEN,
  navigate,
  sendToken,
  shortAddress,
} from '../../core/index.ts'
import { useStore } from '../hooks/useStore.ts'
import { en } from '../locales/en.ts'
import type { ViewProps } from '../modal/ModalShell.tsx'

/** Whole units with every digit, for the Max button (formatBalance rounds to 3 places). */
function exact(value: bigint, decimals: number): string {
  const base = 10n ** BigInt(decimals)
  const fraction = (value % base).toString().padStart(decimals, '0').replace(/0+$/, '')
  return fraction ? `${value / base}.${fraction}` : `${value / base}`
}

/**
 * Send: a token of the connected account (the native currency or, on Solana, an SPL token), an
 * amount and a receiver; the wallet approves, then the view waits for confirmation and shows the
 * result. Errors stay on the form with what was typed.
 */
export default function WalletSendView({ config }: ViewProps) {
  const account = useStore(config.$account)
  const network = useStore(config.$network)
  const balances = useStore(config.$balances)
  const send = useStore(config.$send)
  const [token, setToken] = useState<string>(NATIVE_TOKEN)
  const [amount, setAmount] = useState('')
  const [receiver, setReceiver] = useState('')
  const [sentText, setSentText] = useState<string | undefined>()
  const ids = { token: useId(), amount: useId(), receiver: useId(), error: useId() }

  useEffect(() => {
    config.$send.set({ status: 'idle', error: undefined, hash: undefined })
    void loadNetworks(config).then(() => fetchBalance(config))
  }, [config])

  if (!account || !network?.network) return null
  const balance = balances[balanceKey(network.caipNetworkId, account.address)]
  const native = network.network.nativeCurrency
  const choices = [
    { address: NATIVE_TOKEN, symbol: native.symbol, decimals: native.decimals, amount: balance?.value },
    ...(balance?.tokens ?? []).map((holding) => ({
      ...holding,
      amount: holding.amount as bigint | undefined,
    })),
  ]
  const chosen = choices.find((choice) => choice.address === token)
  const sending = send.status === 'sending'
  const explorer = network.network.blockExplorers?.default.url

  const submit = async (event: React.FormEvent) => {
    event.preventDefault()
    try {
      await sendToken(config, { token: chosen?.address, amount, receiver })
      setSentText(en.sent(`${amount.trim()} ${chosen?.symbol ?? ''}`, shortAddress(receiver.trim())))
      setAmount('')
      setReceiver('')
    } catch {
      // Shown from $send; what was typed stays.
    }
  }

  if (send.status === 'sent' && sentText) {
    return (
      <div className="center" part="send-result">
        <h3 role="status">{sentText}</h3>
        {explorer && send.hash ? (
          <a
            className="secondary"
            href={`${explorer.replace(/\/?(\?.*)?$/, (_, query = '') => `/tx/${send.hash}${query}`)}`}
            target="_blank"
            rel="noopener noreferrer"
          >
            {en.viewTransaction}
          </a>
        ) : null}
        <button type="button" className="primary" autoFocus onClick={() => navigate(config, 'back')}>
          {en.done}
        </button>
      </div>
    )
  }

  return (
    <form className="form" part="send-form" noValidate onSubmit={(event) => void submit(event)}>
      <label className="field" htmlFor={ids.token}>
        {en.token}
        <select
          id={ids.token}
          value={token}
          disabled={sending}
          autoFocus
          onChange={(event) => setToken(event.target.value)}
        >
          {choices.map((choice) => (
            <option key={choice.address} value={choice.address}>
              {choice.symbol}
              {choice.amount !== undefined ? ` (${formatBalance(choice.amount, choice.decimals)})` : ''}
            </option>
          ))}
        </select>
      </label>
      <div className="field">
        <label htmlFor={ids.amount}>{en.amount}</label>
        <input
          id={ids.amount}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.0"
          value={amount}
          disabled={sending}
          aria-describedby={send.error ? ids.error : undefined}
          onChange={(event) => setAmount(event.target.value)}
        />
        {chosen?.amount !== undefined ? (
          <span className="hint">
            {en.available(`${formatBalance(chosen.amount, chosen.decimals)} ${chosen.symbol}`)}
            <button
              type="button"
              className="link-button"
              disabled={sending}
              onClick={() => setAmount(exact(chosen.amount as bigint, chosen.decimals))}
            >
              {en.max}
            </button>
          </span>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={ids.receiver}>{en.receiver}</label>
        <input
          id={ids.receiver}
          name="receiver"
          autoComplete="off"
          spellCheck={false}
          placeholder={en.receiverPlaceholder(account.namespace)}
          value={receiver}
          disabled={sending}
          aria-describedby={send.error ? ids.error : undefined}
          onChange={(event) => setReceiver(event.target.value)}
        />
      </div>
      <div className="status" role="status" aria-live="polite">
        {send.error ? (
          <span className="error-text" id={ids.error} role="alert">
            {send.error.message}
          </span>
        ) : sending ? (
          en.sendWaiting
        ) : null}
      </div>
      <button type="submit" className="primary" part="send-submit" disabled={sending}>
        {sending ? <span className="spinner" aria-hidden="true" /> : null}
        {en.send}
      </button>
    </form>
  )
}
