import { BaseError, type ErrorParameters } from './base.ts'

/**
 * A second sign-in e-mail was asked for within the cooldown.
 *
 * @example
 * throw new EmailCooldownError({ secondsLeft: 12 }) // 'Please try again after 12 seconds'
 */
export class EmailCooldownError extends BaseError {
  override name = 'EmailCooldownError' as const
  readonly secondsLeft: number
  constructor({ secondsLeft, ...rest }: ErrorParameters & { secondsLeft: number }) {
    const seconds = Math.max(0, Math.ceil(secondsLeft))
    super(`Please try again after ${seconds} seconds`, { ...rest, messageValues: { seconds } })
    this.secondsLeft = seconds
  }
}

/**
 * A one-time code that does not match; `attemptsLeft` tries remain before it is void.
 *
 * @example
 * throw new InvalidCodeError({ attemptsLeft: 3 }) // 'Invalid code: 3 tries left'
 */
export class InvalidCodeError extends BaseError {
  override name = 'InvalidCodeError' as const
  readonly attemptsLeft: number
  constructor({ attemptsLeft = 0, ...rest }: ErrorParameters & { attemptsLeft?: number } = {}) {
    super(`Invalid code: ${attemptsLeft} ${attemptsLeft === 1 ? 'try' : 'tries'} left`, {
      ...rest,
      messageValues: { attemptsLeft },
    })
    this.attemptsLeft = attemptsLeft
  }
}

/**
 * A one-time code or approval link that expired, was used, or was voided by 5 wrong tries.
 *
 * @example
 * throw new CodeExpiredError()
 */
export class CodeExpiredError extends BaseError {
  override name = 'CodeExpiredError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('This code no longer works: ask for a new one', parameters)
  }
}
