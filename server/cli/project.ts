import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { projectIdPattern } from '../../src/protocol/api/index.ts'
import type { CustodyMode } from '../../src/protocol/embedded/keys.ts'
import { rotateSessionKey } from '../auth/keys.ts'
import { addWallet, CatalogueError, removeWallet } from '../catalogue/customWallets.ts'
import type { ServiceDatabase } from '../db/database.ts'
import { type OperatorRecoverable, operatorRecoverable } from '../embedded/shareSets.ts'
import {
  getPaymasterPolicy,
  type PaymasterPolicy,
  PaymasterPolicyError,
  removePaymasterPolicy,
  setPaymasterPolicy,
} from '../paymaster/policies.ts'
import { originPatternWarning } from '../projects/origins.ts'
import {
  allowOrigins,
  createProject,
  listProjects,
  type Project,
  ProjectStoreError,
  removeOrigins,
  updateProject,
} from '../projects/store.ts'
import { isMainModule, runCliShell } from './shell.ts'

export const projectCliUsage = `Manage projects and the wallet catalogue of the wallet-elements service.

Usage: npm run project -- <command> [options]

  create --id ID --name NAME [--origin ORIGIN]... [--analytics on|off] [--custody user|operator]
                       Create a project (custody: user unless told). Origins are patterns: https://app.example.com,
                       https://*.example.com, http://localhost:5173, http://localhost:*
  list [--json]        List projects and their allowed origins.
  allow-origin --id ID --origin ORIGIN [--origin ORIGIN]...
                       Allow more origins for a project.
  remove-origin --id ID --origin ORIGIN [--origin ORIGIN]...
                       Stop allowing origins.
  set --id ID [--name NAME] [--analytics on|off] [--custody user|operator]
                       Rename a project, switch its analytics or its wallet custody. Custody user:
                       only the person can recover their wallet; operator: the service can, and so
                       can sign for every user. A switch to user says how many people the operator
                       can still recover: each is asked to set up their own recovery at their next
                       visit, and the operator's copy is deleted when they do (list shows the count).
  add-wallet --name NAME [--id WALLET_ID] [--image FILE] [--rdns RDNS] [--mobile-link URL]
             [--desktop-link URL] [--webapp-link URL] [--app-store URL] [--play-store URL]
             [--homepage URL] [--chain CAIP2]... [--certified]
                       Add (or update) a catalogue wallet. Without --id the id is derived from the name.
                       --app-store and --play-store are the app's https pages in the App Store and
                       Google Play, offered to a phone where the app did not open.
  remove-wallet --id WALLET_ID
                       Remove a catalogue wallet.
  sponsor --id ID --network CAIP2 [--network CAIP2]... --contract ADDRESS [--contract ADDRESS]...
          --user-budget WEI --budget WEI
                       Pay the gas of this project's users (ERC-7677): on these networks, for operations
                       whose every call targets one of these contracts, up to --user-budget wei of
                       maximum gas cost per account and --budget wei in total each UTC day. Replaces
                       the project's earlier policy. Needs PAYMASTER_SIGNER_KEY and PAYMASTER_ADDRESSES.
  sponsor --id ID      Show the project's sponsorship policy.
  sponsor --id ID --off
                       Stop sponsoring the project's gas.
  rotate-signing-key   Sign new session tokens with a new key; the old one keeps verifying (and stays
                       in GET /auth/v1/keys) until the last session it signed expires.

The database is the service's: DATABASE_URL, or the PGlite folder DATA_DIR (stop the service first).`

export interface ProjectCliIo {
  database: ServiceDatabase
  out: (line: string) => void
  err: (line: string) => void
}

class UsageError extends Error {
  override name = 'UsageError'
}

function required(value: string | undefined, option: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`--${option} is required`)
  return value.trim()
}

function projectId(value: string | undefined): string {
  const id = required(value, 'id')
  if (!projectIdPattern.test(id)) {
    throw new UsageError('--id must use letters, digits, _ and - (up to 128 characters)')
  }
  return id
}

function onOff(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined
  if (value === 'on' || value === 'true') return true
  if (value === 'off' || value === 'false') return false
  throw new UsageError('--analytics must be on or off')
}

function custodyOf(value: string | undefined): CustodyMode | undefined {
  if (value === undefined) return undefined
  if (value === 'user' || value === 'operator') return value
  throw new UsageError('--custody must be user or operator')
}

/** The one line said of operator custody wherever a project is shown. */
export const operatorCustodyWarning =
  'custody operator: the operator can sign for every user of this project (it holds two shares of each key)'

/**
 * What a `custody: user` project still owes its earlier people: how many the operator can still
 * recover (and so sign for), until each sets up their own recovery at their next visit.
 */
export function operatorRecoverableLine(counts: OperatorRecoverable | undefined): string {
  const people = (counts?.recoveryShares ?? 0) + (counts?.legacyKeys ?? 0)
  if (people === 0) return 'custody user: the operator can recover nobody of this project'
  const parts = [
    counts?.recoveryShares ? `${counts.recoveryShares} with a recovery share it holds` : '',
    counts?.legacyKeys ? `${counts.legacyKeys} with keys it made and still keeps` : '',
  ].filter(Boolean)
  return `custody user: the operator can still recover ${people} ${people === 1 ? 'person' : 'people'} of this project (${parts.join(', ')}); each is asked to set up their own recovery at their next visit`
}

function describe(project: Project, recoverable?: OperatorRecoverable): string[] {
  const lines = [
    `${project.id}  ${project.name}  (analytics ${project.analyticsEnabled ? 'on' : 'off'})  custody ${project.custody}`,
  ]
  if (project.custody === 'operator') lines.push(`  ${operatorCustodyWarning}`)
  // Shown until nobody is left: a switch from operator custody is finished only then.
  else if (recoverable) lines.push(`  ${operatorRecoverableLine(recoverable)}`)
  if (project.origins.length === 0) lines.push('  no allowed origins (only requests without Origin pass)')
  for (const origin of project.origins) lines.push(`  ${origin}`)
  return lines
}

function weiOption(value: string | undefined, option: string): bigint {
  const text = required(value, option)
  if (!/^\d{1,78}$/.test(text)) throw new UsageError(`--${option} must be a whole number of wei`)
  return BigInt(text)
}

function describePolicy(id: string, policy: PaymasterPolicy): string {
  return [
    `Project ${id} sponsors gas on ${policy.networks.join(', ')}`,
    `  contracts: ${policy.contracts.join(', ')}`,
    `  daily budget: ${policy.perUserDailyWei} wei per account, ${policy.totalDailyWei} wei in total (maximum gas cost, UTC days)`,
  ].join('\n')
}

/**
 * Runs one CLI command against an open database; resolves to the exit code. `npm run project` calls it
 * (below); tests call it in-process.
 *
 * @example
 * const code = await runProjectCli(['create', '--id', 'shop', '--name', 'Shop'], { database, out: console.log, err: console.error })
 */
export async function runProjectCli(argv: readonly string[], io: ProjectCliIo): Promise<number> {
  const { db } = io.database
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        id: { type: 'string' },
        name: { type: 'string' },
        origin: { type: 'string', multiple: true },
        analytics: { type: 'string' },
        custody: { type: 'string' },
        json: { type: 'boolean' },
        image: { type: 'string' },
        rdns: { type: 'string' },
        'mobile-link': { type: 'string' },
        'desktop-link': { type: 'string' },
        'webapp-link': { type: 'string' },
        'app-store': { type: 'string' },
        'play-store': { type: 'string' },
        homepage: { type: 'string' },
        chain: { type: 'string', multiple: true },
        certified: { type: 'boolean' },
        network: { type: 'string', multiple: true },
        contract: { type: 'string', multiple: true },
        'user-budget': { type: 'string' },
        budget: { type: 'string' },
        off: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    })
    const [command, ...extra] = positionals
    if (values.help || command === undefined || command === 'help') {
      io.out(projectCliUsage)
      return command === undefined && !values.help ? 1 : 0
    }
    if (extra.length > 0) throw new UsageError(`Unexpected argument: ${extra.join(' ')}`)
    const origins = values.origin ?? []
    // Allowed, but said out loud: a wildcard over a shared hosting domain lets strangers in.
    const warnAbout = (patterns: readonly string[]) => {
      for (const pattern of patterns) {
        const warning = originPatternWarning(pattern)
        if (warning !== null) io.err(`Warning: ${warning}`)
      }
    }
    switch (command) {
      case 'create': {
        const analytics = onOff(values.analytics)
        const custody = custodyOf(values.custody)
        const project = await createProject(db, {
          id: projectId(values.id),
          name: required(values.name, 'name'),
          origins,
          ...(analytics === undefined ? {} : { analyticsEnabled: analytics }),
          ...(custody === undefined ? {} : { custody }),
        })
        warnAbout(origins)
        io.out(`Created project ${project.id}`)
        for (const line of describe(project)) io.out(line)
        return 0
      }
      case 'list': {
        const projects = await listProjects(db)
        if (values.json) {
          io.out(JSON.stringify(projects, null, 2))
        } else if (projects.length === 0) {
          io.out('No projects.')
        } else {
          const recoverable = await operatorRecoverable(db)
          for (const project of projects)
            for (const line of describe(project, recoverable.get(project.id))) io.out(line)
        }
        return 0
      }
      case 'allow-origin':
      case 'remove-origin': {
        if (origins.length === 0) throw new UsageError('--origin is required')
        const id = projectId(values.id)
        const project =
          command === 'allow-origin'
            ? await allowOrigins(db, id, origins)
            : await removeOrigins(db, id, origins)
        if (command === 'allow-origin') warnAbout(origins)
        io.out(`Updated project ${project.id}`)
        for (const line of describe(project)) io.out(line)
        return 0
      }
      case 'set': {
        const analytics = onOff(values.analytics)
        const custody = custodyOf(values.custody)
        const project = await updateProject(db, projectId(values.id), {
          ...(values.name === undefined ? {} : { name: required(values.name, 'name') }),
          ...(analytics === undefined ? {} : { analyticsEnabled: analytics }),
          ...(custody === undefined ? {} : { custody }),
        })
        io.out(`Updated project ${project.id}`)
        for (const line of describe(project)) io.out(line)
        // A switch to user custody says whom it does not cover yet, nobody included.
        if (custody === 'user') {
          const recoverable = await operatorRecoverable(db, [project.id])
          io.out(`  ${operatorRecoverableLine(recoverable.get(project.id))}`)
        }
        return 0
      }
      case 'add-wallet': {
        const image = values.image === undefined ? undefined : await readFile(values.image)
        const entry = await addWallet(db, {
          name: required(values.name, 'name'),
          ...(values.id === undefined ? {} : { id: values.id }),
          ...(image === undefined ? {} : { image }),
          ...(values.rdns === undefined ? {} : { rdns: values.rdns }),
          ...(values['mobile-link'] === undefined ? {} : { mobileLink: values['mobile-link'] }),
          ...(values['desktop-link'] === undefined ? {} : { desktopLink: values['desktop-link'] }),
          ...(values['webapp-link'] === undefined ? {} : { webappLink: values['webapp-link'] }),
          ...(values['app-store'] === undefined ? {} : { appStore: values['app-store'] }),
          ...(values['play-store'] === undefined ? {} : { playStore: values['play-store'] }),
          ...(values.homepage === undefined ? {} : { homepage: values.homepage }),
          chains: values.chain ?? [],
          badgeType: values.certified ? 'certified' : 'none',
        })
        io.out(`Saved wallet ${entry.name} (${entry.id})`)
        return 0
      }
      case 'remove-wallet': {
        const id = required(values.id, 'id')
        await removeWallet(db, id)
        io.out(`Removed wallet ${id}`)
        return 0
      }
      case 'sponsor': {
        const id = projectId(values.id)
        const setting =
          values.network !== undefined ||
          values.contract !== undefined ||
          values['user-budget'] !== undefined ||
          values.budget !== undefined
        if (values.off) {
          if (setting) throw new UsageError('--off takes no other sponsor option')
          const removed = await removePaymasterPolicy(db, id)
          io.out(removed ? `Project ${id} no longer sponsors gas` : `Project ${id} sponsored no gas`)
          return 0
        }
        if (!setting) {
          const policy = await getPaymasterPolicy(db, id)
          io.out(policy === null ? `Project ${id} sponsors no gas` : describePolicy(id, policy))
          return 0
        }
        const policy = await setPaymasterPolicy(db, id, {
          networks: values.network ?? [],
          contracts: (values.contract ?? []) as `0x${string}`[],
          perUserDailyWei: weiOption(values['user-budget'], 'user-budget'),
          totalDailyWei: weiOption(values.budget, 'budget'),
        })
        io.out(describePolicy(id, policy))
        return 0
      }
      case 'rotate-signing-key': {
        const rotation = await rotateSessionKey(db)
        io.out(`New session signing key ${rotation.kid}; running services use it within 10 seconds`)
        if (rotation.retiredKid !== null) {
          const until = rotation.retiredKeyNeededUntil
          io.out(
            until === null
              ? `Retired ${rotation.retiredKid}: no session was signed with it`
              : `Retired ${rotation.retiredKid}: it stays in GET /auth/v1/keys until ${until.toISOString()}, when its last session ends`,
          )
        }
        return 0
      }
      default:
        throw new UsageError(`Unknown command: ${command}`)
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`${(error as Error).message}\n\n${projectCliUsage}`)
      return 2
    }
    if (
      error instanceof ProjectStoreError ||
      error instanceof CatalogueError ||
      error instanceof PaymasterPolicyError
    ) {
      io.err((error as Error).message)
      return 1
    }
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      io.err(`Cannot read ${(error as NodeJS.ErrnoException).path ?? 'the file'}`)
      return 1
    }
    throw error
  }
}

if (isMainModule(import.meta.url))
  void runCliShell({
    usage: projectCliUsage,
    run: (argv, database) =>
      runProjectCli(argv, {
        database,
        out: (line) => console.log(line),
        err: (line) => console.error(line),
      }),
  })
