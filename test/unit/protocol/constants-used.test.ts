// SPEC figures are never declared and forgotten: every constant exported by src/protocol/constants.ts
// is used by code outside it (the library, the elements, the service).
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import * as constants from '../../../src/protocol/constants.ts'

const ROOTS = ['src', 'elements', 'server']
const CONSTANTS_FILE = join('src', 'protocol', 'constants.ts')

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (name === 'node_modules' || name === 'dist') return []
    if (statSync(path).isDirectory()) return sources(path)
    return /\.tsx?$/.test(name) && path !== CONSTANTS_FILE ? [path] : []
  })
}

test('default: every exported SPEC constant is used outside src/protocol/constants.ts', () => {
  // Comments do not count: a figure named in a comment only is still unused.
  const code = ROOTS.flatMap(sources).map((path) =>
    readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ''),
  )
  const unused = Object.keys(constants).filter(
    (name) => !code.some((text) => new RegExp(`\\b${name}\\b`).test(text)),
  )
  assert.deepEqual(unused, [])
})
