import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { type FrameIntegrity, subresourceIntegrityPlugin } from '../../../scripts/sriPlugin.ts'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const folders: string[] = []
const folder = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`))
  folders.push(dir)
  return dir
}
after(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true })
})

/** The SRI value of a file's bytes, computed here apart from the plugin (node:crypto, not WebCrypto). */
const sri = (bytes: Buffer | string) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`

/** Builds the wallet frame as `npm run build:frame` does, into a fresh folder. */
async function buildFrame(): Promise<string> {
  const outDir = folder('frame-build')
  await build({
    configFile: join(root, 'vite.frame.config.ts'),
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
  })
  return outDir
}

const pagesOf = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.html'))
const importMapOf = (html: string) =>
  JSON.parse(/<script type="importmap">([^<]*)<\/script>/.exec(html)?.[1] ?? '{}') as {
    integrity?: Record<string, string>
  }

describe('the frame build, pinned (scripts/sriPlugin.ts)', { timeout: 120_000 }, () => {
  let first: string
  let second: string
  before(async () => {
    first = await buildFrame()
    second = await buildFrame()
  })

  it('default: every script and stylesheet of every page carries the sha384 of the file it names', () => {
    const pages = pagesOf(first)
    assert.deepEqual(pages.sort(), ['approve.html', 'device.html', 'index.html', 'social.html'])
    for (const page of pages) {
      const html = readFileSync(join(first, page), 'utf8')
      const tags = [...html.matchAll(/<(?:script|link)\b[^>]*\s(?:src|href)="([^"]+)"[^>]*>/g)]
      assert.ok(tags.length >= 2, `${page} loads its script and its stylesheet`)
      for (const [tag, url = ''] of tags) {
        const expected = sri(readFileSync(join(first, url)))
        assert.equal(/\sintegrity="([^"]+)"/.exec(tag)?.[1], expected, `${page}: ${url}`)
        assert.match(tag, /\scrossorigin\b/, `${page}: ${url} is fetched in CORS mode`)
      }
    }
  })

  it('default: each page’s import map pins every chunk its code imports, statically or with import()', () => {
    for (const page of pagesOf(first)) {
      const html = readFileSync(join(first, page), 'utf8')
      const integrity = importMapOf(html).integrity ?? {}
      const entry = /<script type="module"[^>]*\ssrc="([^"]+)"/.exec(html)?.[1] ?? ''
      // Every chunk the entry reaches, found by reading the emitted files: `"./name.js"` specifiers.
      const reached = new Set<string>()
      const visit = (url: string) => {
        if (reached.has(url)) return
        reached.add(url)
        const code = readFileSync(join(first, url), 'utf8')
        for (const [, name] of code.matchAll(/["'`]\.\/([\w.-]+\.js)["'`]/g)) visit(`/assets/${name}`)
      }
      visit(entry)
      assert.ok(reached.size > 12, `${page} reaches its locale chunks (${reached.size})`)
      for (const url of reached)
        assert.equal(integrity[url], sri(readFileSync(join(first, url))), `${page}: ${url} is pinned`)
      for (const [url, hash] of Object.entries(integrity))
        assert.equal(hash, sri(readFileSync(join(first, url))), `${page}: ${url}`)
    }
  })

  it('default: integrity.json holds each page’s own hash, and frame is index.html’s', () => {
    const record = JSON.parse(readFileSync(join(first, 'integrity.json'), 'utf8')) as FrameIntegrity
    for (const page of pagesOf(first)) assert.equal(record.pages[page], sri(readFileSync(join(first, page))))
    assert.equal(record.frame, record.pages['index.html'])
    assert.match(record.frame, /^sha384-[A-Za-z0-9+/]{64}$/)
  })

  it('behavior: two builds in a row give the same hashes (a site can rebuild and compare)', () => {
    assert.equal(
      readFileSync(join(second, 'integrity.json'), 'utf8'),
      readFileSync(join(first, 'integrity.json'), 'utf8'),
    )
    for (const page of pagesOf(first))
      assert.equal(readFileSync(join(second, page), 'utf8'), readFileSync(join(first, page), 'utf8'))
  })

  it('error: a page that loads code from outside the build fails the build', async () => {
    const source = folder('sri-fixture')
    mkdirSync(join(source, 'src'))
    writeFileSync(join(source, 'src', 'main.js'), 'document.title = "pinned"\n')
    writeFileSync(
      join(source, 'src', 'index.html'),
      '<!doctype html><html><head><script type="module" src="./main.js"></script>' +
        '<script type="module" src="https://cdn.example.com/lib.js"></script></head><body></body></html>\n',
    )
    await assert.rejects(
      build({
        configFile: false,
        root: join(source, 'src'),
        logLevel: 'silent',
        plugins: [subresourceIntegrityPlugin()],
        build: { outDir: join(source, 'dist'), emptyOutDir: true },
      }),
      {
        message:
          /index\.html: https:\/\/cdn\.example\.com\/lib\.js is not part of the frame's build, so it cannot be pinned/,
      },
    )
  })
})
