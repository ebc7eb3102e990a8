import { z as classic } from 'zod'
import type * as z from 'zod/mini'
import { safeParse } from 'zod/mini'
import { badRequest } from '../errors.ts'

// zod/mini (the shared schemas) ships no messages of its own: give the server English ones.
classic.config(classic.locales.en())

/** Where a value came from, for messages. */
export type InputLocation = 'query' | 'path' | 'body'

const labels: Record<InputLocation, string> = {
  query: 'query parameter',
  path: 'path parameter',
  body: 'body field',
}

/**
 * A zod issue path as the API names fields: `props.event`, `[3].props.event`, `chains`.
 *
 * @example
 * fieldName([3, 'props', 'event']) // '[3].props.event'
 */
export function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('')
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<PropertyKey, unknown>)[part]
  }
  return current
}

/** The first problem of a failed parse: the field at fault and a sentence about it. */
export interface InputProblem {
  /** Field name as the API reports it (`entries`, `props.event`; `''` for the value as a whole). */
  field: string
  /** What is wrong, without the field name: `Expected at most 100`, `missing`, `give it once`. */
  problem: string
}

/**
 * The option of a union of one value and a list of them (one request or a batch) that has the value's
 * shape: checked alone, its first problem names the field at fault, where the union would only say
 * that no option matched. Any other schema as it is.
 */
function optionOfShape(schema: z.ZodMiniType, value: unknown): z.ZodMiniType {
  const def = schema._zod.def as { type: string; options?: readonly z.ZodMiniType[] }
  if (def.type !== 'union' || def.options === undefined) return schema
  const lists = def.options.filter((option) => option._zod.def.type === 'array')
  const others = def.options.filter((option) => option._zod.def.type !== 'array')
  if (lists.length !== 1 || others.length !== 1) return schema
  return (Array.isArray(value) ? lists[0] : others[0]) ?? schema
}

/**
 * Parses input with a shared schema: the typed value, or the first problem. Query and path fields are
 * named by their parameter alone (`chains`, not `chains[2]`). A union of one value and a list of them
 * is checked against the option of the value's shape.
 *
 * @example
 * const result = checkInput(jsonRpcRequest, entry, 'body')
 */
export function checkInput<Schema extends z.ZodMiniType>(
  schema: Schema,
  value: unknown,
  location: InputLocation,
): { success: true; data: z.output<Schema> } | { success: false; problem: InputProblem } {
  const result = safeParse(optionOfShape(schema, value), value)
  if (result.success) return { success: true, data: result.data as z.output<Schema> }
  const issue = result.error.issues[0]
  const path = issue?.path ?? []
  const field = location === 'body' ? fieldName(path) : String(path[0] ?? '')
  if (location !== 'body' && Array.isArray(valueAt(value, path.slice(0, 1)))) {
    return { success: false, problem: { field, problem: 'give it once' } }
  }
  if (issue?.code === 'invalid_type' && valueAt(value, path) === undefined) {
    return { success: false, problem: { field, problem: 'missing' } }
  }
  return { success: false, problem: { field, problem: issue?.message ?? 'Invalid value' } }
}

/**
 * Parses request input with a shared schema, or throws a 400 `ServiceError` naming the first bad field:
 * `Missing query parameter st`, `Invalid query parameter entries: Expected at most 100`,
 * `Invalid body field props.event: …`.
 *
 * @example
 * const query = parseInput(getWalletsQuery, request.query, 'query')
 */
export function parseInput<Schema extends z.ZodMiniType>(
  schema: Schema,
  value: unknown,
  location: InputLocation,
): z.output<Schema> {
  const result = checkInput(schema, value, location)
  if (result.success) return result.data
  const { field, problem } = result.problem
  const label = labels[location]
  if (field === '') throw badRequest(location, `Invalid ${location === 'body' ? 'body' : label}: ${problem}`)
  if (problem === 'missing') throw badRequest(field, `Missing ${label} ${field}`)
  if (problem === 'give it once') throw badRequest(field, `Invalid ${label} ${field}: give it once`)
  throw badRequest(field, `Invalid ${label} ${field}: ${problem}`)
}
