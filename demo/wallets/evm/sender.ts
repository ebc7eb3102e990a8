// What the Demo Wallet sends: eth_sendTransaction, and EIP-5792 calls (one transaction after another) with
// their status.
import { formatEther, type Hex, isAddress, isHex, toHex } from 'viem'
import type { HDAccount } from 'viem/accounts'
import { DemoWalletRpcError, ErrorCodes, invalidParams, nodeRequest } from '../errors.ts'
import type { PromptRequest } from '../prompt.ts'
import { signAndSend } from '../transactions.ts'
import { quantity, shorten, toRpcError } from './params.ts'

/**
 * What sending reads from the wallet, at the moment it reads it (the person may switch while a prompt shows).
 */
export type SenderWallet = {
  account(): HDAccount
  chainId(): number
  /** The current chain's RPC URL; throws when the wallet has none. */
  rpcUrl(): string
  /** Resolves on Approve, throws the user-rejected error on Reject. */
  ask(request: PromptRequest): Promise<void>
  /** Throws unless the page is connected and `address` (when given) is the wallet's account. */
  requireAuthorized(address?: unknown): void
}

type Batch = { chainId: number; rpcUrl: string; hashes: Hex[] }

/**
 * The Demo Wallet's sending methods over its live state.
 *
 * @example
 * const sender = createSender({ account: () => account, chainId: () => chainId, rpcUrl, ask, requireAuthorized })
 * await sender.sendTransaction({ to, value: '0x1' })
 */
export function createSender(wallet: SenderWallet) {
  const sendTransaction = async (tx: Record<string, unknown>): Promise<Hex> => {
    wallet.requireAuthorized(tx.from ?? wallet.account().address)
    const to = tx.to === undefined || tx.to === null ? undefined : tx.to
    if (to !== undefined && (typeof to !== 'string' || !isAddress(to)))
      throw invalidParams('Invalid "to" address.')
    const data = tx.data ?? tx.input
    if (data !== undefined && (typeof data !== 'string' || !isHex(data)))
      throw invalidParams('Invalid "data".')
    const value = quantity(tx.value, 'value') ?? 0n
    const gas = quantity(tx.gas, 'gas')
    const gasPrice = quantity(tx.gasPrice, 'gasPrice')
    const maxFeePerGas = quantity(tx.maxFeePerGas, 'maxFeePerGas')
    const maxPriorityFeePerGas = quantity(tx.maxPriorityFeePerGas, 'maxPriorityFeePerGas')
    const nonce = quantity(tx.nonce, 'nonce')
    const txChainId = quantity(tx.chainId, 'chainId')
    if (txChainId !== undefined && txChainId !== BigInt(wallet.chainId())) {
      throw invalidParams(
        `The transaction is for chain ${txChainId}, but the wallet is on chain ${wallet.chainId()}.`,
      )
    }
    const url = wallet.rpcUrl()

    await wallet.ask({
      title: to
        ? `Send ${formatEther(value)} ETH to ${to}`
        : `Deploy a contract with ${formatEther(value)} ETH`,
      details: [
        `From ${wallet.account().address}`,
        `Network eip155:${wallet.chainId()}`,
        ...(data && data !== '0x' ? [`Data ${shorten(data)} (${(data.length - 2) / 2} bytes)`] : []),
      ],
    })

    try {
      return await signAndSend(wallet.account(), url, wallet.chainId(), {
        to: to ?? undefined,
        data: data ?? undefined,
        value,
        gas,
        nonce,
        gasPrice,
        maxFeePerGas,
        maxPriorityFeePerGas,
      })
    } catch (error) {
      throw toRpcError(error)
    }
  }

  /** EIP-5792 batches this wallet sent, by id (kept while the page lives, like an extension's memory). */
  const batches = new Map<string, Batch>()

  const sendCalls = async (request: unknown): Promise<{ id: string }> => {
    if (!request || typeof request !== 'object')
      throw invalidParams('wallet_sendCalls needs a request object.')
    const { from, chainId: wanted, atomicRequired, calls } = request as Record<string, unknown>
    wallet.requireAuthorized(from ?? wallet.account().address)
    if (
      wanted !== undefined &&
      (typeof wanted !== 'string' || !isHex(wanted) || Number(wanted) !== wallet.chainId())
    ) {
      throw new DemoWalletRpcError(
        ErrorCodes.unsupportedChainId,
        `The calls are for chain ${String(wanted)}, but the wallet is on chain ${wallet.chainId()}.`,
      )
    }
    if (atomicRequired === true) {
      throw new DemoWalletRpcError(
        ErrorCodes.atomicityNotSupported,
        'The Demo Wallet sends calls one after another, not atomically.',
      )
    }
    if (!Array.isArray(calls) || calls.length === 0 || calls.length > 10)
      throw invalidParams('wallet_sendCalls needs 1 to 10 calls.')
    const checked = calls.map((call: unknown) => {
      const { to, value, data } = (call ?? {}) as Record<string, unknown>
      if (typeof to !== 'string' || !isAddress(to)) throw invalidParams('Invalid "to" address.')
      if (data !== undefined && (typeof data !== 'string' || !isHex(data)))
        throw invalidParams('Invalid "data".')
      return { to, value: quantity(value, 'value') ?? 0n, data: data as Hex | undefined }
    })
    const url = wallet.rpcUrl()
    await wallet.ask({
      title: `Send ${checked.length} calls, one after another`,
      details: [
        `From ${wallet.account().address}`,
        `Network eip155:${wallet.chainId()}`,
        ...checked.map(
          (call, index) =>
            `${index + 1}. ${formatEther(call.value)} ETH to ${call.to}${call.data && call.data !== '0x' ? `, data ${shorten(call.data)}` : ''}`,
        ),
      ],
    })
    const hashes: Hex[] = []
    try {
      for (const call of checked) {
        hashes.push(
          await signAndSend(wallet.account(), url, wallet.chainId(), {
            to: call.to,
            data: call.data,
            value: call.value,
            gas: undefined,
            nonce: undefined,
            gasPrice: undefined,
            maxFeePerGas: undefined,
            maxPriorityFeePerGas: undefined,
          }),
        )
      }
    } catch (error) {
      throw toRpcError(error)
    }
    const id = toHex(crypto.getRandomValues(new Uint8Array(32)))
    batches.set(id, { chainId: wallet.chainId(), rpcUrl: url, hashes })
    return { id }
  }

  const callsStatus = async (id: string, batch: Batch) => {
    const receipts = (await Promise.all(
      batch.hashes.map((hash) => nodeRequest(fetch, batch.rpcUrl, 'eth_getTransactionReceipt', [hash])),
    )) as ({ status?: string } | null)[]
    const done = receipts.filter((receipt) => receipt !== null)
    const status =
      done.length < receipts.length
        ? 100
        : done.every((receipt) => receipt.status === '0x1')
          ? 200
          : done.every((receipt) => receipt.status === '0x0')
            ? 500
            : 600
    return { version: '2.0.0', id, chainId: toHex(batch.chainId), atomic: false, status, receipts: done }
  }

  const getCallsStatus = (id: unknown) => {
    const batch = typeof id === 'string' ? batches.get(id) : undefined
    if (typeof id !== 'string' || !batch)
      throw new DemoWalletRpcError(ErrorCodes.unknownBundleId, 'Unknown bundle id.')
    return callsStatus(id, batch)
  }

  return { sendTransaction, sendCalls, getCallsStatus }
}
