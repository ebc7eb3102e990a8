/**
 * The local EVM chain: a Hardhat Network node (`hardhat node`, EDR engine) run as a child process on
 * loopback, with the well-known test mnemonic and ten funded accounts (hardhat.config.cjs beside this).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import net from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type HDAccount, mnemonicToAccount } from 'viem/accounts'

/** The publicly known Hardhat/Foundry test mnemonic. Never use these keys outside a dev chain. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk'

/** How many accounts the dev chain funds (10000 ETH each). */
export const DEV_ACCOUNT_COUNT = 10

export const DEFAULT_CHAIN_ID = 31337

/**
 * How long a script waits for one answer of a local node (viem's `timeout`; its default is 10 s). A
 * machine starting several stacks at once (the test lanes) answers slowly for a while: slow is not down.
 */
export const LOCAL_NODE_TIMEOUT_MS = 60_000

const READY_TIMEOUT_MS = 30_000
const STOP_GRACE_MS = 3_000
const STDERR_TAIL_BYTES = 4_000

const configPath = fileURLToPath(new URL('./hardhat.config.cjs', import.meta.url))
const exitWithParentPath = fileURLToPath(new URL('./exit-with-parent.cjs', import.meta.url))
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url))

/**
 * The dev account at `index` of the test mnemonic (`m/44'/60'/0'/0/index`), funded on the dev chain.
 *
 * @example
 * const alice = devAccount(0) // 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266
 */
export function devAccount(index = 0): HDAccount {
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`devAccount: bad index ${index}`)
  return mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index })
}

export type StartChainParameters = {
  /** TCP port to listen on; must be free. */
  port: number
  /** EIP-155 chain id, default 31337. */
  chainId?: number
  /** Interface to bind; loopback only by default. */
  host?: string
}

export type LocalChain = {
  /** HTTP (and WebSocket) JSON-RPC endpoint, e.g. `http://127.0.0.1:8545`. */
  url: string
  chainId: number
  /** SIGTERM, then SIGKILL after 3 s; resolves once the process has exited. Safe to call twice. */
  stop(): Promise<void>
}

export type StartChainErrorType = Error

/**
 * Starts a Hardhat Network node as a child process and resolves once it answers `eth_chainId`.
 *
 * @example
 * const chain = await startChain({ port: 8545, chainId: 31337 })
 * // ... use chain.url with viem
 * await chain.stop()
 */
export async function startChain({
  port,
  chainId = DEFAULT_CHAIN_ID,
  host = '127.0.0.1',
}: StartChainParameters): Promise<LocalChain> {
  if (!Number.isInteger(port) || port <= 0 || port > 65_535)
    throw new RangeError(`startChain: bad port ${port}`)
  if (!Number.isSafeInteger(chainId) || chainId <= 0)
    throw new RangeError(`startChain: bad chainId ${chainId}`)
  await assertPortFree(host, port)

  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  const child = spawn(
    process.execPath,
    [
      '--require',
      exitWithParentPath,
      hardhatBin(),
      'node',
      '--hostname',
      host,
      '--port',
      String(port),
      '--config',
      configPath,
    ],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
        HARDHAT_CHAIN_ID: String(chainId),
        // Colour codes would only clutter the stderr tail quoted in errors.
        FORCE_COLOR: '0',
        NO_COLOR: '1',
      },
      // stdin is a pipe only so that the child sees EOF when this process dies (exit-with-parent.cjs).
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  )

  let stderrTail = ''
  const keepTail = (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES)
  }
  child.stderr?.on('data', keepTail)
  // Hardhat prints every request on stdout; drain it so the pipe never fills up, keep only errors.
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8')
    if (/error/i.test(text)) keepTail(chunk)
  })

  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once('exit', () => resolve())
  })
  // If the parent exits without calling stop() (crash, process.exit), do not leave the node behind.
  const killOnExit = () => {
    if (isRunning(child)) child.kill('SIGKILL')
  }
  process.on('exit', killOnExit)

  let stopping: Promise<void> | undefined
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (isRunning(child)) {
        child.kill('SIGTERM')
        const timer = setTimeout(() => {
          if (isRunning(child)) child.kill('SIGKILL')
        }, STOP_GRACE_MS)
        await exited
        clearTimeout(timer)
      }
      child.stdin?.destroy()
      process.off('exit', killOnExit)
    })()
    return stopping
  }

  try {
    await waitUntilReady({ url, chainId, child, exited, stderr: () => stderrTail })
  } catch (error) {
    await stop()
    throw error
  }
  return { url, chainId, stop }
}

function hardhatBin(): string {
  const require = createRequire(import.meta.url)
  const packageJsonPath = require.resolve('hardhat/package.json')
  const { bin } = require(packageJsonPath) as { bin: string | Record<string, string> }
  const relative = typeof bin === 'string' ? bin : bin.hardhat
  if (!relative) throw new Error('startChain: the hardhat package has no "hardhat" bin')
  return path.join(path.dirname(packageJsonPath), relative)
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null
}

/** Fails fast, with a message naming the port, instead of letting hardhat die with a stack trace. */
async function assertPortFree(host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer()
    probe.unref()
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new Error(
            `startChain: port ${port} on ${host} is already in use; stop what listens there ` +
              `(ss -ltnp | grep :${port}) or choose another port (CHAIN_PORT / CHAIN2_PORT).`,
          ),
        )
      } else reject(error)
    })
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()))
  })
}

type WaitParameters = {
  url: string
  chainId: number
  child: ChildProcess
  exited: Promise<void>
  stderr: () => string
}

async function waitUntilReady({ url, chainId, child, exited, stderr }: WaitParameters): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  let died = false
  void exited.then(() => {
    died = true
  })
  const describe = (what: string) => {
    const tail = stderr().trim()
    return `startChain: ${what}${tail ? `\n--- hardhat output (tail) ---\n${tail}` : ''}`
  }

  while (Date.now() < deadline) {
    if (died) {
      throw new Error(
        describe(`hardhat node exited early (code ${child.exitCode}, signal ${child.signalCode})`),
      )
    }
    const answer = await rpcChainId(url)
    if (answer !== undefined) {
      if (answer !== chainId)
        throw new Error(describe(`${url} answered chain id ${answer}, expected ${chainId}`))
      return
    }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 100))])
  }
  throw new Error(
    describe(`hardhat node did not answer eth_chainId at ${url} within ${READY_TIMEOUT_MS / 1000} s`),
  )
}

async function rpcChainId(url: string): Promise<number | undefined> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1_000),
    })
    if (!response.ok) return undefined
    const body = (await response.json()) as { result?: unknown }
    return typeof body.result === 'string' ? Number.parseInt(body.result, 16) : undefined
  } catch {
    return undefined
  }
}
