// The dev EVM accounts both EVM demo wallets sign with: the test mnemonic the local chain funds.
import { type HDAccount, mnemonicToAccount } from 'viem/accounts'

/** The publicly known test mnemonic; the same keys the local chain funds. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk'

/** Dev account `index` of the test mnemonic; throws a TypeError for an index that is not one. */
export function devAccount(index: number): HDAccount {
  if (!Number.isInteger(index) || index < 0) throw new TypeError(`Bad account index ${index}`)
  return mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index })
}
