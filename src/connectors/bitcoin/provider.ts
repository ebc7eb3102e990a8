import type * as z from 'zod/mini'
import { InvalidResponseError, toBaseError } from '../../errors/index.ts'
import {
  type AccountAddress,
  Bip122Method,
  GetAccountAddressesParamsSchema,
  type SendTransferParams,
  SendTransferParamsSchema,
  SendTransferResultSchema,
  SignMessageParamsSchema,
  SignMessageResultSchema,
  type SignPsbtParams,
  SignPsbtParamsSchema,
  SignPsbtResultSchema,
} from '../../protocol/bip122.ts'
import type { Eip1193Provider } from '../types.ts'

/** What a Bitcoin browser wallet does, whichever interface it speaks (Wallet Standard, WBIP004). */
export interface BitcoinWalletBackend {
  /** The connected account's addresses (its payment address first); empty when not connected. */
  addresses(): readonly AccountAddress[]
  signMessage(input: { address: string; message: string; protocol: 'ecdsa' | 'bip322' }): Promise<unknown>
  signPsbt(input: Omit<SignPsbtParams, 'account'>): Promise<unknown>
  /** Absent when the wallet cannot build a payment itself (the caller then builds a PSBT). */
  sendTransfer?(input: Omit<SendTransferParams, 'account'>): Promise<unknown>
}

export const invalidParams = (details: string) =>
  toBaseError({ code: -32602, message: `Invalid params: ${details}` })
export const unsupported = (method: string) =>
  toBaseError({ code: 4200, message: `The wallet does not support ${method}.` }, { method })
export const unauthorized = () =>
  toBaseError({ code: 4100, message: 'The requested account has not been authorized by the user.' })

function parse<T>(method: string, schema: z.ZodMiniType<T>, params: unknown): T {
  const parsed = schema.safeParse(params)
  if (!parsed.success) throw invalidParams(`${method}: ${parsed.error.issues[0]?.message ?? ''}`)
  return parsed.data
}

function checked<T>(method: string, schema: z.ZodMiniType<T>, result: unknown): T {
  const parsed = schema.safeParse(result)
  if (!parsed.success)
    throw new InvalidResponseError({ method, received: result, details: parsed.error.issues[0]?.message })
  return parsed.data
}

/**
 * The `bip122` provider of a Bitcoin browser wallet: WalletConnect's Bitcoin methods
 * (`getAccountAddresses`, `signMessage`, `signPsbt`, `sendTransfer`) over the wallet's own interface,
 * params and answers checked. `account` must be the connected account's first address.
 *
 * @example
 * const provider = bitcoinProvider(backend)
 * await provider.request({ method: 'signPsbt', params: { account, psbt, signInputs: [{ address: account, index: 0 }] } })
 */
export function bitcoinProvider(backend: BitcoinWalletBackend): Eip1193Provider {
  const requireAccount = (account: string) => {
    const addresses = backend.addresses()
    if (addresses[0]?.address !== account) throw unauthorized()
    return addresses
  }
  return {
    async request({ method, params }) {
      try {
        switch (method) {
          case Bip122Method.getAccountAddresses: {
            const input = parse(method, GetAccountAddressesParamsSchema, params)
            const addresses = requireAccount(input.account)
            return input.intentions
              ? addresses.filter((entry) => !entry.intention || input.intentions?.includes(entry.intention))
              : [...addresses]
          }
          case Bip122Method.signMessage: {
            const input = parse(method, SignMessageParamsSchema, params)
            const addresses = requireAccount(input.account)
            const address = input.address ?? input.account
            if (!addresses.some((entry) => entry.address === address)) throw unauthorized()
            const result = await backend.signMessage({
              address,
              message: input.message,
              protocol: input.protocol ?? 'ecdsa',
            })
            return checked(method, SignMessageResultSchema, result)
          }
          case Bip122Method.signPsbt: {
            const { account, ...input } = parse(method, SignPsbtParamsSchema, params)
            requireAccount(account)
            return checked(method, SignPsbtResultSchema, await backend.signPsbt(input))
          }
          case Bip122Method.sendTransfer: {
            const { account, ...input } = parse(method, SendTransferParamsSchema, params)
            requireAccount(account)
            if (!backend.sendTransfer) throw unsupported(method)
            return checked(method, SendTransferResultSchema, await backend.sendTransfer(input))
          }
          default:
            throw unsupported(method)
        }
      } catch (error) {
        throw toBaseError(error, { method })
      }
    },
  }
}
