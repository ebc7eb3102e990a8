// The build's minification of the shadow roots' CSS (scripts/cssStrings.ts) changes nothing the
// browser sees: the theme modules are transformed as the build does, then Chromium parses both
// texts into the same rules (up to the space after a comma in values it keeps as written).
import assert from 'node:assert/strict'
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { pathToFileURL } from 'node:url'
import type { Browser } from 'playwright-core'
import { cssStringsPlugin, minifyCss } from '../../../scripts/cssStrings.ts'
import { launchBrowser } from '../../e2e/harness.ts'

const THEME = path.resolve('src/ui/theme')
const STYLE_MODULE = /[\\/](reset|\w+Styles)\.ts$/

/** Every style module of the theme, as written and as the build emits it (imported from a copy). */
async function styleModules(): Promise<{
  styles: { name: string; original: string; built: string }[]
  dir: string
}> {
  const dir = await mkdtemp(path.join(tmpdir(), 'css-strings-'))
  await cp(THEME, dir, { recursive: true })
  const plugin = cssStringsPlugin(STYLE_MODULE)
  const transform = plugin.transform as (code: string, id: string) => Promise<{ code: string } | null>
  const names = (await readdir(THEME)).filter((name) => STYLE_MODULE.test(`/${name}`))
  for (const name of names) {
    const file = path.join(dir, name)
    const result = await transform(await readFile(file, 'utf8'), file)
    assert.ok(result, `${name} is transformed`)
    await writeFile(file, result.code)
  }
  const styles = []
  for (const name of names.filter((name) => name !== 'reset.ts')) {
    const exportName = name.replace('.ts', '')
    const original = (await import(pathToFileURL(path.join(THEME, name)).href))[exportName]
    const built = (await import(pathToFileURL(path.join(dir, name)).href))[exportName]
    styles.push({ name: exportName, original, built })
  }
  return { styles, dir }
}

describe('CSS strings minified at build time', () => {
  let browser: Browser

  before(async () => {
    browser = await launchBrowser()
  })
  after(() => browser?.close())

  test('behavior: minifyCss drops comments and whitespace, keeps descendant pseudo-classes and calc() spaces', () => {
    assert.equal(
      minifyCss('.a :focus ,\n/* note */ .b > .c {\n  width: calc(100% - 8px);\n  color: red;\n}\n'),
      '.a :focus,.b>.c{width:calc(100% - 8px);color:red}',
    )
  })

  test('behavior: every style module parses into the same rules in Chromium, from shorter text', async () => {
    const { styles, dir } = await styleModules()
    assert.deepEqual(
      styles.map((style) => style.name),
      ['accountStyles', 'activityStyles', 'buttonStyles', 'embeddedStyles', 'modalStyles', 'phoneStyles'],
    )
    try {
      const page = await browser.newPage()
      const rules = (css: string) =>
        page.evaluate((text) => {
          const sheet = new CSSStyleSheet()
          sheet.replaceSync(text)
          return [...sheet.cssRules].map((rule) => rule.cssText)
        }, css)
      // Chromium serializes some values as written (gradients, color-mix): the space after a comma.
      const same = (list: string[]) => list.map((text) => text.replace(/,\s+/g, ','))
      for (const { name, original, built } of styles) {
        assert.ok(built.length < original.length, `${name}: ${original.length} -> ${built.length}`)
        assert.doesNotMatch(built, /\/\*|\n/)
        const expected = await rules(original)
        // Parsed, not dropped (an @media rule's text holds its inner rules, so those are compared too).
        assert.ok(expected.length >= 2, `${name} has rules`)
        assert.deepEqual(same(await rules(built)), same(expected), name)
      }
      await page.close()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
