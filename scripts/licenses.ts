/**
 * Licences of what we ship and run, checked against one allow-list (`npm run licenses`, in CI):
 * - every package whose code ends up in dist/, read from the build's source maps (their `sources`);
 * - every package `npm install wallet-elements` brings (dependencies and peer dependencies, recursively);
 * - every runtime dependency of the companion service (server/package.json, recursively).
 * `--notices` (run by the build) writes dist/THIRD-PARTY-NOTICES.txt with each bundled package's
 * licence text, and fails on a bundled package that is not allowed.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve, sep } from 'node:path'

/** SPDX ids we accept. Anything else (for example "SEE LICENSE IN LICENSE.md") fails the check. */
export const ALLOWED_LICENSES = new Set([
  'MIT',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  '0BSD',
  // MIT without its attribution clause (like 0BSD, nothing to comply with): nodemailer, the service's
  // mailer, is MIT-0 since 6.9.3; its last MIT release has published advisories.
  'MIT-0',
  'BlueOak-1.0.0',
  'CC0-1.0',
  'Unlicense',
])

/**
 * Whether an SPDX expression is allowed: `A OR B` when either is, `A AND B` when both are.
 *
 * @example
 * licenseAllowed('(MIT OR GPL-3.0)') // true
 */
export function licenseAllowed(expression: string): boolean {
  const tokens = expression.match(/\(|\)|[^\s()]+/g) ?? []
  let at = 0
  // expression := and ("OR" and)*, and := atom ("AND" atom)*, atom := "(" expression ")" | id
  const atom = (): boolean => {
    const token = tokens[at++]
    if (token === '(') {
      const value = anyOf()
      at++ // ")"
      return value
    }
    if (tokens[at] === 'WITH') at += 2 // an exception only widens what the licence allows
    return token !== undefined && ALLOWED_LICENSES.has(token)
  }
  const allOf = (): boolean => {
    let value = atom()
    while (tokens[at] === 'AND') {
      at++
      value = atom() && value
    }
    return value
  }
  const anyOf = (): boolean => {
    let value = allOf()
    while (tokens[at] === 'OR') {
      at++
      value = allOf() || value
    }
    return value
  }
  return anyOf() && at === tokens.length
}

/**
 * Packages whose package.json names no licence, with the licence their licence file holds (read
 * by a person; pinned to the version read, so another version is read again).
 */
const LICENSE_FILE_READ: Record<string, string> = {
  // LICENSE.md is the Unlicense text (the WHATWG Encoding Standard parts are CC0 / public domain).
  'text-encoding-utf-8@1.0.2': 'Unlicense',
}

export interface PackageInfo {
  name: string
  version: string
  license: string
  dir: string
}

interface Manifest {
  name?: string
  version?: string
  license?: string | { type?: string }
  licenses?: { type?: string }[]
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
}

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))

function infoOf(dir: string): PackageInfo {
  const manifest = readManifest(dir)
  const license =
    LICENSE_FILE_READ[`${manifest.name}@${manifest.version}`] ??
    (typeof manifest.license === 'string'
      ? manifest.license
      : (manifest.license?.type ??
        manifest.licenses?.map((entry) => entry.type).join(' OR ') ??
        'UNKNOWN (no license field)'))
  return { name: manifest.name ?? dir, version: manifest.version ?? '?', license, dir }
}

/** The package a bundled file came from: the folder after the last `node_modules/` in its path. */
export function packageDirOf(file: string): string | undefined {
  const marker = `${sep}node_modules${sep}`
  const at = file.lastIndexOf(marker)
  if (at < 0) return undefined
  const rest = file.slice(at + marker.length).split(sep)
  const name = rest[0]?.startsWith('@') ? rest.slice(0, 2) : rest.slice(0, 1)
  return join(file.slice(0, at + marker.length), ...name)
}

function walk(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? walk(join(dir, entry.name), suffix)
      : entry.name.endsWith(suffix)
        ? [join(dir, entry.name)]
        : [],
  )
}

/** Every package with code in dist/, from the source maps the build keeps there. */
export function bundledPackages(dist = resolve('dist')): PackageInfo[] {
  const dirs = new Set<string>()
  const maps = walk(dist, '.js.map')
  if (maps.length === 0) throw new Error(`No source maps in ${dist}: run the build first`)
  for (const map of maps) {
    const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }
    for (const source of sources) {
      const dir = packageDirOf(resolve(dirname(map), source))
      if (dir && existsSync(join(dir, 'package.json'))) dirs.add(dir)
    }
  }
  return [...dirs].map(infoOf).sort((a, b) => a.name.localeCompare(b.name))
}

/** Where Node would find package `name` from `from`: the nearest `node_modules/name` up the tree. */
function findPackage(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dirname(dir) === dir) return undefined
  }
}

/**
 * The packages installed to run `root`'s runtime dependencies, recursively: dependencies, optional
 * ones that are present, and required peer dependencies. `withPeers` adds the root's own peers.
 */
export function runtimePackages(root: string, withPeers = false): PackageInfo[] {
  const found = new Map<string, PackageInfo>()
  const names = (manifest: Manifest, peers: boolean) => [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
    ...(peers
      ? Object.keys(manifest.peerDependencies ?? {}).filter(
          (name) => !manifest.peerDependenciesMeta?.[name]?.optional,
        )
      : []),
  ]
  const visit = (dir: string, peers: boolean) => {
    for (const name of names(readManifest(dir), peers)) {
      const found_ = findPackage(name, dir)
      if (!found_ || found.has(found_)) continue
      found.set(found_, infoOf(found_))
      visit(found_, true)
    }
  }
  visit(resolve(root), withPeers)
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name))
}

/** A package's licence text (its LICENSE/LICENCE/COPYING files, and NOTICE for Apache-2.0). */
function licenseText(pkg: PackageInfo): string {
  const files = readdirSync(pkg.dir)
    .filter((file) => /^(licen[cs]e|copying|notice)([.-]|$)/i.test(file))
    .sort()
  if (files.length === 0) return `(The package ships no licence file; its package.json says ${pkg.license}.)`
  return files.map((file) => readFileSync(join(pkg.dir, file), 'utf8').trim()).join('\n\n')
}

/** The text of dist/THIRD-PARTY-NOTICES.txt. */
export function notices(packages: readonly PackageInfo[], ownName: string): string {
  const rule = '='.repeat(78)
  return [
    `Third-party software in ${ownName}`,
    '',
    `The files in dist/ include code from the ${packages.length} packages below, each under its own licence.`,
    ...packages.flatMap((pkg) => [
      '',
      rule,
      `${pkg.name} ${pkg.version} (${pkg.license})`,
      rule,
      '',
      licenseText(pkg),
    ]),
    '',
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const own = readManifest('.')
  const bundled = bundledPackages()
  const groups: [string, PackageInfo[]][] = [['code bundled in dist/', bundled]]
  if (process.argv.includes('--notices')) {
    writeFileSync('dist/THIRD-PARTY-NOTICES.txt', notices(bundled, `${own.name} ${own.version}`))
    console.log(`dist/THIRD-PARTY-NOTICES.txt: ${bundled.length} packages`)
  } else {
    groups.push(['installed with the package', runtimePackages('.', true)])
    groups.push(['run by the service (server/)', runtimePackages('server')])
  }
  let failed = 0
  for (const [what, packages] of groups) {
    const bad = packages.filter((pkg) => !licenseAllowed(pkg.license))
    failed += bad.length
    console.log(`${what}: ${packages.length} packages, ${bad.length} not allowed`)
    for (const pkg of bad) console.error(`  ${pkg.name}@${pkg.version}: ${pkg.license} (${pkg.dir})`)
  }
  if (failed > 0) {
    console.error(`\nAllowed licences: ${[...ALLOWED_LICENSES].join(', ')}`)
    process.exit(1)
  }
}
