import { BaseError, type ErrorParameters } from './base.ts'

/**
 * The person declined to sign the sign-in message.
 *
 * @example
 * throw new SignatureDeclinedError({ cause })
 */
export class SignatureDeclinedError extends BaseError {
  override name = 'SignatureDeclinedError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('Signature declined', parameters)
  }
}

/**
 * The signature came from a smart account the application could not verify.
 *
 * @example
 * throw new SmartAccountNotSupportedError()
 */
export class SmartAccountNotSupportedError extends BaseError {
  override name = 'SmartAccountNotSupportedError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('This application might not support Smart Accounts', parameters)
  }
}

/**
 * Sign-in could not start (no nonce, no message); the caller disconnects afterwards.
 *
 * @example
 * throw new AuthenticationInitError({ cause })
 */
export class AuthenticationInitError extends BaseError {
  override name = 'AuthenticationInitError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('A problem occurred while trying initialize authentication', parameters)
  }
}
