import type * as z from 'zod/mini'
import { InvalidResponseError } from '../../errors/index.ts'
import {
  GetAccountAddressesResultSchema,
  SendTransferResultSchema,
  SignMessageResultSchema,
  SignPsbtResultSchema,
} from '../../protocol/bip122.ts'
import { CosmosAccountsSchema, CosmosSignResultSchema } from '../../protocol/cosmos.ts'
import {
  PolkadotSignMessageResultSchema,
  PolkadotSignTransactionResultSchema,
} from '../../protocol/polkadot.ts'

/** The answers whose shape the namespace's methods define, by method. */
const RESULTS: Record<string, z.ZodMiniType> = {
  getAccountAddresses: GetAccountAddressesResultSchema,
  signMessage: SignMessageResultSchema,
  signPsbt: SignPsbtResultSchema,
  sendTransfer: SendTransferResultSchema,
  polkadot_signMessage: PolkadotSignMessageResultSchema,
  polkadot_signTransaction: PolkadotSignTransactionResultSchema,
  cosmos_getAccounts: CosmosAccountsSchema,
  cosmos_signDirect: CosmosSignResultSchema,
  cosmos_signAmino: CosmosSignResultSchema,
}

/**
 * The wallet's answer to a bip122, polkadot or cosmos method, checked against the method's shape;
 * a malformed one is an `InvalidResponseError`. Other methods' answers pass as they are.
 *
 * @example
 * checkResult('cosmos_getAccounts', [{ algo: 'secp256k1', address: 'cosmos1…', pubkey: 'AgSE…' }])
 */
export function checkResult(method: string, value: unknown): unknown {
  const schema = RESULTS[method]
  if (!schema) return value
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw new InvalidResponseError({ method, received: value })
  return parsed.data
}
