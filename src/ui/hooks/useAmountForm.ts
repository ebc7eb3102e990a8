// useAmountForm: what the Send and Swap forms set up alike (balance, decimal separator, ids, field errors).
import { type RefObject, useEffect, useId } from 'react'
import type { Config } from '../../core/createConfig.ts'
import { balanceKey, fetchBalance, freshBalances, loadNetworks } from '../../core/index.ts'
import type { ErrorSummary } from '../../errors/index.ts'
import { useStrings } from '../modal/viewContext.ts'
import { type FormField, useFieldErrors } from './useFieldErrors.tsx'
import { useStore } from './useStore.ts'

/** A form's fields, each with a ref to focus it: the amount's input among them. */
export type AmountFormRefs = Record<string, RefObject<HTMLElement | null>> & {
  amount: RefObject<HTMLInputElement | null>
}

export interface AmountFormParameters<Refs extends AmountFormRefs> {
  /** The form's error (from its store), shown under the fields it names or above the button. */
  error: ErrorSummary | undefined
  refs: Refs
  /**
   * Called when the form opens; what it returns is loaded with the balance once the networks are
   * known (Swap's token list, for a new swap).
   */
  loadWith?: (() => (() => Promise<unknown>) | undefined) | undefined
}

/**
 * A form that spends a token of the connected account (Send, Swap): its networks and balance are
 * loaded when it opens and read again on each new block while it is shown; the amount is typed with
 * the language's decimal separator (`0,5` in German) and read by the core with `.`; each field has an
 * id (and the amount a `hint` for what is available), and the error sits under the fields it names
 * (see `useFieldErrors`).
 *
 * @example
 * const form = useAmountForm(config, { error, refs: { token: tokenRef, amount: amountRef } })
 * await sendToken(config, { amount: form.toPlain(amount), … })
 */
export function useAmountForm<Refs extends AmountFormRefs>(
  config: Config,
  { error, refs, loadWith }: AmountFormParameters<Refs>,
) {
  type Field = keyof Refs & string
  const strings = useStrings()
  const account = useStore(config.$account)
  const network = useStore(config.$network)
  const balances = useStore(config.$balances)
  // While the form is open, balances are read again on each new block (and when the tab shows again).
  useStore(freshBalances(config))

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per config, as the form opens.
  useEffect(() => {
    const more = loadWith?.()
    void loadNetworks(config).then(() => Promise.all([fetchBalance(config), more?.()]))
  }, [config])

  const id = useId()
  const names = Object.keys(refs) as Field[]
  const ids = Object.fromEntries([...names, 'hint'].map((name) => [name, `${id}${name}`])) as Record<
    Field | 'hint',
    string
  >
  const fields = {} as Record<Field, FormField>
  for (const name of names) fields[name] = { id: ids[name], ref: refs[name] as FormField['ref'] }
  const fieldErrors = useFieldErrors(error, fields)

  // People type the decimal separator of their language (`0,5` in German); the core reads `0.5`.
  const { decimalSeparator } = strings
  const toTyped = (plain: string) => plain.replace('.', decimalSeparator)
  const toPlain = (typed: string) => (decimalSeparator === '.' ? typed : typed.replace(decimalSeparator, '.'))

  return {
    ...fieldErrors,
    strings,
    account,
    network,
    /** The connected account's balance on the network shown, once read. */
    balance: account && network ? balances[balanceKey(network.caipNetworkId, account.address)] : undefined,
    ids,
    refs,
    toTyped,
    toPlain,
  }
}

/** What {@link useAmountForm} gives a form. */
export type AmountForm<Refs extends AmountFormRefs = AmountFormRefs> = ReturnType<typeof useAmountForm<Refs>>
