// The stack's services: what each one is, and starting them in parallel (honouring `dependsOn`), all or nothing.

export type RunningService = {
  url: string
  /** Shown after the URL by `npm start`, e.g. `eip155:31337`. */
  detail?: string
  stop(): Promise<void>
}

export type StackService = {
  name: string
  /** Names of services (earlier in the list) that must have started first. */
  dependsOn?: readonly string[]
  start(): Promise<RunningService>
}

export type StartedService = { name: string; url: string; detail?: string }

/**
 * Starts services in parallel, honouring `dependsOn`. All or nothing: when one fails, the others
 * (those started, and those still starting once they finish) are stopped and the first error thrown.
 *
 * @example
 * const running = await startServices([{ name: 'relay', start: () => startRelay({ port }) }])
 * await running.stop()
 */
export async function startServices(
  services: readonly StackService[],
): Promise<(StartedService & { stop(): Promise<void> })[] & { stop(): Promise<void> }> {
  const started = new Map<string, Promise<RunningService>>()
  for (const service of services) {
    if (started.has(service.name)) throw new Error(`stack: two services are named "${service.name}"`)
    const dependencies = (service.dependsOn ?? []).map((name) => {
      const dependency = started.get(name)
      if (!dependency)
        throw new Error(`stack: "${service.name}" depends on "${name}", which is not listed before it`)
      return dependency
    })
    started.set(
      service.name,
      Promise.all(dependencies).then(
        () =>
          service.start().catch((error: unknown) => {
            throw new ServiceStartError(service.name, error)
          }),
        () => {
          throw new DependencyFailed(service.name)
        },
      ),
    )
  }

  const results = await Promise.allSettled(started.values())
  const entries = services.map((service, index) => ({ service, result: results[index]! }))

  const stopInReverse = async (list: { name: string; running: RunningService }[]) => {
    const errors: unknown[] = []
    for (const { name, running } of [...list].reverse()) {
      try {
        await running.stop()
      } catch (error) {
        errors.push(new Error(`stack: stopping ${name} failed: ${errorMessage(error)}`, { cause: error }))
      }
    }
    if (errors.length === 1) throw errors[0]
    if (errors.length > 1) throw new AggregateError(errors, 'stack: some services failed to stop')
  }

  const ok = entries.flatMap(({ service, result }) =>
    result.status === 'fulfilled' ? [{ name: service.name, running: result.value }] : [],
  )
  const failures = entries.flatMap(({ result }) =>
    result.status === 'rejected' && !(result.reason instanceof DependencyFailed)
      ? [result.reason as Error]
      : [],
  )
  if (failures.length > 0) {
    await stopInReverse(ok).catch((error: unknown) => console.error(errorMessage(error)))
    if (failures.length === 1) throw failures[0]
    throw new AggregateError(failures, failures.map((failure) => failure.message).join('\n'))
  }

  let stopping: Promise<void> | undefined
  const list = ok.map(({ name, running }) => ({
    name,
    url: running.url,
    ...(running.detail ? { detail: running.detail } : {}),
    stop: running.stop,
  }))
  return Object.assign(list, {
    stop: () => {
      stopping ??= stopInReverse(ok)
      return stopping
    },
  })
}

class ServiceStartError extends Error {
  override name = 'ServiceStartError'
  constructor(service: string, cause: unknown) {
    super(`stack: ${service} failed to start: ${errorMessage(cause)}`, { cause })
  }
}

class DependencyFailed extends Error {
  override name = 'DependencyFailed'
  constructor(service: string) {
    super(`stack: ${service} was not started because a service it depends on failed`)
  }
}

/** The message of an error, or the thrown value as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
