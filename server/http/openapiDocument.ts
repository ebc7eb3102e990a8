import type { FastifyContextConfig } from 'fastify'
import type * as z from 'zod/mini'
import { toJSONSchema } from 'zod/mini'
import * as api from '../../src/protocol/api/index.ts'
import * as embedded from '../../src/protocol/embedded/index.ts'
import type { ApiSecurity, ApiTag, ResponseDocs } from './route.ts'

/** A route as Fastify's `onRoute` hook saw it: one entry per method. */
export interface RegisteredRoute {
  method: string
  /** Fastify's path: `:id` for a parameter, `*` for the rest of the path. */
  url: string
  config: FastifyContextConfig
  /** Fastify's automatic HEAD route of a GET route: not an operation of its own. */
  headTwin: boolean
}

/** The `info` of an OpenAPI document. */
export interface OpenApiInfo {
  title: string
  version: string
  /** Markdown. */
  description: string
}

type Json = Record<string, unknown>

/** An OpenAPI 3.1 document (the parts this service writes). */
export interface OpenApiDocument {
  openapi: '3.1.0'
  info: OpenApiInfo
  tags: { name: ApiTag; description: string }[]
  paths: Record<string, Record<string, Json>>
  components: {
    schemas: Record<string, Json>
    parameters: Record<string, Json>
    securitySchemes: Record<string, Json>
  }
}

const tagDescriptions: Record<ApiTag, string> = {
  catalogue: "The project's features and allowed origins, the wallet catalogue and the analytics switch.",
  images: 'Wallet logos and network, currency and token images (public, cached a day).',
  analytics: "The modal's analytics events.",
  rpc: 'JSON-RPC 2.0 proxies to the networks and to the bundler, behind a method allow-list.',
  blockchain: "Token lists and prices, gas price, swaps and an account's transactions.",
  auth: "Sign-in with the wallet (SIWX): nonces, sessions, and the keys a site's backend verifies tokens with.",
  names: 'The name registry and its EIP-3668 gateway.',
  onramp: 'Buying crypto through the configured provider.',
  paymaster: "The project's ERC-7677 paymaster service.",
  service: 'Health and this description.',
  'embedded wallet': "The embedded wallet's API, answered to the wallet frame (its own origin) only.",
  frame: "The wallet frame's pages.",
}

const securitySchemes: Record<ApiSecurity, Json> = {
  sessionToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The session token `POST /auth/v1/authenticate` answered with.',
  },
  walletSession: {
    type: 'http',
    scheme: 'bearer',
    description:
      "An embedded wallet session's token. Each request also carries the proof of the browser key the " +
      'session is bound to: `x-wallet-time`, `x-wallet-nonce` and `x-wallet-signature`.',
  },
}

/** The protocol's schemas by their exported name (the shortest of several), for `components.schemas`. */
function protocolSchemaNames(): Map<unknown, string> {
  const names = new Map<unknown, string>()
  for (const [name, value] of [...Object.entries(api), ...Object.entries(embedded)]) {
    if (typeof value !== 'object' || value === null || !('_zod' in value)) continue
    const known = names.get(value)
    if (known === undefined || name.length < known.length) names.set(value, name)
  }
  return names
}

/** The JSON Schema of what a client sends (a schema's input: strings in a query, before transforms). */
function jsonSchemaOf(schema: z.ZodMiniType): Json {
  const { $schema: _dialect, ...json } = toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json
  return json
}

/** `/getWalletImage/:id` as OpenAPI writes it: `/getWalletImage/{id}`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
}

/** `getGetWallets`, `postEmbeddedV1EmailConnect`: unique per method and path. */
function operationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter((word) => word !== '')
  return method.toLowerCase() + words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join('')
}

/**
 * The OpenAPI 3.1 document of the routes that carry a description ({@link route}), in the order they
 * were registered. Request and response schemas are the zod schemas the routes check input with and
 * the browser parses answers with, turned into JSON Schema; the protocol's named ones go to
 * `components.schemas` under their exported names.
 *
 * @example
 * const document = openApiDocument(app.openApi.routes, { title: 'Wallet service', version: '0.1.0', description: '' })
 */
export function openApiDocument(routes: readonly RegisteredRoute[], info: OpenApiInfo): OpenApiDocument {
  const names = protocolSchemaNames()
  const schemas: Record<string, Json> = {}
  const parameters: Record<string, Json> = {}
  const usedSecurity: Record<string, Json> = {}
  const usedTags = new Set<ApiTag>()

  const schemaRef = (schema: z.ZodMiniType): Json => {
    const name = names.get(schema)
    if (name === undefined) return jsonSchemaOf(schema)
    schemas[name] ??= jsonSchemaOf(schema)
    return { $ref: `#/components/schemas/${name}` }
  }
  const parameterRef = (name: string, parameter: () => Json): Json => {
    parameters[name] ??= parameter()
    return { $ref: `#/components/parameters/${name}` }
  }
  const fieldsOf = (schema: z.ZodMiniType) => {
    const json = jsonSchemaOf(schema) as { properties?: Record<string, Json>; required?: string[] }
    return Object.entries(json.properties ?? {}).map(([name, property]) => ({
      name,
      required: (json.required ?? []).includes(name),
      schema: property,
    }))
  }
  const sdkField = (name: 'st' | 'sv', required: boolean): Json => {
    const field = fieldsOf(api.sdkQuery).find((item) => item.name === name)
    const what =
      name === 'st' ? 'SDK type, for example `wallet-elements`' : 'SDK version, for example `0.1.0`'
    return { name, in: 'query', required, description: what, schema: field?.schema ?? { type: 'string' } }
  }
  const projectIdParameter = () =>
    parameterRef('projectId', () => ({
      name: 'projectId',
      in: 'query',
      required: true,
      description: "The project's id (the modal's `project-id`).",
      schema: jsonSchemaOf(api.projectId),
    }))

  const paths: OpenApiDocument['paths'] = {}
  for (const registered of routes) {
    const docs = registered.config.openapi
    if (docs === undefined || registered.headTwin) continue
    const path = openApiPath(registered.url)
    const { access, sdkOptional, jsonRpc } = registered.config
    const project = access === 'project'
    const parameterList: Json[] = []
    if (project) {
      parameterList.push(
        projectIdParameter(),
        sdkOptional
          ? parameterRef('stOptional', () => sdkField('st', false))
          : parameterRef('st', () => sdkField('st', true)),
        sdkOptional
          ? parameterRef('svOptional', () => sdkField('sv', false))
          : parameterRef('sv', () => sdkField('sv', true)),
      )
    } else if (docs.projectId) parameterList.push(projectIdParameter())
    for (const field of docs.params ? fieldsOf(docs.params) : []) {
      parameterList.push({ name: field.name, in: 'path', required: true, schema: field.schema })
    }
    for (const field of docs.query ? fieldsOf(docs.query) : []) {
      parameterList.push({ name: field.name, in: 'query', required: field.required, schema: field.schema })
    }
    for (const header of docs.headers ?? []) {
      parameterList.push({
        name: header.name,
        in: 'header',
        required: header.required ?? false,
        description: header.description,
        schema: { type: 'string' },
      })
    }

    const errorBody = docs.errors ?? (jsonRpc ? api.jsonRpcFailure : api.apiErrorBody)
    const error = (description: string): Json =>
      errorBody === false
        ? { description, content: { 'text/plain': {} } }
        : { description, content: { 'application/json': { schema: schemaRef(errorBody) } } }
    const responses: Record<string, Json> = {}
    for (const [status, response] of Object.entries(docs.responses) as [string, ResponseDocs][]) {
      const type = response.type ?? 'application/json'
      const inWords = response.schema === undefined && response.type === undefined
      responses[status] =
        inWords && Number(status) >= 400
          ? error(response.description)
          : inWords
            ? { description: response.description }
            : {
                description: response.description,
                content: {
                  [type]: response.schema === undefined ? {} : { schema: schemaRef(response.schema) },
                },
              }
    }
    // The errors of the route's access rules and input checks, beside those it declares itself.
    const addError = (status: string, description: string) => {
      const declared = responses[status]
      responses[status] =
        declared === undefined
          ? error(description)
          : {
              ...error(`${declared.description as string} ${description}`),
              ...(declared.content === undefined ? {} : { content: declared.content }),
            }
    }
    const checksInput = docs.query !== undefined || docs.params !== undefined || docs.body !== undefined
    if (project || docs.projectId) {
      addError(
        '400',
        '`PROJECT_ID_NOT_CONFIGURED` without `projectId`; `BAD_REQUEST` naming the `field` at fault.',
      )
      addError('401', '`INVALID_PROJECT_ID`: no project has this id.')
    } else if (checksInput) addError('400', '`BAD_REQUEST` naming the `field` at fault.')
    if (project)
      addError('403', "`INVALID_APP_CONFIGURATION`: the `Origin` is not on the project's allow-list.")
    if (errorBody !== false)
      responses.default = error('Any other error (rate limits answer 429 with `Retry-After`).')

    const operation: Json = {
      operationId: operationId(registered.method, path),
      summary: docs.summary,
      ...(docs.description === undefined ? {} : { description: docs.description }),
      tags: [...docs.tags],
      ...(parameterList.length === 0 ? {} : { parameters: parameterList }),
      ...(docs.body === undefined
        ? {}
        : {
            requestBody: {
              required: true,
              content: Object.fromEntries(
                (docs.bodyTypes ?? ['application/json']).map((type) => [
                  type,
                  { schema: schemaRef(docs.body as z.ZodMiniType) },
                ]),
              ),
            },
          }),
      responses,
      ...(docs.security === undefined
        ? {}
        : { security: [Object.fromEntries(docs.security.map((name) => [name, []]))] }),
    }
    for (const name of docs.security ?? []) usedSecurity[name] = securitySchemes[name]
    for (const tag of docs.tags) usedTags.add(tag)
    paths[path] ??= {}
    ;(paths[path] as Record<string, Json>)[registered.method.toLowerCase()] = operation
  }

  return {
    openapi: '3.1.0',
    info,
    tags: (Object.keys(tagDescriptions) as ApiTag[])
      .filter((tag) => usedTags.has(tag))
      .map((name) => ({ name, description: tagDescriptions[name] })),
    paths,
    components: { schemas, parameters, securitySchemes: usedSecurity },
  }
}
