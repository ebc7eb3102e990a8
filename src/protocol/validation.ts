import * as z from 'zod/mini'

/** The outcome of {@link validate}: the parsed value, or the first issue's message and where it is. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; message: string; path: PropertyKey[] }

/**
 * Error map giving zod's generic issues the spec's wording ("Required", "Expected X, received Y").
 * Schemas' own messages take precedence over it.
 *
 * @example
 * z.safeParse(schema, value, { error: formatIssue })
 */
export function formatIssue(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'Required'
      return `Expected ${issue.expected}, received ${typeName(issue.input)}`
    case 'invalid_value':
      return `Expected ${issue.values.map((value) => JSON.stringify(value)).join(' | ')}, received ${JSON.stringify(issue.input) ?? typeName(issue.input)}`
    case 'invalid_format':
      return issue.format === 'regex' ? 'Invalid format' : `Invalid ${issue.format}`
    case 'too_small':
      return issue.origin === 'string'
        ? `Must be at least ${issue.minimum} characters`
        : issue.origin === 'array'
          ? `Must have at least ${issue.minimum} items`
          : `Must be at least ${issue.minimum}`
    case 'too_big':
      return issue.origin === 'string'
        ? `Must be at most ${issue.maximum} characters`
        : issue.origin === 'array'
          ? `Must have at most ${issue.maximum} items`
          : `Must be at most ${issue.maximum}`
    case 'unrecognized_keys':
      return `Unrecognized keys: ${issue.keys.join(', ')}`
    default:
      return 'Invalid input'
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number' && Number.isNaN(value)) return 'nan'
  return typeof value
}

/**
 * Checks a value against a schema without throwing; the message is the first issue's.
 *
 * @example
 * const result = validate(EmailSchema, input)
 * if (!result.ok) showError(result.message)
 */
export function validate<T extends z.ZodMiniType>(schema: T, value: unknown): ValidationResult<z.output<T>> {
  const result = z.safeParse(schema, value, { error: formatIssue })
  if (result.success) return { ok: true, value: result.data }
  const issue = result.error.issues[0]
  return { ok: false, message: issue?.message ?? 'Invalid input', path: issue?.path ?? [] }
}
