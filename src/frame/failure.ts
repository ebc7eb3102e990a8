// The errors the frame's wallet answers with, and what the app hears of any error.
import type { FrameErrorPayload } from '../protocol/embedded/index.ts'
import { embeddedMessages } from '../protocol/embedded/index.ts'
import { ApiError } from './api.ts'

/** An error the frame answers with: a message, an EIP-1193 or API code, and its extras. */
export class FrameFailure extends Error {
  readonly payload: FrameErrorPayload
  constructor(payload: FrameErrorPayload) {
    super(payload.message)
    this.payload = payload
  }
}

export const notAvailable = () => new FrameFailure({ message: embeddedMessages.notAvailable, code: 4200 })
export const actionNotAllowed = () =>
  new FrameFailure({ message: embeddedMessages.actionNotAllowed, code: 'FORBIDDEN' })
export const rpcNotAllowed = (method: string) =>
  new FrameFailure({ message: embeddedMessages.rpcNotAllowed, code: 4200, data: { method } })
export const userRejected = () => new FrameFailure({ message: embeddedMessages.userRejected, code: 4001 })

/** Whether the service answered 401: the session has ended there. */
export const isSessionEnded = (error: unknown) => error instanceof ApiError && error.status === 401

/** What the app hears of an API error: the service's message and code, RPC codes as numbers. */
export function failureOf(error: unknown): FrameErrorPayload {
  if (error instanceof FrameFailure) return error.payload
  if (error instanceof ApiError) {
    return {
      message: error.message,
      code: error.rpcCode ?? error.code,
      ...(error.secondsLeft === undefined ? {} : { secondsLeft: error.secondsLeft }),
      ...(error.attemptsLeft === undefined ? {} : { attemptsLeft: error.attemptsLeft }),
      ...(error.rpcData === undefined ? {} : { data: error.rpcData }),
    }
  }
  return { message: 'An error occurred' }
}
