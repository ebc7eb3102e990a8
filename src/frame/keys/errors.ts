// The typed errors of the frame's key module: what a wrong, stale or altered share or secret gives.
import { BaseError, type ErrorParameters } from '../../errors/base.ts'

const docsPath = '/EMBEDDED-WALLET.md#keys-and-shares-the-frames-module'

/**
 * Bytes that are not a secret of a known format (version byte, length, BIP-39 checksum).
 *
 * @example
 * throw new InvalidSecretError({ details: 'Unknown version 7' })
 */
export class InvalidSecretError extends BaseError {
  override name = 'InvalidSecretError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('The wallet secret is not in a known format', { docsPath, ...parameters })
  }
}

/**
 * A share that is not one of ours (format byte, length) or two that cannot be combined.
 *
 * @example
 * throw new InvalidShareError({ details: 'A share is 3 bytes long' })
 */
export class InvalidShareError extends BaseError {
  override name = 'InvalidShareError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('A wallet share is not in a known format', { docsPath, ...parameters })
  }
}

/**
 * Two shares that do not open the expected wallet: from different sets (a share retired by a
 * reshare), altered, or of another person. Never a different wallet.
 *
 * @example
 * throw new ShareMismatchError({ details: 'The shares come from different sets' })
 */
export class ShareMismatchError extends BaseError {
  override name = 'ShareMismatchError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('These shares do not open this wallet', { docsPath, ...parameters })
  }
}

/**
 * The device share kept on this browser does not open: altered, another person's record, or its
 * wrapping key is gone.
 *
 * @example
 * throw new DeviceShareUnreadableError({ cause })
 */
export class DeviceShareUnreadableError extends BaseError {
  override name = 'DeviceShareUnreadableError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('The wallet share on this device cannot be opened', { docsPath, ...parameters })
  }
}

/**
 * A sealed recovery share that is not in a known format (version, KDF, lengths).
 *
 * @example
 * throw new InvalidSealedShareError({ details: 'Unknown KDF argon2id' })
 */
export class InvalidSealedShareError extends BaseError {
  override name = 'InvalidSealedShareError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('The sealed recovery share is not in a known format', { docsPath, ...parameters })
  }
}

/**
 * The recovery password does not open the recovery share.
 *
 * @example
 * throw new WrongRecoveryPasswordError()
 */
export class WrongRecoveryPasswordError extends BaseError {
  override name = 'WrongRecoveryPasswordError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('Wrong recovery password', { docsPath, ...parameters })
  }
}

/**
 * The passkey's PRF output does not open the recovery share (another passkey, or altered data).
 *
 * @example
 * throw new WrongRecoveryPasskeyError()
 */
export class WrongRecoveryPasskeyError extends BaseError {
  override name = 'WrongRecoveryPasskeyError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('This passkey does not open the recovery share', { docsPath, ...parameters })
  }
}
