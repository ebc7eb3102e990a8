import { BaseError, type ErrorParameters } from './base.ts'

/**
 * Input failed one of the protocol's validation rules; `shortMessage` is the rule's message. A rule
 * people can break in a form gives a `messageId` (its words in the locale catalogues) and the
 * `fields` it is about; without one the message is for developers and shown as it is.
 *
 * @example
 * throw new ValidationError('Invalid CAIP-2 network id', { path: ['networks', 2] })
 * throw new ValidationError('Insufficient balance', { messageId: 'insufficientBalance', fields: ['amount'] })
 */
export class ValidationError extends BaseError {
  override name = 'ValidationError' as const
  /** Where in the input the rule failed; empty for the input itself. */
  readonly path: PropertyKey[]
  /** The form fields the message is about, first one first (default: the first step of `path`). */
  readonly fields: readonly string[]
  constructor(
    message: string,
    {
      path = [],
      fields,
      messageId = null,
      ...rest
    }: ErrorParameters & { path?: PropertyKey[]; fields?: readonly string[] } = {},
  ) {
    super(message, { ...rest, messageId })
    this.path = path
    this.fields = fields ?? (typeof path[0] === 'string' ? [path[0]] : [])
  }
}
