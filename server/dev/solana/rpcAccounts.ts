// The Solana JSON-RPC methods about accounts: balances, account data and SPL token accounts.
import { z } from 'zod'
import { parseMint, parseTokenAccount, TOKEN_PROGRAMS, tokenAmount } from './accounts.ts'
import { invalidParams } from './errors.ts'
import { checkMinContextSlot, type RpcMethods, withContext } from './rpcContext.ts'
import { encodeAccount } from './rpcJson.ts'
import { accountConfig, address, contextConfig, MAX_MULTIPLE_ACCOUNTS, parse } from './rpcParams.ts'

/** getBalance, getAccountInfo, getMultipleAccounts and the SPL token reads. */
export const accountMethods: RpcMethods = {
  getBalance: (params, { ledger }) => {
    const [key, config] = parse(z.tuple([address, contextConfig.optional()]), params)
    checkMinContextSlot(ledger, config)
    return withContext(ledger, Number(ledger.getAccount(key)?.lamports ?? 0n))
  },

  getAccountInfo: (params, { ledger }) => {
    const [key, config] = parse(z.tuple([address, accountConfig.optional()]), params)
    checkMinContextSlot(ledger, config)
    return withContext(
      ledger,
      encodeAccount(ledger, ledger.getAccount(key), config?.encoding ?? 'binary', config?.dataSlice),
    )
  },

  getMultipleAccounts: (params, { ledger }) => {
    const [keys, config] = parse(z.tuple([z.array(address), accountConfig.optional()]), params)
    if (keys.length > MAX_MULTIPLE_ACCOUNTS) {
      throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`)
    }
    checkMinContextSlot(ledger, config)
    const encoding = config?.encoding ?? 'base64'
    return withContext(
      ledger,
      keys.map((key) => encodeAccount(ledger, ledger.getAccount(key), encoding, config?.dataSlice)),
    )
  },

  getTokenAccountsByOwner: (params, { ledger }) => {
    const [owner, filter, config] = parse(
      z.tuple([
        address,
        z.union([z.object({ mint: address }), z.object({ programId: address })]),
        accountConfig.optional(),
      ]),
      params,
    )
    checkMinContextSlot(ledger, config)
    if ('mint' in filter) {
      if (!parseMint(ledger.getAccount(filter.mint))) throw invalidParams('could not find mint')
    } else if (!TOKEN_PROGRAMS.has(filter.programId.toBase58())) {
      throw invalidParams('unrecognized Token program id')
    }
    const encoding = config?.encoding ?? 'binary'
    return withContext(
      ledger,
      ledger.tokenAccountsByOwner(owner, filter).map(([key, account]) => ({
        pubkey: key.toBase58(),
        account: encodeAccount(ledger, account, encoding, config?.dataSlice),
      })),
    )
  },

  getTokenAccountBalance: (params, { ledger }) => {
    const [key, config] = parse(z.tuple([address, contextConfig.optional()]), params)
    checkMinContextSlot(ledger, config)
    const account = ledger.getAccount(key)
    if (!account) throw invalidParams('could not find account')
    const state = parseTokenAccount(account)
    const mint = state ? parseMint(ledger.getAccount(state.mint)) : null
    if (!state || !mint) throw invalidParams('not a Token account')
    return withContext(ledger, tokenAmount(state.amount, mint.decimals))
  },

  getTokenSupply: (params, { ledger }) => {
    const [key, config] = parse(z.tuple([address, contextConfig.optional()]), params)
    checkMinContextSlot(ledger, config)
    const mint = parseMint(ledger.getAccount(key))
    if (!mint) throw invalidParams('not a Token mint')
    return withContext(ledger, tokenAmount(mint.supply, mint.decimals))
  },
}
