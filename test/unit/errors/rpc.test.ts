import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseRpcError, toBaseError } from '../../../src/errors/index.ts'

describe('parseRpcError', () => {
  const byMessage: [message: string, name: string, shortMessage: string][] = [
    [
      'execution reverted: ERC20: transfer amount exceeds balance',
      'ExecutionRevertedError',
      'Execution reverted',
    ],
    ['max fee per gas higher than 2^256-1', 'FeeCapTooHighError', 'Max fee per gas is too high'],
    [
      'max fee per gas less than block base fee',
      'FeeCapTooLowError',
      'Max fee per gas is below the block base fee',
    ],
    ['nonce too high', 'NonceTooHighError', 'Nonce is too high'],
    ['nonce too low', 'NonceTooLowError', 'Nonce is too low'],
    ['already known', 'NonceTooLowError', 'Nonce is too low'],
    ['nonce has max value', 'NonceMaxValueError', 'Nonce has reached its maximum value'],
    [
      'insufficient funds for gas * price + value',
      'InsufficientFundsError',
      'Insufficient funds for gas and value',
    ],
    ['intrinsic gas too high', 'IntrinsicGasTooHighError', 'Gas limit is too high'],
    ['intrinsic gas too low', 'IntrinsicGasTooLowError', 'Gas limit is too low'],
    [
      'transaction type not supported',
      'TransactionTypeNotSupportedError',
      'Transaction type is not supported',
    ],
    [
      'max priority fee per gas higher than max fee per gas',
      'TipAboveFeeCapError',
      'Max priority fee is above max fee per gas',
    ],
    // Hardhat's wording, as the local chain answers.
    ['Nonce too low. Expected nonce to be 3 but got 1.', 'NonceTooLowError', 'Nonce is too low'],
    ['Nonce too high. Expected nonce to be 0 but got 5.', 'NonceTooHighError', 'Nonce is too high'],
    [
      "Sender doesn't have enough funds to send tx. The max upfront cost is: 1 and the sender's balance is: 0.",
      'InsufficientFundsError',
      'Insufficient funds for gas and value',
    ],
    [
      'Transaction requires at least 21000 gas but got 100',
      'IntrinsicGasTooLowError',
      'Gas limit is too low',
    ],
    [
      'Transaction maxFeePerGas (1) is too low for the next block, which has a baseFeePerGas of 7',
      'FeeCapTooLowError',
      'Max fee per gas is below the block base fee',
    ],
    [
      'maxPriorityFeePerGas (10) is bigger than maxFeePerGas (5)',
      'TipAboveFeeCapError',
      'Max priority fee is above max fee per gas',
    ],
    [
      "VM Exception while processing transaction: reverted with reason string 'Not owner'",
      'ExecutionRevertedError',
      'Execution reverted',
    ],
  ]

  for (const [message, name, shortMessage] of byMessage)
    it(`default: "${message}" -> ${name}`, () => {
      const cause = { code: -32000, message }
      const error = parseRpcError(cause)
      assert.equal(error.name, name)
      assert.equal(error.shortMessage, shortMessage)
      assert.equal(error.cause, cause)
      assert.equal(error.details, message)
      assert.equal(error.code, -32000)
    })

  it('default: revert reasons are extracted', () => {
    const error = parseRpcError({ code: -32603, message: "reverted with reason string 'Not owner'" })
    assert.equal(error.name, 'ExecutionRevertedError')
    assert.equal((error as { reason?: string }).reason, 'Not owner')
    assert.equal(
      (
        parseRpcError({ code: 3, message: 'execution reverted: Paused', data: '0x08c3' }) as {
          reason?: string
        }
      ).reason,
      'Paused',
    )
  })

  it('default: code 3 without words is a revert', () => {
    assert.equal(parseRpcError({ code: 3, message: 'boom' }).name, 'ExecutionRevertedError')
  })

  it('default: codes', () => {
    assert.equal(parseRpcError({ code: 4001, message: 'User denied' }).name, 'UserRejectedRequestError')
    assert.equal(parseRpcError({ code: 4902, message: 'Unknown chain' }).name, 'UnrecognizedChainError')
    assert.equal(parseRpcError({ code: 4900, message: 'Disconnected' }).name, 'ProviderDisconnectedError')
    assert.equal(parseRpcError({ code: 32603, message: 'Invalid chain' }).name, 'InvalidChainIdError')
  })

  it('behavior: codes wrapped by the wallet are found', () => {
    const wrapped = {
      code: -32603,
      message: 'Internal JSON-RPC error.',
      data: { originalError: { code: 4902 } },
    }
    assert.equal(parseRpcError(wrapped).name, 'UnrecognizedChainError')
    const nested = { code: -32603, message: 'Internal error', cause: { code: 4001, message: 'rejected' } }
    assert.equal(parseRpcError(nested).name, 'UserRejectedRequestError')
    assert.equal(
      parseRpcError({ code: -32603, message: 'x', data: { message: 'nonce too low' } }).name,
      'NonceTooLowError',
    )
  })

  it('args: -32603 while switching chain is an invalid chain id', () => {
    const error = { code: -32603, message: 'Internal JSON-RPC error.' }
    assert.equal(parseRpcError(error, { method: 'wallet_switchEthereumChain' }).name, 'InvalidChainIdError')
    assert.equal(parseRpcError(error).name, 'RpcRequestError')
  })

  it('error: anything else keeps its code and message', () => {
    const cause = { code: -32000, message: 'header not found' }
    const error = parseRpcError(cause)
    assert.equal(error.name, 'RpcRequestError')
    assert.equal(error.shortMessage, 'header not found')
    assert.equal(error.code, -32000)
    assert.equal(error.cause, cause)
    assert.equal(parseRpcError({ code: -32000 }).shortMessage, 'An error occurred')
  })
})

describe('toBaseError', () => {
  it('default: EIP-1193 errors', () => {
    const rejected = { code: 4001, message: 'User rejected the request.' }
    const error = toBaseError(rejected)
    assert.equal(error.name, 'UserRejectedRequestError')
    assert.equal(error.code, 4001)
    assert.equal(error.cause, rejected)

    assert.equal(
      toBaseError({ code: 4902, message: 'Unrecognized chain ID "0x7a69".' }).name,
      'UnrecognizedChainError',
    )
    assert.equal(toBaseError({ code: 4902, message: 'x' }).code, 4902)
    assert.equal(toBaseError({ code: 32603, message: 'x' }).name, 'InvalidChainIdError')
    assert.equal(toBaseError({ code: 32603, message: 'x' }).code, 32603)
    assert.equal(toBaseError({ code: -32603, message: 'nonce too low' }).name, 'NonceTooLowError')
    assert.equal(
      toBaseError({ code: -32603, message: 'Internal error' }, { method: 'wallet_switchEthereumChain' }).name,
      'InvalidChainIdError',
    )
  })

  it('default: Errors thrown by wallets with a code', () => {
    const thrown = Object.assign(new Error('User rejected the request.'), { code: 4001 })
    const error = toBaseError(thrown)
    assert.equal(error.name, 'UserRejectedRequestError')
    assert.equal(error.cause, thrown)
  })

  it('default: wording alone is enough', () => {
    assert.equal(
      toBaseError(new Error('MetaMask Tx Signature: User denied transaction signature.')).name,
      'UserRejectedRequestError',
    )
    assert.equal(toBaseError(new Error('insufficient funds for transfer')).name, 'InsufficientFundsError')
    assert.equal(toBaseError('nonce too high').name, 'NonceTooHighError')
  })

  it('default: aborts and timeouts', () => {
    const abort = new DOMException('This operation was aborted', 'AbortError')
    const aborted = toBaseError(abort)
    assert.equal(aborted.name, 'RequestAbortedError')
    assert.equal(aborted.shortMessage, 'Request was aborted')
    assert.equal(aborted.cause, abort)
    const timeout = toBaseError(new DOMException('signal timed out', 'TimeoutError'), { method: 'eth_call' })
    assert.equal(timeout.name, 'RequestTimeoutError')
    assert.equal(timeout.details, 'No answer to eth_call')
  })

  it('behavior: errors of the catalogue pass through', () => {
    const error = toBaseError({ code: 4001, message: 'x' })
    assert.equal(toBaseError(error), error)
  })

  it('error: unknown errors keep their message and cause', () => {
    const thrown = new TypeError('fetch failed')
    const error = toBaseError(thrown)
    assert.equal(error.name, 'UnknownError')
    assert.equal(error.shortMessage, 'fetch failed')
    assert.equal(error.code, 5000)
    assert.equal(error.cause, thrown)
    assert.equal(error.message, 'fetch failed')
  })

  it('error: strings and odd values', () => {
    assert.equal(toBaseError('boom').shortMessage, 'boom')
    assert.equal(toBaseError('boom').cause, 'boom')
    for (const value of [null, undefined, 42, {}]) {
      const error = toBaseError(value)
      assert.equal(error.name, 'UnknownError')
      assert.equal(error.shortMessage, 'An error occurred')
    }
  })

  it('behavior: walk reaches the original', () => {
    const original = { code: -32000, message: 'nonce too low' }
    assert.equal(toBaseError(original).walk(), original)
  })
})
