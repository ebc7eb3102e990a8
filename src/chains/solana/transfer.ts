/**
 * Building SOL and SPL token transfers for the wallet to sign. The only module here that imports
 * `@solana/web3.js`: load it lazily, when the person opens the send view. The two SPL instructions
 * are written by hand so `@solana/spl-token` stays out of the bundle.
 */
import { PublicKey, SystemProgram, Transaction, TransactionInstruction } from '@solana/web3.js'
import * as z from 'zod/mini'
import { ValidationError } from '../../errors/index.ts'
import { isSolanaAddress } from './address.ts'
import { InsufficientTokenBalanceError } from './errors.ts'
import {
  AddressSchema,
  type SolanaRpc,
  solanaRequest,
  U64StringSchema,
  UnsignedSchema,
  withContext,
} from './rpc.ts'
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from './tokens.ts'

export {
  type ConfirmedSignature,
  type ConfirmSignatureOptions,
  confirmSignature,
} from './confirm.ts'

const U64_MAX = 2n ** 64n - 1n

/** Token program instruction `TransferChecked`. */
const TRANSFER_CHECKED = 12
/** Associated Token Account program instruction `CreateIdempotent`. */
const CREATE_IDEMPOTENT = 1

/** Parameters of {@link buildSolTransfer}. */
export interface SolTransferParameters {
  /** Sender and fee payer. */
  readonly from: string
  readonly to: string
  readonly lamports: bigint
}

/** Parameters of {@link buildTokenTransfer}. */
export interface TokenTransferParameters {
  /** Owner of the source token account, and fee payer. */
  readonly from: string
  /** Owner of the destination token account (a wallet address, not a token account). */
  readonly to: string
  readonly mint: string
  /** Base units. */
  readonly amount: bigint
  /** The mint's decimals; `TransferChecked` fails on chain when they are wrong. */
  readonly decimals: number
}

const BlockhashSchema = withContext(
  z.object({ blockhash: AddressSchema, lastValidBlockHeight: UnsignedSchema }),
)

const ParsedTokenAccountSchema = withContext(
  z.nullable(
    z.object({
      data: z.object({
        parsed: z.object({
          info: z.object({
            mint: AddressSchema,
            owner: AddressSchema,
            tokenAmount: z.object({ amount: U64StringSchema, decimals: z.int().check(z.nonnegative()) }),
          }),
        }),
      }),
    }),
  ),
)

const RawAccountSchema = withContext(
  z.nullable(z.object({ owner: AddressSchema, data: z.tuple([z.string(), z.literal('base64')]) })),
)

function address(value: string, field: string): PublicKey {
  if (!isSolanaAddress(value))
    throw new ValidationError('Invalid Solana address', {
      path: [field],
      details: value,
      messageId: 'invalidSolanaAddress',
      fields: field === 'to' ? ['receiver'] : [],
    })
  return new PublicKey(value)
}

function checkAmount(value: bigint, field: string): void {
  if (value <= 0n)
    throw new ValidationError('Amount must be greater than zero', {
      path: [field],
      messageId: 'amountNotPositive',
      fields: ['amount'],
    })
  if (value > U64_MAX)
    throw new ValidationError('Amount is too large', {
      path: [field],
      messageId: 'amountTooLarge',
      fields: ['amount'],
    })
}

async function latestBlockhash(rpc: SolanaRpc): Promise<{ blockhash: string; lastValidBlockHeight: number }> {
  const { value } = await solanaRequest(
    rpc,
    'getLatestBlockhash',
    [{ commitment: 'confirmed' }],
    BlockhashSchema,
  )
  return value
}

/**
 * The associated token account of `owner` for `mint` (SPL Token program).
 *
 * @example
 * findAssociatedTokenAddress(new PublicKey(owner), new PublicKey(mint)).toBase58()
 */
export function findAssociatedTokenAddress(owner: PublicKey, mint: PublicKey): PublicKey {
  const [ata] = PublicKey.findProgramAddressSync(
    [owner.toBytes(), new PublicKey(TOKEN_PROGRAM_ADDRESS).toBytes(), mint.toBytes()],
    new PublicKey(ASSOCIATED_TOKEN_PROGRAM_ADDRESS),
  )
  return ata
}

// web3.js 1.x types instruction data as Buffer, but only reads it as bytes; there is no global
// Buffer in browsers, so a Uint8Array goes in.
const bytes = (data: Uint8Array): Buffer => data as Buffer

function createIdempotentInstruction(
  payer: PublicKey,
  ata: PublicKey,
  owner: PublicKey,
  mint: PublicKey,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: new PublicKey(ASSOCIATED_TOKEN_PROGRAM_ADDRESS),
    keys: [
      { pubkey: payer, isSigner: true, isWritable: true },
      { pubkey: ata, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: false, isWritable: false },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      { pubkey: new PublicKey(TOKEN_PROGRAM_ADDRESS), isSigner: false, isWritable: false },
    ],
    data: bytes(Uint8Array.of(CREATE_IDEMPOTENT)),
  })
}

function transferCheckedInstruction(
  source: PublicKey,
  mint: PublicKey,
  destination: PublicKey,
  owner: PublicKey,
  amount: bigint,
  decimals: number,
): TransactionInstruction {
  const data = new Uint8Array(10)
  const view = new DataView(data.buffer)
  view.setUint8(0, TRANSFER_CHECKED)
  view.setBigUint64(1, amount, true)
  view.setUint8(9, decimals)
  return new TransactionInstruction({
    programId: new PublicKey(TOKEN_PROGRAM_ADDRESS),
    keys: [
      { pubkey: source, isSigner: false, isWritable: true },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: destination, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: true, isWritable: false },
    ],
    data: bytes(data),
  })
}

/**
 * A legacy transaction sending `lamports` from `from` (also the fee payer) to `to`, with a
 * `confirmed` recent blockhash. Unsigned: the wallet signs it.
 *
 * @example
 * const tx = await buildSolTransfer(rpc, { from, to, lamports: 500_000_000n })
 * const signed = await wallet.signTransaction(serializeForWallet(tx))
 */
export async function buildSolTransfer(
  rpc: SolanaRpc,
  { from, to, lamports }: SolTransferParameters,
): Promise<Transaction> {
  const fromKey = address(from, 'from')
  const toKey = address(to, 'to')
  checkAmount(lamports, 'lamports')
  const { blockhash, lastValidBlockHeight } = await latestBlockhash(rpc)
  return new Transaction({ feePayer: fromKey, blockhash, lastValidBlockHeight }).add(
    SystemProgram.transfer({ fromPubkey: fromKey, toPubkey: toKey, lamports }),
  )
}

/**
 * A legacy transaction sending `amount` base units of `mint` from `from`'s associated token account
 * to `to`'s, creating the latter first (`CreateIdempotent`, paid by `from`) when it does not exist.
 * Throws `InsufficientTokenBalanceError` when `from` has no token account for the mint or too little in it.
 *
 * @example
 * const tx = await buildTokenTransfer(rpc, { from, to, mint, amount: 10_000_000n, decimals: 6 })
 */
export async function buildTokenTransfer(
  rpc: SolanaRpc,
  { from, to, mint, amount, decimals }: TokenTransferParameters,
): Promise<Transaction> {
  const fromKey = address(from, 'from')
  const toKey = address(to, 'to')
  const mintKey = address(mint, 'mint')
  checkAmount(amount, 'amount')
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw new ValidationError('Invalid token decimals', { path: ['decimals'] })
  }
  const source = findAssociatedTokenAddress(fromKey, mintKey)
  const destination = findAssociatedTokenAddress(toKey, mintKey)
  const [sourceAccount, destinationAccount, { blockhash, lastValidBlockHeight }] = await Promise.all([
    solanaRequest(
      rpc,
      'getAccountInfo',
      [source.toBase58(), { encoding: 'jsonParsed', commitment: 'confirmed' }],
      ParsedTokenAccountSchema,
    ),
    solanaRequest(
      rpc,
      'getAccountInfo',
      [destination.toBase58(), { encoding: 'base64', commitment: 'confirmed' }],
      RawAccountSchema,
    ),
    latestBlockhash(rpc),
  ])

  const info = sourceAccount.value?.data.parsed.info
  if (!info) throw new InsufficientTokenBalanceError({ details: `${from} has no token account for ${mint}` })
  if (info.mint !== mint || info.owner !== from) {
    throw new InsufficientTokenBalanceError({
      details: `${source.toBase58()} is not ${from}'s account for ${mint}`,
    })
  }
  if (info.tokenAmount.decimals !== decimals) {
    throw new ValidationError(`The token has ${info.tokenAmount.decimals} decimals, not ${decimals}`, {
      path: ['decimals'],
      messageId: 'tokenDecimalsMismatch',
      messageValues: { actual: info.tokenAmount.decimals, expected: decimals },
    })
  }
  const balance = BigInt(info.tokenAmount.amount)
  if (balance < amount) {
    throw new InsufficientTokenBalanceError({ details: `Balance ${balance}, needed ${amount} (base units)` })
  }

  const tx = new Transaction({ feePayer: fromKey, blockhash, lastValidBlockHeight })
  if (destinationAccount.value === null) {
    tx.add(createIdempotentInstruction(fromKey, destination, toKey, mintKey))
  }
  return tx.add(transferCheckedInstruction(source, mintKey, destination, fromKey, amount, decimals))
}

/**
 * The wire bytes of an unsigned (or partly signed) transaction, as Wallet Standard
 * `solana:signTransaction` and `solana:signAndSendTransaction` take them.
 *
 * @example
 * const [{ signedTransaction }] = await wallet.features['solana:signTransaction'].signTransaction({
 *   account, transaction: serializeForWallet(tx),
 * })
 */
export function serializeForWallet(tx: Transaction): Uint8Array {
  return tx.serialize({ requireAllSignatures: false, verifySignatures: false })
}
