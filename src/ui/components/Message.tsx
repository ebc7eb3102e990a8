import type { ReactNode } from 'react'
import { ErrorIcon } from './Icons.tsx'

/**
 * An error in a view: red, with an icon so colour is not the only sign. Put it inside a live
 * region that exists before the error does (`role="alert"`), so it is announced.
 *
 * @example
 * <div role="alert">{error ? <ErrorMessage>{strings.error(error)}</ErrorMessage> : null}</div>
 */
export function ErrorMessage({ children, id }: { children: ReactNode; id?: string | undefined }) {
  return (
    <p className="message error" id={id} part="error">
      <ErrorIcon />
      <span>{children}</span>
    </p>
  )
}
