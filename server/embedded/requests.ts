/**
 * The embedded wallet's requests (SPEC 6). Reads go to the RPC upstream; the wallet's own methods
 * (call status, capabilities, assets) are answered here; signing is two steps: the frame stores the
 * request and gets its preview in plain words, the person approves it in the frame, and only then does
 * the service open the key and sign what it stored (never new parameters). Anything else is refused
 * with `Requested RPC call is not allowed`.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { and, eq, gt } from 'drizzle-orm'
import {
  type Address,
  bytesToHex,
  getAddress,
  type Hex,
  hexToBytes,
  isAddress,
  isAddressEqual,
  isHex,
  type TypedDataDefinition,
} from 'viem'
import * as z from 'zod/mini'
import type {
  AccountTypeResponse,
  ApprovalPreview,
  ApprovalResponse,
  WalletRpcRequest,
} from '../../src/protocol/embedded/index.ts'
import { classifyRequest, embeddedLimits } from '../../src/protocol/embedded/index.ts'
import { CallListSchema } from '../../src/protocol/rules.ts'
import { decodeBase58, encodeBase58 } from '../../src/protocol/siwx/base58.ts'
import type { Db } from '../db/database.ts'
import { walletCallBatches, walletRequests } from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import type { Custody } from './custody.ts'
import { actionNotAllowed, EmbeddedError, notAvailable, requestRefused } from './errors.ts'
import type { WalletSession } from './login.ts'
import type { EmbeddedNetwork } from './networks.ts'
import { type ContractReader, decodeEvmCall } from './preview/evmCalls.ts'
import { feeInUsd, type NativeUsdPrice } from './preview/fiat.ts'
import { solanaInstructionsPreview } from './preview/solanaInstructions.ts'
import { refuseReservedDomain, typedDataRows } from './preview/typedData.ts'
import { newId } from './secrets.ts'
import { signEvmMessage, signEvmTransaction, signEvmTypedData } from './signing.ts'
import {
  type SmartAccountCall,
  type SmartAccounts,
  smartAccountsUnsupportedMessage,
} from './smartAccounts.ts'
import {
  isSolanaTransactionShaped,
  readSolanaTransaction,
  type SolanaTransaction,
  writeSolanaTransaction,
} from './solanaWire.ts'
import type { Upstream } from './upstream.ts'
import { checkUserOperation, type PageUserOperation } from './userOperations.ts'

function invalidParams(message: string): EmbeddedError {
  return new EmbeddedError(400, 'BAD_REQUEST', message, { rpcCode: -32602, field: 'params' })
}

/** The params of a request, checked with a schema; a mismatch is JSON-RPC's `Invalid params`. */
function paramsOf<T extends z.ZodMiniType>(schema: T, params: unknown, method: string): z.output<T> {
  const parsed = z.safeParse(schema, params)
  if (!parsed.success) throw invalidParams(`Invalid params of ${method}`)
  return parsed.data
}

const hex = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/))
const quantity = z.string().check(z.regex(/^0x[0-9a-fA-F]{1,64}$/))
const address = z.string().check(z.refine((value) => isAddress(value, { strict: false })))
const base58 = z.string().check(z.regex(/^[1-9A-HJ-NP-Za-km-z]{1,2000}$/))
const base64 = z.string().check(z.regex(/^[A-Za-z0-9+/]{1,1700000}={0,2}$/))

const transactionParams = z.tuple([
  z.object({
    from: address,
    to: z.optional(z.nullable(address)),
    value: z.optional(quantity),
    data: z.optional(hex),
    input: z.optional(hex),
    gas: z.optional(quantity),
    gasPrice: z.optional(quantity),
    maxFeePerGas: z.optional(quantity),
    maxPriorityFeePerGas: z.optional(quantity),
  }),
])
type TransactionParams = z.infer<typeof transactionParams>[0]

const sendCallsParams = z.tuple([
  z.object({
    version: z.optional(z.string()),
    chainId: z.optional(quantity),
    from: z.optional(address),
    atomicRequired: z.optional(z.boolean()),
    calls: CallListSchema.check(z.minLength(1), z.maxLength(embeddedLimits.maxCalls)),
    capabilities: z.optional(z.record(z.string(), z.unknown())),
  }),
])

const typedDataShape = z.object({
  domain: z.optional(z.record(z.string(), z.unknown())),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.string(),
  message: z.record(z.string(), z.unknown()),
})

/** Text when the bytes are readable UTF-8 without control characters, else undefined. */
function readable(bytes: Uint8Array): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    const control = [...text].some((character) => {
      const code = character.charCodeAt(0)
      return (code < 32 && code !== 9 && code !== 10 && code !== 13) || code === 127
    })
    return control ? undefined : text
  } catch {
    return undefined
  }
}

function messagePreview(bytes: Uint8Array): ApprovalPreview['message'] {
  const text = readable(bytes)
  return text === undefined ? { hex: bytesToHex(bytes) } : { text }
}

/** The message of `personal_sign`: wallets take [message, address]; a few libraries send [address, message]. */
function personalSignMessage([first, second]: readonly [string, string]): string {
  return isAddress(first, { strict: false }) && !isAddress(second, { strict: false }) ? second : first
}

/** The bytes `personal_sign` signs: hex is raw bytes, anything else UTF-8 text. */
const personalSignBytes = (message: string): Uint8Array =>
  isHex(message) ? hexToBytes(message) : new TextEncoder().encode(message)

/** The typed data of a stored `eth_signTypedData_v4` request, as viem signs it (no EIP712Domain type). */
function storedTypedData(params: unknown): TypedDataDefinition {
  const raw = (params as [string, unknown])[1]
  const typed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as TypedDataDefinition
  const { EIP712Domain: _domain, ...types } = typed.types as Record<string, unknown>
  return { ...typed, types } as TypedDataDefinition
}

/** Bytes of a base58 parameter, or `Invalid params`. */
function base58Bytes(text: string): Uint8Array {
  const bytes = decodeBase58(text)
  if (!bytes) throw invalidParams('Invalid base58')
  return bytes
}

/**
 * `solana_signMessage` of bytes a Solana transaction could carry as its message: the signature would be
 * the transaction's, so it is refused (the wallet signs messages as raw ed25519, as Wallet Standard's
 * `solana:signMessage` verifiers and sign-in with Solana expect).
 */
export const transactionAsMessageMessage =
  'These bytes are a Solana transaction, not a message: use solana_signTransaction'
const transactionAsMessage = () =>
  new EmbeddedError(400, 'BAD_REQUEST', transactionAsMessageMessage, { rpcCode: -32602, field: 'params' })

const foreignAccount = () =>
  new EmbeddedError(403, 'FORBIDDEN', 'The request names an account this wallet does not hold', {
    rpcCode: 4100,
  })

/** A hex quantity as a decimal string. */
const decimal = (value: string | bigint | undefined) => BigInt(value ?? 0).toString()

/** EVM chain id of a CAIP-2 id. */
const evmChainId = (chainId: string) => Number(chainId.split(':')[1])

interface RequestDependencies {
  db: Db
  custody: Custody
  upstream: Upstream
  networks: ReadonlyMap<string, EmbeddedNetwork>
  /** Smart accounts on the networks with a bundler. */
  smart: SmartAccounts
  /** The native currency's USD price, for the fee's value in the preview; none: the fee alone. */
  nativeUsdPrice?: NativeUsdPrice
  now?: () => number
  logger?: ServiceLogger
}

/**
 * The request service.
 *
 * @example
 * const requests = createRequestService({ db, custody, upstream, networks })
 * const { id, preview } = await requests.create(session, { chainId, method: 'personal_sign', params })
 * const { result } = await requests.approve(session, id)
 */
export function createRequestService(deps: RequestDependencies) {
  const { db, custody, upstream, networks, smart } = deps
  const now = deps.now ?? Date.now

  function networkOf(chainId: string): EmbeddedNetwork {
    const network = networks.get(chainId)
    if (!network) throw new EmbeddedError(400, 'BAD_REQUEST', 'Chain is not supported', { field: 'chainId' })
    return network
  }

  async function addresses(session: WalletSession) {
    const accounts = await custody.accounts(session.userId)
    return { evm: getAddress(accounts.secp256k1.address), solana: accounts.ed25519.address }
  }

  /** The EVM account requests on `chainId` use: the smart account when the person prefers it there. */
  async function evmAccount(session: WalletSession, chainId: string) {
    if (await smart.activeOn(session.userId, chainId))
      return { address: await smart.address(session.userId, chainId), smart: true }
    return { address: (await addresses(session)).evm, smart: false }
  }

  /**
   * The person's smart account addresses whose EIP-712 domains the owner key must not sign for a page
   * (the same address on every network with the factory); none when no network has smart accounts.
   */
  async function ownSmartAccounts(session: WalletSession, chainId: string): Promise<Address[]> {
    const on = smart.supports(chainId) ? chainId : smart.networks()[0]
    if (!on) return []
    return [await smart.address(session.userId, on)]
  }

  /** A call of a batch or a transaction as a smart account's call; it cannot create a contract. */
  function smartCall(call: {
    to?: string | null | undefined
    value?: string | bigint | undefined
    data?: string | undefined
  }): SmartAccountCall {
    if (!call.to)
      throw invalidParams('A smart account sends calls to an address; it cannot create a contract here')
    return {
      to: call.to as Address,
      ...(call.value === undefined ? {} : { value: BigInt(call.value) }),
      ...(call.data === undefined ? {} : { data: call.data as Hex }),
    }
  }

  /**
   * Who signs a message: the smart account when the page names it (the person's account on `chainId`),
   * else the EOA, which the page must name if it names one.
   */
  async function evmSigner(session: WalletSession, chainId: string, signer: string, eoa: Address) {
    const evm = await evmAccount(session, chainId)
    if (evm.smart && isAddress(signer, { strict: false }) && isAddressEqual(signer, evm.address))
      return { address: evm.address, prepared: { smartAccount: true } }
    mustBeOwn(signer, eoa)
    return { address: eoa, prepared: null }
  }

  function mustBeOwn(given: string | undefined | null, own: Address) {
    if (given && !(isAddress(given, { strict: false }) && isAddressEqual(given as Address, own))) {
      throw foreignAccount()
    }
  }

  /** Gas and fees a transaction will use: what the page gave, else estimated on the network. */
  async function prepareTransaction(chainId: string, from: Address, tx: TransactionParams) {
    const call = {
      from,
      ...(tx.to ? { to: tx.to } : {}),
      ...(tx.value ? { value: tx.value } : {}),
      ...((tx.data ?? tx.input) ? { data: tx.data ?? tx.input } : {}),
    }
    const gas = tx.gas ?? ((await upstream.call(chainId, 'eth_estimateGas', [call])) as string)
    if (tx.gasPrice) return { gas, gasPrice: tx.gasPrice }
    const block = (await upstream.call(chainId, 'eth_getBlockByNumber', ['latest', false])) as {
      baseFeePerGas?: string
    } | null
    if (!block?.baseFeePerGas) {
      return { gas, gasPrice: (await upstream.call(chainId, 'eth_gasPrice', [])) as string }
    }
    const priority =
      tx.maxPriorityFeePerGas ??
      ((await upstream.call(chainId, 'eth_maxPriorityFeePerGas', []).catch(() => '0x3b9aca00')) as string)
    // Room for the base fee to double before the transaction is included.
    const maxFee =
      tx.maxFeePerGas ?? `0x${(BigInt(block.baseFeePerGas) * 2n + BigInt(priority)).toString(16)}`
    return { gas, maxFeePerGas: maxFee, maxPriorityFeePerGas: priority }
  }

  type Prepared = Awaited<ReturnType<typeof prepareTransaction>>
  const maxFeeOf = (prepared: Prepared) =>
    BigInt(prepared.gas) * BigInt('gasPrice' in prepared ? prepared.gasPrice : prepared.maxFeePerGas)

  /** Signs and sends one prepared transaction from the user's EVM key. */
  async function sendTransaction(
    session: WalletSession,
    chainId: string,
    tx: TransactionParams,
    prepared: Prepared,
    nonce: number,
  ): Promise<Hex> {
    const signed = await custody.withKey(session.userId, 'secp256k1', (secret) => {
      const common = {
        chainId: evmChainId(chainId),
        nonce,
        gas: BigInt(prepared.gas),
        ...(tx.to ? { to: tx.to as Address } : {}),
        value: BigInt(tx.value ?? 0),
        ...((tx.data ?? tx.input) ? { data: (tx.data ?? tx.input) as Hex } : {}),
      }
      return 'gasPrice' in prepared
        ? signEvmTransaction({ ...common, type: 'legacy', gasPrice: BigInt(prepared.gasPrice) }, secret)
        : signEvmTransaction(
            {
              ...common,
              type: 'eip1559',
              maxFeePerGas: BigInt(prepared.maxFeePerGas),
              maxPriorityFeePerGas: BigInt(prepared.maxPriorityFeePerGas),
            },
            secret,
          )
    })
    return (await upstream.call(chainId, 'eth_sendRawTransaction', [signed])) as Hex
  }

  async function pendingNonce(chainId: string, from: Address): Promise<number> {
    return Number(await upstream.call(chainId, 'eth_getTransactionCount', [from, 'pending']))
  }

  /** A Solana transaction the user's key must sign, and where its signature goes. */
  function solanaTransaction(encoded: string, own: string) {
    let tx: SolanaTransaction
    try {
      tx = readSolanaTransaction(Buffer.from(encoded, 'base64'))
    } catch {
      throw invalidParams('The transaction could not be read')
    }
    const index = tx.staticAccountKeys.slice(0, tx.numRequiredSignatures).indexOf(own)
    if (index === -1) throw invalidParams("This transaction does not need this wallet's signature")
    return { tx, index }
  }

  /**
   * The rows of a preview's calls: receiver, amount in base units, data size, and the data decoded
   * from the bytes that will be sent (token metadata read on the chain).
   */
  async function callsPreview(
    chainId: string,
    calls: readonly {
      to?: string | null | undefined
      value?: string | bigint | undefined
      data?: string | undefined
    }[],
  ): Promise<NonNullable<ApprovalPreview['transfers']>> {
    const reads = new Map<string, Promise<Hex | undefined>>()
    const read: ContractReader = (to, data) => {
      const key = `${to}:${data}`
      let answer = reads.get(key)
      if (!answer) {
        answer = (upstream.call(chainId, 'eth_call', [{ to, data }, 'latest']) as Promise<Hex>).then(
          (result) => (isHex(result) ? result : undefined),
          () => undefined,
        )
        reads.set(key, answer)
      }
      return answer
    }
    return Promise.all(
      calls.map(async (call) => {
        const action = await decodeEvmCall(read, call.to, call.data)
        return {
          to: call.to ?? '',
          value: decimal(call.value),
          dataBytes: Math.max(0, ((call.data ?? '0x').length - 2) / 2),
          ...(action ? { action } : {}),
        }
      }),
    )
  }

  async function solanaFee(chainId: string, tx: SolanaTransaction): Promise<string | undefined> {
    const answer = (await upstream
      .call(chainId, 'getFeeForMessage', [
        Buffer.from(tx.message).toString('base64'),
        { commitment: 'confirmed' },
      ])
      .catch(() => undefined)) as { value?: number | null } | undefined
    return typeof answer?.value === 'number' ? String(answer.value) : undefined
  }

  /** Builds the preview (and what signing will need) of an approval request. */
  async function preview(session: WalletSession, request: WalletRpcRequest) {
    const network = networkOf(request.chainId)
    const own = await addresses(session)
    const base = { method: request.method, network }
    switch (request.method) {
      case 'personal_sign': {
        const pair = paramsOf(z.tuple([z.string(), z.string()]), request.params, request.method)
        const message = personalSignMessage(pair)
        const signer = message === pair[0] ? pair[1] : pair[0]
        const from = await evmSigner(session, request.chainId, signer, own.evm)
        return {
          preview: { ...base, from: from.address, message: messagePreview(personalSignBytes(message)) },
          prepared: from.prepared,
        }
      }
      case 'eth_signTypedData_v4': {
        const [signer, raw] = paramsOf(
          z.tuple([address, z.union([z.string(), z.record(z.string(), z.unknown())])]),
          request.params,
          request.method,
        )
        const from = await evmSigner(session, request.chainId, signer, own.evm)
        let json: unknown = raw
        if (typeof raw === 'string') {
          try {
            json = JSON.parse(raw)
          } catch {
            throw invalidParams('The typed data is not JSON')
          }
        }
        const typed = paramsOf(typedDataShape, json, request.method)
        const typedData = typedDataRows(typed, {
          chainId: evmChainId(request.chainId),
          ownAccounts: await ownSmartAccounts(session, request.chainId),
        })
        return {
          preview: {
            ...base,
            from: from.address,
            typedData,
          },
          prepared: from.prepared,
        }
      }
      case 'eth_sendTransaction': {
        const [tx] = paramsOf(transactionParams, request.params, request.method)
        const evm = await evmAccount(session, request.chainId)
        if (evm.smart) {
          mustBeOwn(tx.from, evm.address)
          smartCall({ ...tx, data: tx.data ?? tx.input })
          return {
            // The network fee is estimated when the UserOperation is sent (the account pays it).
            preview: {
              ...base,
              from: evm.address,
              transfers: await callsPreview(request.chainId, [{ ...tx, data: tx.data ?? tx.input }]),
            },
            prepared: { smartAccount: true },
          }
        }
        mustBeOwn(tx.from, own.evm)
        const prepared = await prepareTransaction(request.chainId, own.evm, tx)
        return {
          preview: {
            ...base,
            from: own.evm,
            transfers: await callsPreview(request.chainId, [{ ...tx, data: tx.data ?? tx.input }]),
            fee: maxFeeOf(prepared).toString(),
          },
          prepared: { transactions: [prepared] },
        }
      }
      case 'wallet_sendCalls': {
        const [batch] = paramsOf(sendCallsParams, request.params, request.method)
        if (batch.chainId !== undefined && Number(batch.chainId) !== evmChainId(request.chainId)) {
          throw invalidParams("The calls are for another chain than the wallet's network")
        }
        const evm = await evmAccount(session, request.chainId)
        if (evm.smart) {
          mustBeOwn(batch.from, evm.address)
          for (const call of batch.calls) smartCall(call)
          // Every call of the batch, in one UserOperation: all of them land, or none.
          return {
            preview: {
              ...base,
              from: evm.address,
              transfers: await callsPreview(request.chainId, batch.calls),
            },
            prepared: { smartAccount: true },
          }
        }
        mustBeOwn(batch.from, own.evm)
        if (batch.atomicRequired) {
          throw new EmbeddedError(
            400,
            'BAD_REQUEST',
            'This wallet sends calls one after another, not atomically',
            {
              rpcCode: 5760,
            },
          )
        }
        const transactions: Prepared[] = []
        for (const call of batch.calls) {
          transactions.push(
            await prepareTransaction(request.chainId, own.evm, {
              from: own.evm,
              to: call.to,
              ...(call.value === undefined ? {} : { value: `0x${BigInt(call.value).toString(16)}` }),
              ...(call.data === undefined ? {} : { data: call.data }),
            }),
          )
        }
        return {
          preview: {
            ...base,
            from: own.evm,
            transfers: await callsPreview(request.chainId, batch.calls),
            fee: transactions.reduce((sum, prepared) => sum + maxFeeOf(prepared), 0n).toString(),
          },
          prepared: { transactions },
        }
      }
      case 'eth_sendUserOperation': {
        const evm = await evmAccount(session, request.chainId)
        if (!evm.smart) throw notAvailable()
        const { userOperation, calls, maxCost } = checkUserOperation(request.params, {
          own: evm.address,
          owner: own.evm,
        })
        return {
          preview: {
            ...base,
            from: evm.address,
            transfers: await callsPreview(request.chainId, calls),
            ...(maxCost === undefined ? {} : { fee: maxCost.toString() }),
          },
          prepared: { smartAccount: true, userOperation },
        }
      }
      case 'solana_signMessage': {
        const { message, pubkey } = paramsOf(
          z.object({ message: base58, pubkey: z.optional(base58) }),
          request.params,
          request.method,
        )
        if (pubkey !== undefined && pubkey !== own.solana) throw foreignAccount()
        const bytes = base58Bytes(message)
        if (isSolanaTransactionShaped(bytes)) throw transactionAsMessage()
        return {
          preview: { ...base, from: own.solana, message: messagePreview(bytes) },
          prepared: null,
        }
      }
      case 'solana_signTransaction':
      case 'solana_signAndSendTransaction': {
        const { transaction } = paramsOf(
          z.object({ transaction: base64, sendOptions: z.optional(z.record(z.string(), z.unknown())) }),
          request.params,
          request.method,
        )
        const { tx } = solanaTransaction(transaction, own.solana)
        const fee = await solanaFee(request.chainId, tx)
        return {
          preview: {
            ...base,
            from: own.solana,
            ...solanaInstructionsPreview(tx),
            ...(fee === undefined ? {} : { fee }),
          },
          prepared: null,
        }
      }
      default:
        throw requestRefused(request.method)
    }
  }

  /** Signs (and sends) a stored, approved request. */
  async function execute(session: WalletSession, row: typeof walletRequests.$inferSelect): Promise<unknown> {
    if ((row.prepared as { smartAccount?: boolean } | null)?.smartAccount) return executeSmart(session, row)
    const own = await addresses(session)
    const params = row.params
    switch (row.method) {
      case 'personal_sign': {
        const bytes = personalSignBytes(personalSignMessage(params as [string, string]))
        return custody.withKey(session.userId, 'secp256k1', (secret) =>
          signEvmMessage({ raw: bytes }, secret),
        )
      }
      case 'eth_signTypedData_v4': {
        const typed = storedTypedData(params)
        // Checked again where the key signs: a stored request never signs for the wallet's own domains.
        refuseReservedDomain(
          typed.domain as Record<string, unknown>,
          await ownSmartAccounts(session, row.chainId),
        )
        return custody.withKey(session.userId, 'secp256k1', (secret) => signEvmTypedData(typed, secret))
      }
      case 'eth_sendTransaction': {
        const [tx] = params as [TransactionParams]
        const [prepared] = (row.prepared as { transactions: Prepared[] }).transactions
        if (!prepared) throw actionNotAllowed()
        return sendTransaction(session, row.chainId, tx, prepared, await pendingNonce(row.chainId, own.evm))
      }
      case 'wallet_sendCalls': {
        const [batch] = params as [{ calls: { to: string; value?: string | bigint; data?: string }[] }]
        const { transactions } = row.prepared as { transactions: Prepared[] }
        let nonce = await pendingNonce(row.chainId, own.evm)
        const hashes: Hex[] = []
        // One after another, each with the next nonce (an EOA has no atomic batches).
        for (const [index, call] of batch.calls.entries()) {
          const prepared = transactions[index]
          if (!prepared) throw actionNotAllowed()
          hashes.push(
            await sendTransaction(
              session,
              row.chainId,
              {
                from: own.evm,
                to: call.to,
                ...(call.value === undefined ? {} : { value: `0x${BigInt(call.value).toString(16)}` }),
                ...(call.data === undefined ? {} : { data: call.data }),
              },
              prepared,
              nonce++,
            ),
          )
        }
        const id = bytesToHex(crypto.getRandomValues(new Uint8Array(32)))
        await db.insert(walletCallBatches).values({
          id,
          userId: session.userId,
          chainId: row.chainId,
          txHashes: hashes,
          createdAt: new Date(now()),
        })
        return { id }
      }
      case 'solana_signMessage': {
        const { message } = params as { message: string }
        const bytes = base58Bytes(message)
        if (isSolanaTransactionShaped(bytes)) throw transactionAsMessage()
        const signature = await custody.withKey(session.userId, 'ed25519', (secret) =>
          ed25519.sign(bytes, secret),
        )
        return { signature: encodeBase58(signature) }
      }
      case 'solana_signTransaction':
      case 'solana_signAndSendTransaction': {
        const { transaction, sendOptions } = params as {
          transaction: string
          sendOptions?: Record<string, unknown>
        }
        const { tx, index } = solanaTransaction(transaction, own.solana)
        const signature = await custody.withKey(session.userId, 'ed25519', (secret) =>
          ed25519.sign(tx.message, secret),
        )
        tx.signatures[index] = signature
        const signed = Buffer.from(writeSolanaTransaction(tx)).toString('base64')
        if (row.method === 'solana_signTransaction')
          return { signature: encodeBase58(signature), transaction: signed }
        const sent = (await upstream.call(row.chainId, 'sendTransaction', [
          signed,
          { encoding: 'base64', preflightCommitment: 'confirmed', ...sendOptions },
        ])) as string
        return { signature: sent }
      }
      default:
        throw requestRefused(row.method)
    }
  }

  /** Sends a stored, approved request as one UserOperation of the person's smart account. */
  async function executeSmart(session: WalletSession, row: typeof walletRequests.$inferSelect) {
    if (row.method === 'personal_sign') {
      const message = personalSignBytes(personalSignMessage(row.params as [string, string]))
      return smart.sign(session.userId, row.chainId, { message })
    }
    if (row.method === 'eth_signTypedData_v4') {
      const typedData = storedTypedData(row.params)
      refuseReservedDomain(
        typedData.domain as Record<string, unknown>,
        await ownSmartAccounts(session, row.chainId),
      )
      return smart.sign(session.userId, row.chainId, { typedData })
    }
    if (row.method === 'eth_sendUserOperation') {
      const { userOperation } = row.prepared as { userOperation: PageUserOperation }
      return smart.sendOperation(session.userId, row.chainId, userOperation)
    }
    if (row.method === 'eth_sendTransaction') {
      const [tx] = row.params as [TransactionParams]
      const hash = await smart.send(session.userId, row.chainId, [
        smartCall({ ...tx, data: tx.data ?? tx.input }),
      ])
      const receipt = await smart.waitForReceipt(row.chainId, hash)
      if (!receipt.success)
        throw new EmbeddedError(400, 'UPSTREAM_ERROR', 'The transaction reverted', {
          rpcCode: -32521,
          rpcData: { userOpHash: hash, transactionHash: receipt.receipt.transactionHash },
        })
      return receipt.receipt.transactionHash
    }
    if (row.method === 'wallet_sendCalls') {
      const [batch] = row.params as [{ calls: { to: string; value?: string | bigint; data?: string }[] }]
      const userOpHash = await smart.send(session.userId, row.chainId, batch.calls.map(smartCall))
      const id = bytesToHex(crypto.getRandomValues(new Uint8Array(32)))
      await db.insert(walletCallBatches).values({
        id,
        userId: session.userId,
        chainId: row.chainId,
        txHashes: [],
        userOpHash,
        createdAt: new Date(now()),
      })
      return { id }
    }
    throw requestRefused(row.method)
  }

  /** `wallet_getCallsStatus` (EIP-5792): the batch's receipts and a status code. */
  async function callsStatus(session: WalletSession, params: unknown) {
    const [id] = paramsOf(z.tuple([hex]), params, 'wallet_getCallsStatus')
    const [batch] = await db
      .select()
      .from(walletCallBatches)
      .where(and(eq(walletCallBatches.id, id), eq(walletCallBatches.userId, session.userId)))
      .limit(1)
    if (!batch) throw new EmbeddedError(404, 'BAD_REQUEST', 'No matching bundle found', { rpcCode: 5730 })
    const chainHex = `0x${evmChainId(batch.chainId).toString(16)}`
    if (batch.userOpHash) {
      // A smart account's batch: one UserOperation, so one receipt and one outcome for every call.
      const found = await smart.receipt(batch.chainId, batch.userOpHash as Hex)
      return {
        version: '2.0.0',
        id,
        chainId: chainHex,
        status: found === null ? 100 : found.success ? 200 : 500,
        atomic: true,
        receipts: found?.receipt ? [found.receipt] : [],
      }
    }
    const receipts = (await Promise.all(
      batch.txHashes.map((hash) => upstream.call(batch.chainId, 'eth_getTransactionReceipt', [hash])),
    )) as ({ status?: string } | null)[]
    const status = receipts.some((receipt) => receipt === null)
      ? 100
      : receipts.every((receipt) => receipt?.status === '0x1')
        ? 200
        : receipts.every((receipt) => receipt?.status === '0x0')
          ? 500
          : 600
    return {
      version: '2.0.0',
      id,
      chainId: chainHex,
      status,
      atomic: false,
      receipts: receipts.filter((receipt) => receipt !== null),
    }
  }

  /**
   * `wallet_getCapabilities` (EIP-5792): `atomic` per EVM network, supported where the person's smart
   * account sends (one UserOperation per batch), unsupported elsewhere (an EOA sends one after another).
   */
  async function capabilities(session: WalletSession) {
    const preferred = await smart.preference(session.userId)
    const entries = [...networks.values()]
      .filter((network) => network.caipNetworkId.startsWith('eip155:'))
      .map((network) => [
        `0x${evmChainId(network.caipNetworkId).toString(16)}`,
        {
          atomic: {
            status:
              preferred === 'smartAccount' && smart.supports(network.caipNetworkId)
                ? 'supported'
                : 'unsupported',
          },
        },
      ])
    return Object.fromEntries(entries)
  }

  /** `wallet_getAssets` (EIP-7811): the native balance on each EVM network the service serves. */
  async function assets(session: WalletSession, params: unknown) {
    const [filter] = paramsOf(
      z.tuple([z.object({ account: address, chainFilter: z.optional(z.array(quantity)) })]),
      params,
      'wallet_getAssets',
    )
    const own = await addresses(session)
    mustBeOwn(filter.account, own.evm)
    const chains = [...networks.values()].filter(
      (network) =>
        network.caipNetworkId.startsWith('eip155:') &&
        (!filter.chainFilter ||
          filter.chainFilter.some((chain) => Number(chain) === evmChainId(network.caipNetworkId))),
    )
    const entries = await Promise.all(
      chains.map(async (network) => {
        const balance = (await upstream.call(network.caipNetworkId, 'eth_getBalance', [
          own.evm,
          'latest',
        ])) as string
        return [
          `0x${evmChainId(network.caipNetworkId).toString(16)}`,
          [
            {
              address: 'native',
              balance,
              type: 'native',
              metadata: { name: network.name, symbol: network.symbol, decimals: network.decimals },
            },
          ],
        ] as const
      }),
    )
    return Object.fromEntries(entries)
  }

  return {
    /** The networks the wallet serves. */
    networks: () => [...networks.values()],

    /** `POST /rpc`: a read, or one of the wallet's own methods. */
    async rpc(session: WalletSession, request: WalletRpcRequest): Promise<unknown> {
      networkOf(request.chainId)
      const namespace = request.chainId.split(':')[0] ?? ''
      const kind = classifyRequest(namespace, request.method)
      if (kind === 'read') return upstream.call(request.chainId, request.method, request.params ?? [])
      if (kind === 'notAvailable') throw notAvailable()
      if (kind !== 'wallet') throw requestRefused(request.method)
      const own = await addresses(session)
      switch (request.method) {
        case 'wallet_getCallsStatus':
          return callsStatus(session, request.params)
        case 'wallet_getAssets':
          return assets(session, request.params)
        case 'wallet_getCapabilities':
          return capabilities(session)
        case 'eth_accounts':
        case 'eth_requestAccounts':
          if (namespace !== 'eip155') throw requestRefused(request.method)
          return [(await evmAccount(session, request.chainId)).address]
        case 'solana_getAccounts':
        case 'solana_requestAccounts':
          if (namespace !== 'solana') throw requestRefused(request.method)
          return [{ pubkey: own.solana }]
        default:
          throw requestRefused(request.method)
      }
    },

    /**
     * `POST /account-type`: sets the preferred account type when given (a smart account needs a network
     * with a bundler: SPEC 4's fallback to the EOA otherwise), and answers the account `chainId` uses.
     */
    async accountType(
      session: WalletSession,
      body: {
        chainId: string
        type?: 'eoa' | 'smartAccount' | undefined
        preview?: 'eoa' | 'smartAccount' | undefined
      },
    ): Promise<AccountTypeResponse> {
      const network = networkOf(body.chainId)
      if (!network.caipNetworkId.startsWith('eip155:'))
        throw invalidParams('Account types are for EVM networks')
      if ((body.type === 'smartAccount' || body.preview === 'smartAccount') && !smart.supports(body.chainId))
        throw new EmbeddedError(400, 'NOT_AVAILABLE', smartAccountsUnsupportedMessage, { field: 'chainId' })
      if (body.type) await smart.setPreference(session.userId, body.type)
      const preferredAccountType = await smart.preference(session.userId)
      const evm = await evmAccount(session, body.chainId)
      // What a switch would use, for the frame's approval view: never set here.
      const preview =
        body.preview === undefined
          ? undefined
          : body.preview === 'smartAccount'
            ? { address: await smart.address(session.userId, body.chainId), type: body.preview }
            : { address: (await addresses(session)).evm, type: body.preview }
      return {
        ...(preview ? { preview } : {}),
        preferredAccountType,
        account: evm.smart
          ? {
              address: evm.address,
              type: 'smartAccount',
              smartAccountDeployed: await smart.deployed(body.chainId, evm.address),
            }
          : { address: evm.address, type: 'eoa' },
      }
    },

    /** `POST /requests`: stores a signing request and answers its preview. */
    async create(session: WalletSession, request: WalletRpcRequest): Promise<ApprovalResponse> {
      const namespace = request.chainId.split(':')[0] ?? ''
      const kind = classifyRequest(namespace, request.method)
      if (kind === 'notAvailable') throw notAvailable()
      if (kind !== 'approval') throw requestRefused(request.method)
      const { preview: built, prepared } = await preview(session, request)
      const shown = built as ApprovalPreview
      // The fee's value in USD where a price is known (issue 26 item 6), from the Account view's source.
      const feeUsd =
        shown.fee === undefined || !deps.nativeUsdPrice
          ? undefined
          : feeInUsd(BigInt(shown.fee), shown.network.decimals, await deps.nativeUsdPrice(request.chainId))
      const id = newId()
      const time = now()
      await db.insert(walletRequests).values({
        id,
        userId: session.userId,
        sessionId: session.id,
        chainId: request.chainId,
        method: request.method,
        params: request.params ?? null,
        prepared,
        createdAt: new Date(time),
        expiresAt: new Date(time + embeddedLimits.approvalTtlMs),
      })
      return { id, preview: feeUsd === undefined ? shown : { ...shown, feeUsd } }
    },

    /** `POST /requests/:id/approve`: the person approved in the frame; sign what was stored. */
    async approve(session: WalletSession, id: string): Promise<unknown> {
      const time = new Date(now())
      const [row] = await db
        .update(walletRequests)
        .set({ status: 'approved', decidedAt: time })
        .where(
          and(
            eq(walletRequests.id, id),
            eq(walletRequests.userId, session.userId),
            eq(walletRequests.sessionId, session.id),
            eq(walletRequests.status, 'pending'),
            gt(walletRequests.expiresAt, time),
          ),
        )
        .returning()
      if (!row) throw actionNotAllowed()
      try {
        const result = await execute(session, row)
        await db.update(walletRequests).set({ status: 'done' }).where(eq(walletRequests.id, id))
        deps.logger?.info({ method: row.method, chainId: row.chainId }, 'Embedded wallet signed')
        return result
      } catch (error) {
        await db.update(walletRequests).set({ status: 'failed' }).where(eq(walletRequests.id, id))
        throw error
      }
    },

    /** `POST /requests/:id/reject`. */
    async reject(session: WalletSession, id: string): Promise<void> {
      await db
        .update(walletRequests)
        .set({ status: 'rejected', decidedAt: new Date(now()) })
        .where(
          and(
            eq(walletRequests.id, id),
            eq(walletRequests.userId, session.userId),
            eq(walletRequests.status, 'pending'),
          ),
        )
    },
  }
}

export type RequestService = ReturnType<typeof createRequestService>
