// The recovery password's rules, checked in the frame before scrypt runs.

/** The shortest recovery password the frame accepts. */
export const MIN_PASSWORD_LENGTH = 12

/** Why a new recovery password is refused: the catalogue key of its message (`frame…`). */
export type PasswordProblem = 'frameRecoveryTooShort' | 'frameRecoveryTooSimple' | 'frameRecoveryMismatch'

/**
 * The problem with a new recovery password and its repetition, or undefined when it may be used:
 * at least {@link MIN_PASSWORD_LENGTH} characters (counted as the person sees them, after NFKC, as
 * scrypt receives them), mixing at least two kinds of letters, digits and other characters (a space
 * counts, so a passphrase of words and spaces passes), and typed the same twice. The service never
 * sees it: a stolen database pays scrypt (N = 2^17) per guess, so length matters most.
 *
 * @example
 * passwordProblem('short', 'short') // 'frameRecoveryTooShort'
 * passwordProblem('correct horse battery', 'correct horse battery') // undefined
 */
export function passwordProblem(password: string, repeated: string): PasswordProblem | undefined {
  const characters = [...password.normalize('NFKC')]
  if (characters.length < MIN_PASSWORD_LENGTH) return 'frameRecoveryTooShort'
  const kinds = [/\p{L}/u, /\p{N}/u, /[^\p{L}\p{N}]/u].filter((kind) =>
    characters.some((character) => kind.test(character)),
  )
  if (kinds.length < 2) return 'frameRecoveryTooSimple'
  if (password !== repeated) return 'frameRecoveryMismatch'
  return undefined
}
