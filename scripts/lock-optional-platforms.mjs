// The npm mirror on these machines lacks most platform-specific optional packages (biome, rollup,
// rolldown, esbuild binaries for other systems). `npm install` then leaves them out of
// package-lock.json and `npm ci` refuses the lock as out of sync. This adds an entry for each
// missing one, marked optional with its os/cpu, so npm ci skips it on this platform as it would
// anyway. Run after `npm install`: node scripts/lock-optional-platforms.mjs
import { readFileSync, writeFileSync } from 'node:fs'

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'))
const packages = lock.packages
const platform = (name) => {
  const os = [
    'android',
    'darwin',
    'freebsd',
    'linux',
    'win32',
    'openbsd',
    'netbsd',
    'sunos',
    'aix',
    'openharmony',
    'wasi',
  ].find((o) => new RegExp(`(^|[-/])${o}([-]|$)`).test(name))
  const cpu = [
    'arm64',
    'x64',
    'ia32',
    'arm',
    'loong64',
    'ppc64',
    'riscv64',
    's390x',
    'mips64el',
    'wasm32',
  ].find((c) =>
    new RegExp(`(^|[-/])${c}([-]|$)`).test(name.replace(/arm-(gnueabihf|musleabihf|eabi)/, 'arm')),
  )
  return { os, cpu }
}
let added = 0
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path === '' ? '' : `${path}/`
    const candidates = [`${base}node_modules/${name}`, `node_modules/${name}`]
    if (candidates.some((candidate) => packages[candidate])) continue
    const { os, cpu } = platform(name)
    if (!os && !cpu) continue
    packages[`node_modules/${name}`] = {
      version: version.replace(/^[\^~=]/, ''),
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
    }
    added++
  }
}
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`)
console.log(`added ${added} optional platform entries`)
