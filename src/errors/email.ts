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
