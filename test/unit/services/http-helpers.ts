// What the HTTP client tests share: recording fetches and waits, and tiny local servers for failure modes.
import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { BaseError } from '../../../src/errors/index.ts'
import { createHttpClient, type HttpClientOptions } from '../../../src/services/http.ts'

/** A fetch that records every URL it is asked for and can add headers (an `Origin`, as a page sends). */
export function recordingFetch(headers: Record<string, string> = {}) {
  const urls: URL[] = []
  const fetcher: typeof fetch = (input, init) => {
    urls.push(new URL(String(input)))
    return fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } })
  }
  return { fetch: fetcher, urls }
}

/** A client whose waits are recorded, not slept. */
export function client(options: Partial<HttpClientOptions> & { baseUrl: string }) {
  const delays: number[] = []
  const recorder = recordingFetch()
  const http = createHttpClient({
    projectId: 'dev-project',
    fetch: recorder.fetch,
    sleep: async (ms) => {
      delays.push(ms)
    },
    ...options,
  })
  return { http, delays, urls: recorder.urls }
}

export type Handler = (request: IncomingMessage, response: ServerResponse, index: number) => void

/** A local server answering with `handler`; `hits` counts the requests it received. */
export async function localServer(handler: Handler) {
  const seen: string[] = []
  const server = createServer((request, response) => {
    seen.push(request.url ?? '')
    handler(request, response, seen.length - 1)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export const json = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))

export const okWallets = { data: [], count: 0 }

export const isError = (name: string, shortMessage?: string) => (error: unknown) => {
  const base = error as BaseError
  assert.equal(base.name, name, `expected ${name}, got ${base.name}: ${base.message}`)
  if (shortMessage !== undefined) assert.equal(base.shortMessage, shortMessage)
  return true
}
