/**
 * Compiles the local market's test contracts (contracts/*.sol, on OpenZeppelin 5 from npm) with npm
 * `solc` (solc-js, no compiler download). The output is kept in node_modules/.cache, keyed by the
 * sources, the OpenZeppelin and solc versions and the settings, so only the first start compiles.
 */
import { createHash, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Abi, Hex } from 'viem'

const contractsDir = fileURLToPath(new URL('./contracts/', import.meta.url))
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url))
const cacheDir = path.join(repoRoot, 'node_modules/.cache/wallet-elements-contracts')
const require = createRequire(import.meta.url)

/** One compiled contract: what deploying and calling it needs. */
export interface CompiledContract {
  abi: Abi
  /** Creation code. */
  bytecode: Hex
  /** Runtime code (what `eth_getCode` answers once deployed). */
  deployedBytecode: Hex
}

export type CompiledContracts = Record<string, CompiledContract>

const settings = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
}

function packageVersion(name: string): string {
  return (require(`${name}/package.json`) as { version: string }).version
}

/** Reads `@openzeppelin/contracts/...` imports from node_modules, and nothing else. */
function findImport(importPath: string): { contents: string } | { error: string } {
  if (!importPath.startsWith('@openzeppelin/contracts/') || importPath.includes('..'))
    return { error: `Import ${importPath} is not allowed: only @openzeppelin/contracts/…` }
  try {
    return { contents: readFileSync(require.resolve(importPath), 'utf8') }
  } catch {
    return { error: `Import ${importPath} not found` }
  }
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[]
  contracts?: Record<
    string,
    Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>
  >
}

/**
 * The test contracts, compiled (or read from the cache). Resolves to contracts by name:
 * `DevToken`, `DevWETH`, `DevMulticall`.
 *
 * @example
 * const { DevToken } = await compileContracts()
 */
export async function compileContracts(): Promise<CompiledContracts> {
  const names = (await readdir(contractsDir)).filter((name) => name.endsWith('.sol')).sort()
  const sources: Record<string, { content: string }> = {}
  for (const name of names) sources[name] = { content: await readFile(path.join(contractsDir, name), 'utf8') }

  const key = createHash('sha256')
    .update(JSON.stringify({ sources, settings }))
    .update(`solc ${packageVersion('solc')} openzeppelin ${packageVersion('@openzeppelin/contracts')}`)
    .digest('hex')
    .slice(0, 16)
  const cacheFile = path.join(cacheDir, `${key}.json`)
  try {
    return JSON.parse(await readFile(cacheFile, 'utf8')) as CompiledContracts
  } catch {
    // Not compiled yet.
  }

  const solc = require('solc') as { compile(input: string, callbacks: object): string }
  const output = JSON.parse(
    solc.compile(JSON.stringify({ language: 'Solidity', sources, settings }), { import: findImport }),
  ) as SolcOutput
  const errors = (output.errors ?? []).filter((entry) => entry.severity === 'error')
  if (errors.length > 0) {
    throw new Error(
      `compileContracts: solc failed:\n${errors.map((entry) => entry.formattedMessage).join('\n')}`,
    )
  }
  const compiled: CompiledContracts = {}
  for (const name of names) {
    for (const [contract, result] of Object.entries(output.contracts?.[name] ?? {})) {
      compiled[contract] = {
        abi: result.abi,
        bytecode: `0x${result.evm.bytecode.object}`,
        deployedBytecode: `0x${result.evm.deployedBytecode.object}`,
      }
    }
  }
  await mkdir(cacheDir, { recursive: true })
  // Written whole, then renamed: a parallel start never reads half a file. The name is this write's
  // own: two stand-ins of one process compiling the same sources on a cold cache (the chain and the
  // Farcaster registries, on a fresh clone) would otherwise rename one file twice.
  const partial = `${cacheFile}.${process.pid}.${randomUUID()}.partial`
  await writeFile(partial, JSON.stringify(compiled))
  await rename(partial, cacheFile)
  return compiled
}
