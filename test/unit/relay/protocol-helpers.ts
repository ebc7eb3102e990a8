// What the dev relay protocol tests share: a relay per test, hashing, and waiting for a condition.
import { createHash } from 'node:crypto'
import type { Relay, RelayOptions } from '../../../server/dev/relay/index.ts'
import { startRelay } from '../../../server/dev/relay/index.ts'
import { RawClient } from './helpers.ts'

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')

/** Starts a relay on a free port for one test and stops it (and the test's clients) afterwards. */
export async function withRelay(
  options: RelayOptions,
  body: (relay: Relay, connect: typeof RawClient.connect) => Promise<void>,
): Promise<void> {
  const relay = await startRelay({ port: 0, ...options })
  const clients: RawClient[] = []
  const connect: typeof RawClient.connect = async (url, connectOptions) => {
    const client = await RawClient.connect(url, connectOptions)
    clients.push(client)
    return client
  }
  try {
    await body(relay, connect)
  } finally {
    await Promise.all(clients.map((client) => client.close()))
    await relay.stop()
  }
}

export async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const start = Date.now()
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
