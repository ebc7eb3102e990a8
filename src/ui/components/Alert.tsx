// Alert: an error under a field or a form, in a live region (used by the name and on-ramp views).
import { ErrorMessage } from './Message.tsx'

/**
 * An error under a field or a form: red, with its icon, in a live region that was there before it.
 *
 * @example
 * <Alert id={ids.error} text={error} />
 */
export function Alert({ id, text }: { id?: string; text: string | undefined }) {
  return <div role="alert">{text ? <ErrorMessage id={id}>{text}</ErrorMessage> : null}</div>
}
