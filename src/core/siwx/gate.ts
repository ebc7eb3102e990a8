import type { AccountState, Config } from '../config.ts'

/**
 * Whether sign-in is required and the account has no session yet: until then the connection
 * does not count (the button offers to connect, opening goes to the sign-in view). Kept free of
 * imports: the button uses it on the first paint.
 *
 * @example
 * signInPending('required', account, config.$session.get())
 */
export function signInPending(
  mode: string,
  account: AccountState | undefined,
  session: { caipAddress: string } | undefined,
): boolean {
  return mode === 'required' && account !== undefined && session?.caipAddress !== account.caipAddress
}

/**
 * Whether the connected account's session is known (synchronous, from `$session`). Here rather
 * than beside the stored session: closing the modal asks it, and `close` is on the first paint.
 */
export function hasSession(config: Config): boolean {
  const account = config.$account.get()
  const known = config.$session.get()
  return account !== undefined && known !== undefined && known.caipAddress === account.caipAddress
}
