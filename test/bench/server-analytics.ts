// The companion service bench, analytics part: POST /e from one client until the rate limit answers 429,
// then from many clients at once.
import { randomUUID } from 'node:crypto'
import { Agent, request as httpRequest } from 'node:http'

export interface AnalyticsBenchResult {
  /** The limit in force: events per minute per client address and project (bursts of as many). */
  limitPerMinute: number
  /** One client, flat out: events accepted (204) before its first 429. */
  acceptedBeforeFirst429: number
  /** Seconds from the first event to the first 429. */
  secondsToFirst429: number
  /** After the first 429: events accepted, and 429s answered, per second. */
  acceptedPerSecondAfter: number
  refusedPerSecondAfter: number
  /** Many clients at once (each its own address): events stored per second, and the p99 answer time. */
  manyClientsEventsPerSecond: number
  manyClientsP99Ms: number
}

/** Posts one analytics event as client `address` (X-Forwarded-For, one trusted proxy): status and ms. */
function postEvent(agent: Agent, base: string, address: string): Promise<{ status: number; ms: number }> {
  const body = JSON.stringify({
    eventId: randomUUID(),
    url: 'http://localhost:5173/',
    domain: 'localhost',
    timestamp: Date.now(),
    props: { type: 'track', event: 'MODAL_OPEN', properties: { connected: false } },
  })
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${base}/e?projectId=dev-project&st=bench&sv=0`,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          origin: 'http://localhost:5173',
          'x-forwarded-for': address,
        },
      },
      (response) => {
        response.resume()
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }),
        )
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

/** `concurrency` loops posting events for `seconds`; each answer with its time since the start. */
async function postEvents(
  base: string,
  options: { seconds: number; concurrency: number; address: () => string },
): Promise<{ at: number; status: number; ms: number }[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency })
  const answers: { at: number; status: number; ms: number }[] = []
  const started = performance.now()
  const deadline = started + options.seconds * 1000
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (performance.now() < deadline) {
        const answer = await postEvent(agent, base, options.address())
        answers.push({ at: (performance.now() - started) / 1000, ...answer })
      }
    }),
  )
  agent.destroy()
  return answers.sort((a, b) => a.at - b.at)
}

/**
 * The analytics rate limit under load: one client flat out until its first 429 and after, then many
 * clients at once.
 */
export async function benchAnalytics(
  base: string,
  limitPerMinute: number,
  seconds: number,
): Promise<AnalyticsBenchResult> {
  const one = await postEvents(base, { seconds, concurrency: 4, address: () => '198.51.100.7' })
  const firstRefusal = one.findIndex((answer) => answer.status === 429)
  if (firstRefusal === -1) throw new Error(`No 429 within ${seconds} s from one client`)
  const unexpected = one.find((answer) => answer.status !== 204 && answer.status !== 429)
  if (unexpected) throw new Error(`Unexpected analytics answer ${unexpected.status}`)
  const firstAt = one[firstRefusal]?.at ?? 0
  const after = one.slice(firstRefusal)
  const afterSeconds = Math.max(0.001, (after.at(-1)?.at ?? firstAt) - firstAt)
  let counter = 0
  const many = await postEvents(base, {
    seconds: Math.min(seconds, 5),
    concurrency: 8,
    address: () => `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter++ & 255}`,
  })
  const stored = many.filter((answer) => answer.status === 204)
  const latencies = many.map((answer) => answer.ms).sort((a, b) => a - b)
  return {
    limitPerMinute,
    acceptedBeforeFirst429: one.slice(0, firstRefusal).filter((answer) => answer.status === 204).length,
    secondsToFirst429: firstAt,
    acceptedPerSecondAfter: after.filter((answer) => answer.status === 204).length / afterSeconds,
    refusedPerSecondAfter: after.filter((answer) => answer.status === 429).length / afterSeconds,
    manyClientsEventsPerSecond: stored.length / Math.min(seconds, 5),
    manyClientsP99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
  }
}
