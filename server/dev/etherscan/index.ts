/**
 * A stand-in for an Etherscan-compatible account API (tests only): the upstream history source of real
 * networks is not reachable here, so this speaks its protocol on loopback over what a test records.
 * `GET /v2/api?chainid=&module=account&action=txlist|tokentx|txlistinternal&address=&startblock=
 * &endblock=&page=&offset=&sort=&apikey=`, answering `{status, message, result}` as Etherscan API V2
 * does: "1"/"OK" with rows (all fields strings), "0"/"No transactions found" with `[]`, and
 * "0"/"NOTOK" with a reason for a missing or wrong key, a bad request or too many calls per second.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type EtherscanAction = 'txlist' | 'tokentx' | 'txlistinternal'

/** One row as the API answers it: every field a string. */
export type EtherscanRow = Record<string, string> & {
  blockNumber: string
  hash: string
  from: string
  to: string
}

export interface StartEtherscanParameters {
  host?: string
  port: number
  /** The key the service must send as `apikey`. */
  apiKey: string
  /** Calls per second per key before "Max calls per sec rate limit reached" (Etherscan's free tier: 5). */
  callsPerSecond?: number
}

export interface RunningEtherscan {
  /** The API's URL, `http://host:port/v2/api`. */
  url: string
  /** Records a row of `action` on network `chainid` (a number, as the API takes it). */
  add(chainid: number, action: EtherscanAction, row: EtherscanRow): void
  /** Requests answered so far (for tests). */
  readonly requests: URLSearchParams[]
  stop(): Promise<void>
}

/** Etherscan answers at most 10,000 rows through page × offset. */
const RESULT_WINDOW = 10_000

/**
 * Starts the stand-in.
 *
 * @example
 * const explorer = await startEtherscanStandin({ port: await freePort(), apiKey: 'test-key' })
 * explorer.add(1, 'txlist', { blockNumber: '10', hash, from, to, value: '1', ... })
 */
export async function startEtherscanStandin(parameters: StartEtherscanParameters): Promise<RunningEtherscan> {
  const host = parameters.host ?? '127.0.0.1'
  const rows = new Map<string, EtherscanRow[]>()
  const requests: URLSearchParams[] = []
  const calls: number[] = []
  const callsPerSecond = parameters.callsPerSecond ?? 1_000

  function answer(query: URLSearchParams): { status: '0' | '1'; message: string; result: unknown } {
    const notOk = (result: string) => ({ status: '0' as const, message: 'NOTOK', result })
    const key = query.get('apikey')
    if (!key) return notOk('Missing/Invalid API Key')
    if (key !== parameters.apiKey) return notOk('Invalid API Key (#err2)|')
    const now = Date.now()
    while (calls.length > 0 && (calls[0] as number) <= now - 1_000) calls.shift()
    if (calls.length >= callsPerSecond)
      return notOk(`Max calls per sec rate limit reached (${callsPerSecond}/sec)`)
    calls.push(now)
    const chainid = query.get('chainid') ?? ''
    if (!/^\d+$/.test(chainid)) return notOk('Missing or unsupported chainid parameter (required for v2 api)')
    const action = query.get('action') ?? ''
    if (query.get('module') !== 'account' || !['txlist', 'tokentx', 'txlistinternal'].includes(action))
      return notOk('Error! Missing Or invalid Module name')
    const address = (query.get('address') ?? '').toLowerCase()
    if (!/^0x[0-9a-f]{40}$/.test(address)) return notOk('Error! Invalid address format')
    const page = Number(query.get('page') ?? '1')
    const offset = Number(query.get('offset') ?? '10000')
    if (!(page >= 1 && offset >= 1) || page * offset > RESULT_WINDOW)
      return notOk('Result window is too large, PageNo x Offset size must be less than or equal to 10000')
    const start = Number(query.get('startblock') ?? '0')
    const end = Number(query.get('endblock') ?? Number.MAX_SAFE_INTEGER)
    const descending = query.get('sort') === 'desc'
    const matching = (rows.get(`${chainid}:${action}`) ?? [])
      .filter(
        (row) =>
          (row.from.toLowerCase() === address || row.to.toLowerCase() === address) &&
          Number(row.blockNumber) >= start &&
          Number(row.blockNumber) <= end,
      )
      .sort((a, b) => {
        const order =
          Number(a.blockNumber) - Number(b.blockNumber) ||
          Number(a.transactionIndex ?? 0) - Number(b.transactionIndex ?? 0) ||
          Number(a.logIndex ?? 0) - Number(b.logIndex ?? 0)
        return descending ? -order : order
      })
      .slice((page - 1) * offset, page * offset)
    if (matching.length === 0) return { status: '0', message: 'No transactions found', result: [] }
    return { status: '1', message: 'OK', result: matching }
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://standin')
    if (request.method !== 'GET' || url.pathname !== '/v2/api') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
      return
    }
    requests.push(url.searchParams)
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(answer(url.searchParams)))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(parameters.port, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host}:${port}/v2/api`,
    requests,
    add(chainid, action, row) {
      const key = `${chainid}:${action}`
      rows.set(key, [...(rows.get(key) ?? []), row])
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
