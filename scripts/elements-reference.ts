/**
 * `npm run reference`: docs/reference/elements.md, the elements' reference in Markdown, made from
 * custom-elements.json: for each element its attributes, properties, methods, events, CSS parts,
 * CSS custom properties and slots. The manifest is made from the elements (`npm run manifest`), so
 * after changing an element or its attribute table, run both.
 *
 * `--check` writes nothing and exits 1 when the file is not what this would write (CI runs it).
 *
 * @example
 * ```sh
 * npm run manifest && npm run reference
 * npm run reference -- --check
 * ```
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Manifest, ManifestDeclaration, ManifestMember } from './manifestPlugin.ts'

export const MANIFEST_PATH = 'custom-elements.json'
export const REFERENCE_PATH = 'docs/reference/elements.md'

/** A table cell: one line, with the pipes that would end the cell escaped. */
const cell = (text: string | undefined) => (text ?? '').replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|')
/** Inline code in a cell; a value with a backquote gets a longer fence. */
const code = (text: string | undefined) => {
  if (text === undefined || text === '') return ''
  const fence = text.includes('`') ? '``' : '`'
  return cell(`${fence}${text.includes('`') ? ` ${text} ` : text}${fence}`)
}

function table(headings: string[], rows: string[][], none: string): string {
  if (rows.length === 0) return none
  return [
    `| ${headings.join(' | ')} |`,
    `|${headings.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n')
}

const isPublic = (member: ManifestMember) =>
  member.privacy !== 'private' && member.privacy !== 'protected' && !member.name.startsWith('#')

function signature(method: ManifestMember): string {
  const parameters = (method.parameters ?? []).map((parameter) => {
    const optional = parameter.optional ? '?' : ''
    const type = parameter.type ? `: ${parameter.type.text}` : ''
    const initial = parameter.default !== undefined ? ` = ${parameter.default}` : ''
    return `${parameter.name}${optional}${type}${initial}`
  })
  return `${method.static ? 'static ' : ''}${method.name}(${parameters.join(', ')})`
}

/** The attributes; the Property column only for an element whose attributes are also its properties. */
function attributeTable(declaration: ManifestDeclaration): string {
  const attributes = declaration.attributes ?? []
  const properties = attributes.some((attribute) => attribute.fieldName !== undefined)
  return table(
    ['Attribute', 'Type', 'Default', ...(properties ? ['Property'] : []), 'Description'],
    attributes.map((attribute) => [
      code(attribute.name),
      code(attribute.type?.text),
      code(attribute.default),
      ...(properties ? [code(attribute.fieldName)] : []),
      cell(attribute.description),
    ]),
    'None.',
  )
}

function element(declaration: ManifestDeclaration, path: string): string {
  const members = (declaration.members ?? []).filter(isPublic)
  const fields = members.filter((member) => member.kind === 'field')
  const methods = members.filter((member) => member.kind === 'method')
  const sections = [
    `## \`<${declaration.tagName}>\``,
    ...[declaration.summary ? `**${declaration.summary}**` : '', declaration.description ?? '']
      .filter(Boolean)
      .map((text) => text.replace(/\s*\n\s*/g, ' ')),
    `Class \`${declaration.name}\`, in \`${path}\`.`,
    '### Attributes',
    attributeTable(declaration),
    '### Properties',
    table(
      ['Property', 'Type', 'Attribute', 'Description'],
      fields.map((field) => [
        code(field.name) + (field.readonly ? ' (read-only)' : ''),
        code(field.type?.text),
        code(field.attribute) + (field.reflects ? ' (reflected)' : ''),
        cell(field.description),
      ]),
      'None besides the attributes.',
    ),
    '### Methods',
    table(
      ['Method', 'Returns', 'Description'],
      methods.map((method) => [
        code(signature(method)),
        code(method.return?.type?.text),
        cell(method.description),
      ]),
      'None.',
    ),
    '### Events',
    table(
      ['Event', 'Description'],
      (declaration.events ?? []).map((event) => [code(event.name), cell(event.description)]),
      'None.',
    ),
    '### CSS parts',
    table(
      ['Part', 'Description'],
      (declaration.cssParts ?? []).map((part) => [code(part.name), cell(part.description)]),
      'None.',
    ),
    '### CSS custom properties',
    table(
      ['Property', 'Description'],
      (declaration.cssProperties ?? []).map((property) => [code(property.name), cell(property.description)]),
      'None.',
    ),
    '### Slots',
    table(
      ['Slot', 'Description'],
      (declaration.slots ?? []).map((slot) => [code(slot.name || '(default)'), cell(slot.description)]),
      'None: everything the element shows is its own, inside its shadow root.',
    ),
  ]
  return sections.join('\n\n')
}

/**
 * The Markdown reference of every custom element in a manifest, in the manifest's order.
 *
 * @example
 * renderReference(JSON.parse(readFileSync('custom-elements.json', 'utf8'))).startsWith('# Elements reference') // true
 */
export function renderReference(manifest: Manifest): string {
  const elements = manifest.modules.flatMap((module) =>
    (module.declarations ?? [])
      .filter((declaration) => declaration.customElement && declaration.tagName)
      .map((declaration) => element(declaration, module.path)),
  )
  const intro = [
    '# Elements reference',
    '',
    "<!-- Generated from custom-elements.json by `npm run reference`: do not edit. An element's attributes are its rows in elements/attribute-table.ts, the rest its JSDoc in elements/; run `npm run manifest`, then `npm run reference`. -->",
    '',
    'Every attribute, property, method, event, CSS part, CSS custom property and slot of the elements, as',
    '[`custom-elements.json`](../../custom-elements.json) lists them. Each `<wallet-modal>` attribute is',
    'also an option of its `config` property, which takes more options besides (the README says how the',
    'two combine). An attribute of type `boolean` is on when present, `true` or `on`, and off when `false`',
    'or `off`; a list is comma separated.',
  ].join('\n')
  return `${[intro, ...elements].join('\n\n')}\n`
}

function main(argv: readonly string[]): number {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
  const manifest = JSON.parse(readFileSync(resolve(root, MANIFEST_PATH), 'utf8')) as Manifest
  const text = renderReference(manifest)
  const target = resolve(root, REFERENCE_PATH)
  if (argv.includes('--check')) {
    let current = ''
    try {
      current = readFileSync(target, 'utf8')
    } catch {}
    if (current === text) return 0
    console.error(`${REFERENCE_PATH} is stale: run npm run reference (after npm run manifest) and commit it`)
    return 1
  }
  mkdirSync(dirname(target), { recursive: true })
  writeFileSync(target, text)
  console.log(`wrote ${REFERENCE_PATH}`)
  return 0
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2))
}
