import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import * as emailErrors from '../../../src/errors/email.ts'
import * as embeddedErrors from '../../../src/errors/embedded.ts'
import * as errors from '../../../src/errors/index.ts'
import * as serviceErrors from '../../../src/errors/service.ts'
import * as walletErrors from '../../../src/errors/wallet.ts'

type Entry = [error: errors.BaseError, name: string, shortMessage: string, code?: number]

// SPEC section 8, word for word.
const catalogue: Entry[] = [
  [new errors.InvalidAppConfigurationError(), 'InvalidAppConfigurationError', 'Invalid App Configuration'],
  [new errors.NetworkNotFoundError(), 'NetworkNotFoundError', 'Network Not Found'],
  [new errors.InvalidProjectIdError(), 'InvalidProjectIdError', 'Invalid Project ID'],
  [new errors.ProjectIdNotConfiguredError(), 'ProjectIdNotConfiguredError', 'Project ID Not Configured'],
  [
    new embeddedErrors.EmbeddedWalletLoadError(),
    'EmbeddedWalletLoadError',
    'Network Error - could not load embedded wallet',
  ],
  [
    new embeddedErrors.EmbeddedRequestTimeoutError(),
    'EmbeddedRequestTimeoutError',
    'Embedded Wallet Request Timed Out',
  ],
  [
    new embeddedErrors.EmailLoginDependencyError(),
    'EmailLoginDependencyError',
    'Unable to load email login dependency',
  ],
  [new errors.SessionExpiredError(), 'SessionExpiredError', 'Session Expired'],
  [new errors.SignatureDeclinedError(), 'SignatureDeclinedError', 'Signature declined'],
  [
    new errors.SmartAccountNotSupportedError(),
    'SmartAccountNotSupportedError',
    'This application might not support Smart Accounts',
  ],
  [
    new errors.AuthenticationInitError(),
    'AuthenticationInitError',
    'A problem occurred while trying initialize authentication',
  ],
  [new errors.TransactionsFetchError(), 'TransactionsFetchError', 'Failed to fetch transactions'],
  [new errors.TokenBalanceUnavailableError(), 'TokenBalanceUnavailableError', 'Token Balance Unavailable'],
  [
    new emailErrors.EmailCooldownError({ secondsLeft: 17 }),
    'EmailCooldownError',
    'Please try again after 17 seconds',
  ],
  [
    new errors.SwapsNetworkNotSupportedError(),
    'SwapsNetworkNotSupportedError',
    'Network not supported for Swaps',
  ],
  [
    new errors.GasPriceNetworkNotSupportedError(),
    'GasPriceNetworkNotSupportedError',
    'Network not supported for Gas Price',
  ],
  [new errors.ChainNotSupportedError(), 'ChainNotSupportedError', 'Chain is not supported'],
  [new errors.FailedToDisconnectError(), 'FailedToDisconnectError', 'Failed to disconnect'],
  [new errors.UnsupportedChainError(), 'UnsupportedChainError', 'Unsupported chain'],
  [new errors.RequestAbortedError(), 'RequestAbortedError', 'Request was aborted'],
  [new embeddedErrors.SomethingWentWrongError(), 'SomethingWentWrongError', 'Something went wrong'],
  [new embeddedErrors.FrameError(), 'FrameError', 'An error occurred'],
  [
    new embeddedErrors.RpcMethodNotAllowedError(),
    'RpcMethodNotAllowedError',
    'Requested RPC call is not allowed',
  ],
  [new embeddedErrors.ActionNotAllowedError(), 'ActionNotAllowedError', 'Action not allowed'],
  [new errors.UnrecognizedChainError(), 'UnrecognizedChainError', 'Unrecognized chain', 4902],
  [new errors.InvalidChainIdError(), 'InvalidChainIdError', 'Invalid chain id', 32603],
  [new errors.UserRejectedRequestError(), 'UserRejectedRequestError', 'User rejected the request.', 4001],
  [new errors.ProviderDisconnectedError(), 'ProviderDisconnectedError', 'The provider is disconnected', 4900],
  [new errors.ValidationError('Invalid CAIP-2 network id'), 'ValidationError', 'Invalid CAIP-2 network id'],
]

describe('error catalogue', () => {
  for (const [error, name, shortMessage, code = 5000] of catalogue)
    it(`default: ${name}`, () => {
      assert.equal(error.name, name)
      assert.equal(error.shortMessage, shortMessage)
      assert.equal(error.message.split('\n')[0], shortMessage)
      assert.equal(error.code, code)
      assert.ok(error instanceof errors.BaseError)
    })

  it('default: ERROR_CODES', () => {
    assert.deepEqual(errors.ERROR_CODES, {
      unrecognizedChain: 4902,
      default: 5000,
      invalidChainId: 32603,
      userRejected: 4001,
      disconnected: 4900,
    })
  })
})

describe('details and fields', () => {
  it('default: InvalidAppConfigurationError says why', () => {
    assert.equal(new errors.InvalidAppConfigurationError().details, 'Origin not on allowlist')
  })

  it('default: SessionExpiredError hints at the clock', () => {
    const error = new errors.SessionExpiredError()
    assert.equal(error.details, 'JWT not yet valid: check time settings')
    assert.equal(error.message, 'Session Expired\n\nDetails: JWT not yet valid: check time settings')
  })

  it('args: NetworkNotFoundError names the network', () => {
    assert.equal(
      new errors.NetworkNotFoundError({ caipNetworkId: 'eip155:10' }).details,
      'eip155:10 must be in the networks array',
    )
  })

  it('args: chain errors name the network', () => {
    assert.equal(
      new errors.UnsupportedChainError({ caipNetworkId: 'eip155:250' }).details,
      'Network: eip155:250',
    )
  })

  it('default: embedded failures carry the callback reason', () => {
    assert.equal(new embeddedErrors.EmbeddedWalletLoadError().reason, 'iframe_load_failed')
    assert.equal(new embeddedErrors.EmbeddedRequestTimeoutError().reason, 'iframe_request_timeout')
    assert.equal(
      new embeddedErrors.EmbeddedRequestTimeoutError({ type: 'CONNECT_EMAIL' }).details,
      'No answer to CONNECT_EMAIL',
    )
  })

  it('default: a frame page that fails its pin is a load failure with its own message', () => {
    const error = new embeddedErrors.FrameIntegrityError({ details: 'sha384-x (pinned: sha384-y)' })
    assert.equal(error.name, 'FrameIntegrityError')
    assert.equal(error.reason, 'iframe_load_failed')
    assert.equal(
      error.shortMessage,
      'The wallet did not load: its code is not the version this site approved',
    )
    assert.equal(error.details, 'sha384-x (pinned: sha384-y)')
  })

  it('args: EmailCooldownError rounds up and keeps the seconds', () => {
    const error = new emailErrors.EmailCooldownError({ secondsLeft: 4.1 })
    assert.equal(error.shortMessage, 'Please try again after 5 seconds')
    assert.equal(error.secondsLeft, 5)
  })

  it('args: FrameError keeps the frame message when there is one', () => {
    assert.equal(new embeddedErrors.FrameError({ message: 'Invalid code' }).shortMessage, 'Invalid code')
    assert.equal(new embeddedErrors.FrameError({ message: '' }).shortMessage, 'An error occurred')
  })

  it('args: RequestTimeoutError names method and seconds', () => {
    const error = new errors.RequestTimeoutError({ method: 'eth_chainId', timeoutMs: 10_000 })
    assert.equal(error.shortMessage, 'Request timed out')
    assert.equal(error.details, 'No answer to eth_chainId within 10 seconds')
    assert.equal(error.method, 'eth_chainId')
    assert.equal(error.timeoutMs, 10_000)
  })

  it('args: InvalidResponseError keeps what came back', () => {
    const error = new errors.InvalidResponseError({ method: 'eth_accounts', received: 42 })
    assert.equal(error.shortMessage, 'Invalid response')
    assert.equal(error.received, 42)
    assert.equal(error.message, 'Invalid response\n\nMethod: eth_accounts')
  })

  it('args: ValidationError keeps the path', () => {
    assert.deepEqual(new errors.ValidationError('Required', { path: ['networks', 2] }).path, ['networks', 2])
  })

  it('behavior: cause is kept', () => {
    const cause = new Error('frame gone')
    const error = new embeddedErrors.EmbeddedWalletLoadError({ cause })
    assert.equal(error.cause, cause)
    assert.equal(error.details, 'frame gone')
  })
})

describe('errors of wallet and service answers', () => {
  it('default: a wallet that returned no signature or transaction', () => {
    const signature = new walletErrors.WalletNoSignatureError()
    assert.equal(signature.name, 'WalletNoSignatureError')
    assert.equal(signature.shortMessage, 'The wallet returned no signature')
    // The words a failed EVM send shows already.
    assert.equal(signature.messageId, 'noSignature')
    const transaction = new walletErrors.WalletNoTransactionError()
    assert.equal(transaction.name, 'WalletNoTransactionError')
    assert.equal(transaction.shortMessage, 'The wallet returned no transaction')
    assert.equal(transaction.messageId, 'WalletNoTransactionError')
  })

  it('args: no companion service, with what needed one', () => {
    const error = new serviceErrors.WalletServiceNotConfiguredError({ details: 'Names need one' })
    assert.equal(error.name, 'WalletServiceNotConfiguredError')
    assert.equal(error.shortMessage, 'No wallet service configured')
    assert.equal(error.messageId, 'noWalletService')
    assert.equal(error.details, 'Names need one')
    assert.equal(error.code, 5000)
  })
})
