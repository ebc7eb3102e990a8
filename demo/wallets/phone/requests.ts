// What each request method a dapp sends the Demo Phone Wallet does: its summary for the person, and the
// action on Approve.
import { type Address, formatEther, isAddress, isAddressEqual, isHex } from 'viem'
import type { HDAccount } from 'viem/accounts'
import { signAndSend } from '../transactions.ts'
import { INTERNAL_ERROR, INVALID_PARAMS, UNAUTHORIZED, WalletRpcError } from './errors.ts'
import { chainNumber, decodeMessage, display, quantity, shorten } from './readable.ts'
import type { Client, SummaryLine } from './types.ts'

/** A request understood: what to show, and what Approve runs. */
export type Action = { summary: SummaryLine[]; run(): Promise<unknown> }

export type RequestActionsOptions = {
  client: Client
  account: HDAccount
  /** RPC URL per EVM chain id; wallet_addEthereumChain adds to it. */
  rpc: Map<number, string>
  /** Chain each session was last switched to; wallet_switchEthereumChain sets it. */
  activeChain: Map<string, string>
}

/**
 * The request methods this wallet serves. `actionFor` throws a {@link WalletRpcError} for a request it
 * refuses, and returns `undefined` for a method it does not support.
 */
export function createRequestActions({ client, account, rpc, activeChain }: RequestActionsOptions) {
  const address: Address = account.address

  const personalSign = (params: unknown[]): Action => {
    let [message, signer] = params
    if (typeof message === 'string' && isAddress(message) && isAddressEqual(message, address)) {
      if (typeof signer === 'string' && !(isAddress(signer) && isAddressEqual(signer, address))) {
        ;[message, signer] = [signer, message]
      }
    }
    if (typeof message !== 'string') throw new WalletRpcError(INVALID_PARAMS, 'personal_sign needs a message')
    checkSigner(signer)
    const text = message
    return {
      summary: [
        { label: 'Message', value: decodeMessage(text) },
        { label: 'Signer', value: address },
      ],
      run: () => account.signMessage({ message: isHex(text) ? { raw: text } : text }),
    }
  }

  const signTypedData = (params: unknown[]): Action => {
    const [first, second] = params
    const [signer, raw] = typeof first === 'string' && isAddress(first) ? [first, second] : [second, first]
    checkSigner(signer)
    let typedData: unknown
    try {
      typedData = typeof raw === 'string' ? JSON.parse(raw) : raw
    } catch {
      throw new WalletRpcError(INVALID_PARAMS, 'The typed data is not JSON')
    }
    if (!typedData || typeof typedData !== 'object') throw new WalletRpcError(INVALID_PARAMS, 'No typed data')
    const {
      domain = {},
      primaryType,
      types,
      message,
    } = typedData as {
      domain?: Record<string, unknown>
      primaryType?: unknown
      types?: unknown
      message?: unknown
    }
    if (typeof primaryType !== 'string' || !types || typeof types !== 'object' || !message) {
      throw new WalletRpcError(INVALID_PARAMS, 'Typed data needs types, primaryType and message')
    }
    const domainText = ['name', 'version', 'chainId', 'verifyingContract', 'salt']
      .filter((key) => domain[key] !== undefined)
      .map((key) => `${key}: ${display(domain[key], 66)}`)
      .join(', ')
    const fields = Object.entries(message as Record<string, unknown>)
      .slice(0, 6)
      .map(([key, value]) => ({ label: `${primaryType}.${key}`, value: display(value) }))
    return {
      summary: [
        { label: 'Primary type', value: primaryType },
        { label: 'Domain', value: domainText || '(empty)' },
        ...fields,
        { label: 'Signer', value: address },
      ],
      run: () => account.signTypedData(typedData as Parameters<HDAccount['signTypedData']>[0]),
    }
  }

  const sendTransaction = (params: unknown[], chainId: string): Action => {
    const tx = params[0]
    if (!tx || typeof tx !== 'object') throw new WalletRpcError(INVALID_PARAMS, 'No transaction object')
    const fields = tx as Record<string, unknown>
    checkSigner(fields.from)
    const id = chainNumber(chainId)
    const txChain = quantity(fields.chainId, 'chainId')
    if (txChain !== undefined && txChain !== BigInt(id)) {
      throw new WalletRpcError(
        INVALID_PARAMS,
        `The transaction is for chain ${txChain}, the request for ${id}`,
      )
    }
    const to = fields.to
    if (to !== undefined && to !== null && (typeof to !== 'string' || !isAddress(to))) {
      throw new WalletRpcError(INVALID_PARAMS, `Invalid to: ${display(to, 50)}`)
    }
    const data = fields.data ?? fields.input
    if (data !== undefined && (typeof data !== 'string' || !isHex(data))) {
      throw new WalletRpcError(INVALID_PARAMS, 'Invalid data')
    }
    const value = quantity(fields.value, 'value') ?? 0n
    const gas = quantity(fields.gas ?? fields.gasLimit, 'gas')
    const nonce = quantity(fields.nonce, 'nonce')
    const gasPrice = quantity(fields.gasPrice, 'gasPrice')
    const maxFeePerGas = quantity(fields.maxFeePerGas, 'maxFeePerGas')
    const maxPriorityFeePerGas = quantity(fields.maxPriorityFeePerGas, 'maxPriorityFeePerGas')
    const hasData = typeof data === 'string' && data !== '0x'

    return {
      summary: [
        { label: 'To', value: typeof to === 'string' ? to : '(new contract)' },
        { label: 'Value', value: `${formatEther(value)} ETH` },
        { label: 'Network', value: chainId },
        ...(hasData ? [{ label: 'Data', value: `${(data.length - 2) / 2} bytes: ${shorten(data)}` }] : []),
        { label: 'From', value: address },
      ],
      run: async () => {
        const url = rpc.get(id)
        if (!url) throw new WalletRpcError(INTERNAL_ERROR, `This wallet has no RPC URL for chain ${id}`)
        return signAndSend(account, url, id, {
          to: typeof to === 'string' ? to : undefined,
          data: hasData ? data : undefined,
          value,
          gas,
          nonce,
          gasPrice,
          maxFeePerGas,
          maxPriorityFeePerGas,
        })
      },
    }
  }

  const switchChain = (params: unknown[], topic: string): Action => {
    const requested = quantity((params[0] as { chainId?: unknown } | undefined)?.chainId, 'chainId')
    if (requested === undefined || requested <= 0n) throw new WalletRpcError(INVALID_PARAMS, 'No chainId')
    const target = `eip155:${requested}`
    return {
      summary: [{ label: 'Switch to', value: `${target} (0x${requested.toString(16)})` }],
      run: async () => {
        const session = client.session.get(topic)
        const eip155 = session.namespaces.eip155
        if (eip155 && !(eip155.chains ?? []).includes(target)) {
          // A chain outside the session: add it (same address) so the event below is valid.
          await client.update({
            topic,
            namespaces: {
              ...session.namespaces,
              eip155: {
                ...eip155,
                chains: [...(eip155.chains ?? []), target],
                accounts: [...eip155.accounts, `${target}:${address}`],
              },
            },
          })
        }
        await client.emit({
          topic,
          chainId: target,
          event: { name: 'chainChanged', data: Number(requested) },
        })
        activeChain.set(topic, target)
        return null
      },
    }
  }

  const addChain = (params: unknown[]): Action => {
    const chain = params[0] as { chainId?: unknown; chainName?: unknown; rpcUrls?: unknown } | undefined
    const id = quantity(chain?.chainId, 'chainId')
    if (id === undefined || id <= 0n) throw new WalletRpcError(INVALID_PARAMS, 'No chainId')
    const urls = Array.isArray(chain?.rpcUrls) ? chain.rpcUrls.filter((url) => typeof url === 'string') : []
    const url = urls.find((candidate) => /^https?:\/\//.test(candidate))
    return {
      summary: [
        { label: 'Network', value: `${typeof chain?.chainName === 'string' ? chain.chainName : 'Unnamed'}` },
        { label: 'Chain id', value: `eip155:${id}` },
        { label: 'RPC', value: url ?? '(none)' },
      ],
      run: async () => {
        if (url && !rpc.has(Number(id))) rpc.set(Number(id), url)
        return null
      },
    }
  }

  function checkSigner(signer: unknown): void {
    if (signer === undefined || signer === null) return
    if (typeof signer !== 'string' || !isAddress(signer) || !isAddressEqual(signer, address)) {
      throw new WalletRpcError(UNAUTHORIZED, `${display(signer, 50)} is not this wallet's account`)
    }
  }

  const actionFor = (method: string, params: unknown, chainId: string, topic: string): Action | undefined => {
    const list = Array.isArray(params) ? (params as unknown[]) : []
    switch (method) {
      case 'personal_sign':
        return personalSign(list)
      case 'eth_signTypedData_v4':
        return signTypedData(list)
      case 'eth_sendTransaction':
        return sendTransaction(list, chainId)
      case 'wallet_switchEthereumChain':
        return switchChain(list, topic)
      case 'wallet_addEthereumChain':
        return addChain(list)
      default:
        return undefined
    }
  }

  return { actionFor }
}
