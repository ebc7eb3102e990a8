/**
 * The analyzer plugin behind `npm run manifest` (custom-elements-manifest.config.mjs). The analyzer
 * reads each element's class and JSDoc (events, CSS parts, custom properties); this plugin gives
 * each element its attributes from its table in `elements/attribute-table.ts`, so the manifest lists
 * exactly what the element observes and its typings declare. A property of the element that carries
 * an attribute (the button's, which r2wc reflects) gets the row's type and description too.
 *
 * It fails the run when an element has no table, or when attributes reach the manifest another way
 * (an `@attr` tag in JSDoc): the table is their one home.
 * @module
 */
import type { AttributeRow } from '../elements/attribute-table.ts'
import { ELEMENT_ATTRIBUTES } from '../elements/attribute-table.ts'

/** The parts of custom-elements.json this project reads and writes (schema 1.0.0). */
export interface Manifest {
  schemaVersion: string
  modules: ManifestModule[]
}

export interface ManifestModule {
  kind: string
  path: string
  declarations?: ManifestDeclaration[]
}

export interface ManifestType {
  text: string
}

export interface ManifestDeclaration {
  kind: string
  name: string
  description?: string
  summary?: string
  tagName?: string
  customElement?: boolean
  attributes?: ManifestAttribute[]
  members?: ManifestMember[]
  events?: { name?: string; type?: ManifestType; description?: string }[]
  cssParts?: { name: string; description?: string }[]
  cssProperties?: { name: string; description?: string; default?: string }[]
  slots?: { name: string; description?: string }[]
}

export interface ManifestAttribute {
  name: string
  type?: ManifestType
  default?: string
  description?: string
  fieldName?: string
}

export interface ManifestMember {
  kind: 'field' | 'method'
  name: string
  static?: boolean
  privacy?: 'public' | 'private' | 'protected'
  readonly?: boolean
  type?: ManifestType
  default?: string
  description?: string
  attribute?: string
  reflects?: boolean
  parameters?: { name: string; type?: ManifestType; optional?: boolean; default?: string }[]
  return?: { type?: ManifestType }
}

/**
 * An attribute's type as the manifest writes it: its values for an enumeration, `boolean` for a
 * flag, `string` for text and lists.
 *
 * @example
 * attributeTypeText({ property: 'size', type: 'enum', values: ['sm', 'md'], description: '' }) // "'sm' | 'md'"
 */
export function attributeTypeText(row: AttributeRow): string {
  if (row.type === 'enum') return row.values.map((value) => `'${value}'`).join(' | ')
  return row.type === 'boolean' ? 'boolean' : 'string'
}

/**
 * The manifest's attributes of an element, from its table; `fields` are the names of the element's
 * own fields, so an attribute that one of them carries names it.
 *
 * @example
 * manifestAttributes(WALLET_BUTTON_ATTRIBUTES, ['label'])[0] // { name: 'label', type: { text: 'string' }, fieldName: 'label', … }
 */
export function manifestAttributes(
  table: Readonly<Record<string, AttributeRow>>,
  fields: readonly string[] = [],
): ManifestAttribute[] {
  return Object.entries(table).map(([name, row]) => ({
    name,
    type: { text: attributeTypeText(row) },
    ...(row.default !== undefined ? { default: row.default } : {}),
    description: row.description,
    ...(fields.includes(row.property) ? { fieldName: row.property } : {}),
  }))
}

/**
 * The plugin: `plugins: [attributeTablePlugin()]` in the analyzer's configuration.
 *
 * @example
 * export default { globs: ['elements/wallet-*.ts'], plugins: [attributeTablePlugin()] }
 */
export function attributeTablePlugin(
  tables: Readonly<Record<string, Readonly<Record<string, AttributeRow>>>> = ELEMENT_ATTRIBUTES,
) {
  return {
    name: 'wallet-elements-attribute-tables',
    packageLinkPhase({ customElementsManifest }: { customElementsManifest: Manifest }): void {
      for (const module of customElementsManifest.modules) {
        for (const element of module.declarations ?? []) {
          if (!element.customElement || !element.tagName) continue
          const table = tables[element.tagName]
          if (!table)
            throw new Error(`<${element.tagName}> has no attribute table in elements/attribute-table.ts`)
          if (element.attributes?.length) {
            const names = element.attributes.map((attribute) => attribute.name).join(', ')
            throw new Error(
              `<${element.tagName}> (${module.path}) declares attributes outside its table (${names}): ` +
                'they belong in elements/attribute-table.ts, not in @attr tags',
            )
          }
          applyTable(element, table)
        }
      }
    },
  }
}

function applyTable(element: ManifestDeclaration, table: Readonly<Record<string, AttributeRow>>): void {
  const fields = (element.members ?? [])
    .filter((member) => member.kind === 'field' && !member.static)
    .map((member) => member.name)
  element.attributes = manifestAttributes(table, fields)
  for (const [name, row] of Object.entries(table)) {
    const member = element.members?.find((each) => each.kind === 'field' && each.name === row.property)
    if (!member) continue
    member.type = { text: `${attributeTypeText(row)} | undefined` }
    member.description = row.description
    member.attribute = name
    // r2wc sets the attribute when the property is set.
    member.reflects = true
  }
  // An event dispatched under a computed name (`wallet-${name}`) reaches the manifest nameless; the
  // JSDoc's @event tags name each one.
  if (element.events) element.events = element.events.filter((event) => event.name)
}
