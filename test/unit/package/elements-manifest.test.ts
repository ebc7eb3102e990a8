// The elements' attributes are written down three ways: what the element observes (the modal's
// OPTION_ATTRIBUTES, the button's r2wc props), the framework typings (elements/attributes.ts) and the
// manifest (custom-elements.json, and from it docs/reference/elements.md). All three come from, or are
// held to, one table per element (elements/attribute-table.ts); this reads each of them as it is,
// not as it should be, and fails on any attribute one has and another lacks, or a type, default or
// description they disagree on. It also checks the manifest against what the views and styles set:
// every CSS part, every `--wallet-*` custom property and every `wallet-*` event.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import type { AttributeRow } from '../../../elements/attribute-table.ts'
import { ELEMENT_ATTRIBUTES, WALLET_MODAL_ATTRIBUTES } from '../../../elements/attribute-table.ts'
import { BUTTON_PROPS } from '../../../elements/wallet-button.ts'
import { WalletModalElement } from '../../../elements/wallet-modal.ts'
import type { Manifest, ManifestDeclaration } from '../../../scripts/manifestPlugin.ts'
import { attributeTypeText } from '../../../scripts/manifestPlugin.ts'
import type { ModalOptions, UncheckedOptions } from '../../../src/protocol/config.ts'
import { DEFAULT_OPTIONS, OPTION_ATTRIBUTES, parseOptions } from '../../../src/protocol/config.ts'
import { SocialProviderSchema } from '../../../src/protocol/optionRules.ts'
import { lightTokens } from '../../../src/ui/theme/tokens.ts'

const root = resolve(fileURLToPath(new URL('../../..', import.meta.url)))
type Tag = keyof typeof ELEMENT_ATTRIBUTES
const TAGS = Object.keys(ELEMENT_ATTRIBUTES) as Tag[]

const manifest = JSON.parse(readFileSync(join(root, 'custom-elements.json'), 'utf8')) as Manifest
const declarations = new Map(
  manifest.modules.flatMap((module) =>
    (module.declarations ?? [])
      .filter((declaration) => declaration.customElement && declaration.tagName)
      .map((declaration) => [declaration.tagName as string, declaration] as const),
  ),
)
function declarationOf(tag: Tag): ManifestDeclaration {
  const declaration = declarations.get(tag)
  assert.ok(declaration, `custom-elements.json has no <${tag}>`)
  return declaration
}

/** r2wc's rule for the attribute of a prop: `showBalance` is observed as `show-balance`. */
const attributeOfProp = (prop: string) => prop.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()

/** The attributes each element observes, read off the element as a page's browser would. */
const observed: Record<Tag, string[]> = {
  'wallet-modal': WalletModalElement.observedAttributes,
  'wallet-button': Object.keys(BUTTON_PROPS).map(attributeOfProp),
}

/** What a typed attribute takes: its values (sorted) when it takes a few, otherwise `string`. */
type TypedValue = readonly string[] | 'string'

/**
 * The framework typings' attributes (`WalletModalAttributes`, `WalletButtonAttributes`), as the
 * compiler resolves them, with what each takes.
 */
function typedAttributes(): Record<Tag, Map<string, TypedValue>> {
  const { config } = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile)
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root)
  const file = join(root, 'elements/attributes.ts')
  const program = ts.createProgram([file], { ...options, types: [], noEmit: true })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(file)
  assert.ok(source, 'elements/attributes.ts did not load')
  const module = checker.getSymbolAtLocation(source)
  assert.ok(module, 'elements/attributes.ts has no exports')
  const exports = checker.getExportsOfModule(module)
  const read = (name: string) => {
    const symbol = exports.find((each) => each.name === name)
    assert.ok(symbol, `elements/attributes.ts does not export ${name}`)
    const type = checker.getDeclaredTypeOfSymbol(symbol)
    return new Map(
      checker.getPropertiesOfType(type).map((property): [string, TypedValue] => {
        const value = checker.getNonNullableType(checker.getTypeOfSymbol(property))
        const members = value.isUnion() ? value.types : [value]
        const literal = members.every((member) => member.isStringLiteral())
        const values = members.map((member) => (member as ts.StringLiteralType).value).sort()
        return [property.name, literal ? values : 'string']
      }),
    )
  }
  return { 'wallet-modal': read('WalletModalAttributes'), 'wallet-button': read('WalletButtonAttributes') }
}

/** What the typings should say an attribute takes, from its row. */
function expectedTypedValue(row: AttributeRow): TypedValue {
  if (row.type === 'enum') return [...row.values].sort()
  return row.type === 'boolean' ? ['', 'false', 'off', 'on', 'true'] : 'string'
}

/** Fails naming what each list has that another lacks. */
function assertSameNames(lists: Record<string, readonly string[]>, what: string): void {
  const entries = Object.entries(lists)
  const problems: string[] = []
  for (const [name, list] of entries) {
    for (const [other, otherList] of entries) {
      if (name === other) continue
      const missing = list.filter((item) => !otherList.includes(item))
      if (missing.length > 0) problems.push(`in ${name}, not in ${other}: ${missing.join(', ')}`)
    }
  }
  assert.deepEqual(problems, [], `${what} differ:\n  ${problems.join('\n  ')}`)
}

/** Every .ts and .tsx file under a folder. */
function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) return sources(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })
}

let typed: Record<Tag, Map<string, TypedValue>>
before(() => {
  typed = typedAttributes()
})

describe('elements: element, typings and manifest', () => {
  for (const tag of TAGS) {
    test(`default: <${tag}> observes, types and lists the same attributes`, () => {
      assertSameNames(
        {
          'the element': observed[tag],
          'the typings': [...typed[tag].keys()],
          'custom-elements.json': (declarationOf(tag).attributes ?? []).map((attribute) => attribute.name),
          'the attribute table': Object.keys(ELEMENT_ATTRIBUTES[tag]),
        },
        `the attributes of <${tag}>`,
      )
    })

    test(`default: <${tag}>'s typings and manifest give each attribute its table row's type, default and description`, () => {
      const listed = new Map(
        (declarationOf(tag).attributes ?? []).map((attribute) => [attribute.name, attribute]),
      )
      for (const [name, row] of Object.entries(ELEMENT_ATTRIBUTES[tag]) as [string, AttributeRow][]) {
        assert.deepEqual(typed[tag].get(name), expectedTypedValue(row), `the typings' type of ${name}`)
        const attribute = listed.get(name)
        assert.equal(attribute?.type?.text, attributeTypeText(row), `the manifest's type of ${name}`)
        assert.equal(attribute?.default, row.default, `the manifest's default of ${name}`)
        assert.equal(attribute?.description, row.description, `the manifest's description of ${name}`)
        if (row.type === 'enum' && row.default !== undefined)
          assert.ok(row.values.includes(row.default), `the default of ${name} is one of its values`)
      }
    })
  }

  test("default: the button's properties carry its attributes, reflected", () => {
    const members = declarationOf('wallet-button').members ?? []
    for (const [name, row] of Object.entries(ELEMENT_ATTRIBUTES['wallet-button']) as [
      string,
      AttributeRow,
    ][]) {
      const member = members.find((each) => each.kind === 'field' && each.name === row.property)
      assert.equal(member?.attribute, name, `the property ${row.property} names its attribute`)
      assert.equal(member?.reflects, true, `the property ${row.property} reflects`)
      assert.equal(member?.type?.text, `${attributeTypeText(row)} | undefined`)
    }
  })

  test("behavior: each <wallet-modal> row names the option its attribute carries, and that option's default", () => {
    for (const [name, row] of Object.entries(WALLET_MODAL_ATTRIBUTES) as [string, AttributeRow][]) {
      const option = row.property as keyof ModalOptions
      assert.equal(OPTION_ATTRIBUTES[option], name, `OPTION_ATTRIBUTES.${option}`)
      const unset = DEFAULT_OPTIONS[option]
      if (row.default === undefined) {
        // Leaving it out gives nothing to write down: no value, or an empty list.
        assert.ok(
          unset === undefined || (Array.isArray(unset) && unset.length === 0),
          `${name} needs a default`,
        )
        continue
      }
      const { options: parsed, issues } = parseOptions({ [option]: row.default } as UncheckedOptions)
      assert.deepEqual(issues, [], `the default of ${name} parses`)
      if (unset !== undefined)
        assert.deepEqual(parsed[option], unset, `the default of ${name} is the option's`)
    }
  })

  test('default: each framework typing declares the tags with the attribute types of elements/attributes.ts', () => {
    const uses = { 'wallet-modal': 'WalletModalAttributes', 'wallet-button': 'WalletButtonAttributes' }
    for (const framework of ['react', 'vue', 'svelte']) {
      const path = join(root, `frameworks/${framework}.d.ts`)
      const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true)
      const found = new Map<string, string>()
      const visit = (node: ts.Node): void => {
        if (ts.isPropertySignature(node) && ts.isStringLiteral(node.name) && node.type)
          found.set(node.name.text, node.type.getText(source))
        ts.forEachChild(node, visit)
      }
      visit(source)
      for (const [tag, type] of Object.entries(uses))
        assert.match(
          found.get(tag) ?? '',
          new RegExp(`\\b${type}\\b`),
          `${framework}.d.ts types <${tag}> with ${type}`,
        )
    }
  })
})

describe('elements: manifest and what the views set', () => {
  /** `part="…"` and `part={…}` in the views: literal names, and `${…}` templates as patterns. */
  function partsSet(files: readonly string[]): { names: Set<string>; patterns: RegExp[] } {
    const names = new Set<string>()
    const patterns: RegExp[] = []
    for (const file of files) {
      const text = readFileSync(file, 'utf8')
      for (const match of text.matchAll(/\bpart=(?:"([^"]+)"|\{([^}]*\}?[^}]*)\})/g)) {
        if (match[1]) names.add(match[1])
        const expression = match[2] ?? ''
        for (const literal of expression.matchAll(/'([a-z0-9-]+)'/g)) if (literal[1]) names.add(literal[1])
        const template = /^`([^`]*)`$/.exec(expression.trim())?.[1]
        if (template) patterns.push(new RegExp(`^${template.replace(/\$\{[^}]*\}/g, '[a-z0-9-]+')}$`))
      }
    }
    return { names, patterns }
  }

  const ui = join(root, 'src/ui')
  const buttonFiles = sources(join(ui, 'button'))
  const set: Record<Tag, ReturnType<typeof partsSet>> = {
    'wallet-button': partsSet(buttonFiles),
    'wallet-modal': partsSet(sources(ui).filter((file) => !buttonFiles.includes(file))),
  }

  for (const tag of TAGS) {
    test(`default: <${tag}> lists every CSS part its views set, and none they do not`, () => {
      const listed = (declarationOf(tag).cssParts ?? []).map((part) => part.name)
      const missing = [...set[tag].names].filter((name) => !listed.includes(name))
      assert.deepEqual(missing, [], `parts set in src/ui but not in the manifest of <${tag}>`)
      for (const pattern of set[tag].patterns)
        assert.ok(
          listed.some((name) => pattern.test(name)),
          `no part of <${tag}> matches ${pattern}`,
        )
      const unknown = listed.filter(
        (name) => !set[tag].names.has(name) && !set[tag].patterns.some((pattern) => pattern.test(name)),
      )
      assert.deepEqual(
        unknown,
        [],
        `parts in the manifest of <${tag}> that no view sets (${relative(root, ui)})`,
      )
    })
  }

  test('default: the social sign-in buttons are listed one part per provider', () => {
    const listed = (declarationOf('wallet-modal').cssParts ?? []).map((part) => part.name)
    for (const provider of SocialProviderSchema.options)
      assert.ok(listed.includes(`social-${provider}`), provider)
  })

  test('default: <wallet-modal> lists every --wallet-* custom property the styles read', () => {
    const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)
    const read = new Set(Object.keys(lightTokens).map((token) => `--wallet-${kebab(token)}`))
    for (const file of sources(ui))
      for (const match of readFileSync(file, 'utf8').matchAll(/--wallet-[a-z0-9-]+/g)) read.add(match[0])
    const listed = (declarationOf('wallet-modal').cssProperties ?? []).map((property) => property.name)
    assertSameNames({ 'the styles': [...read], 'custom-elements.json': listed }, 'the custom properties')
    for (const property of declarationOf('wallet-button').cssProperties ?? [])
      assert.ok(read.has(property.name), `<wallet-button> lists ${property.name}, which no style reads`)
  })

  test('default: <wallet-modal> lists every wallet-* event, each by name', () => {
    const events = (declarationOf('wallet-modal').events ?? []).map((event) => event.name ?? '(nameless)')
    const file = join(root, 'src/core/events/types.ts')
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    const map = source.statements.find(
      (statement): statement is ts.InterfaceDeclaration =>
        ts.isInterfaceDeclaration(statement) && statement.name.text === 'WalletEventMap',
    )
    assert.ok(map, 'WalletEventMap not found')
    const names = map.members.map(
      (member) => `wallet-${(member.name as ts.Identifier | ts.StringLiteral).text}`,
    )
    assertSameNames({ WalletEventMap: names, 'custom-elements.json': events }, 'the events')
  })
})
