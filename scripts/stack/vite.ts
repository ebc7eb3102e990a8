// The stack's two uses of vite: the wallet frame's build and the demo page's dev server.
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { HOST, repoRoot, type StackOptions } from './options.ts'
import { errorMessage, type RunningService } from './services.ts'

/** Builds the wallet frame (src/frame) into a temporary folder for this run of the stack. */
export async function buildFrame(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wallet-frame-'))
  const { build } = await import('vite')
  await build({
    configFile: path.join(repoRoot, 'vite.frame.config.ts'),
    logLevel: 'warn',
    build: { outDir: dir, emptyOutDir: true },
  })
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

type StartDemoParameters = {
  configFile: string
  port: number
  logLevel: NonNullable<StackOptions['logLevel']>
  env: Record<string, string>
}

/** Starts the demo page's vite dev server with the stack's URLs in its `VITE_*` variables. */
export async function startDemo({
  configFile,
  port,
  logLevel,
  env,
}: StartDemoParameters): Promise<RunningService> {
  if (!existsSync(configFile)) {
    throw new Error(
      `the demo's vite config ${path.relative(repoRoot, configFile) || configFile} does not exist yet; ` +
        'create it, or point DEMO_VITE_CONFIG (or the demoConfigFile option) at another config',
    )
  }
  // Vite inlines VITE_* variables from process.env into import.meta.env of the demo.
  Object.assign(process.env, env)

  const { createServer } = await import('vite')
  // Vite installs its own SIGTERM (and stdin 'end') handler that calls process.exit() once vite alone
  // is closed; whoever owns the process (scripts/start.ts, a test) stops the whole stack instead.
  const sigtermBefore = new Set(process.listeners('SIGTERM'))
  const stdinEndBefore = new Set(process.stdin.listeners('end'))
  const server = await createServer({
    configFile,
    logLevel,
    clearScreen: false,
    server: { host: HOST, port, strictPort: true },
  })
  for (const listener of process.listeners('SIGTERM')) {
    if (!sigtermBefore.has(listener)) process.off('SIGTERM', listener)
  }
  for (const listener of process.stdin.listeners('end')) {
    if (!stdinEndBefore.has(listener)) process.stdin.off('end', listener as (...args: unknown[]) => void)
  }

  try {
    await server.listen()
  } catch (error) {
    await server.close()
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE' || /already in use/i.test(errorMessage(error))) {
      throw new Error(`port ${port} on ${HOST} is already in use (DEMO_PORT); choose another port`, {
        cause: error,
      })
    }
    throw error
  }
  const url = server.resolvedUrls?.local[0] ?? `http://${HOST}:${port}/`
  return { url, stop: () => server.close() }
}
