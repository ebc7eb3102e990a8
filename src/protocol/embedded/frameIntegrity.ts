// The frame page's integrity: the SRI hash a site pins (`frame-integrity`), and the page as built.
import * as z from 'zod/mini'
import { toBase64 } from '../base64.ts'

/** The id of the JSON data block the service adds to a frame page (its project's settings). */
export const FRAME_CONFIG_ID = 'wallet-frame-config'

/**
 * An SRI value of SHA-384, as `dist-frame/integrity.json` writes it: what `frame-integrity` must be.
 * (Checked when the embedded connector loads, off the first paint.)
 */
export const FrameIntegritySchema = z.string().check(
  z.regex(/^sha384-[A-Za-z0-9+/]{64}$/, {
    error: 'frame-integrity must be sha384- and 64 base64 characters (the frame value of integrity.json)',
  }),
)

const configBlock = new RegExp(
  `<script type="application/json" id="${FRAME_CONFIG_ID}">[^<]*</script>(?=</head>)`,
)

/**
 * A frame page with its settings: one inert data block (`type="application/json"`, never run; no `<`
 * inside, so nothing can close it) just before `</head>`. The build's bytes are otherwise untouched,
 * so a site can check the page against the build's hash (see {@link builtFramePage}).
 *
 * @example
 * withFrameConfig(html, { projectId: 'p', origins: [], frameOrigin: 'https://wallet.example' })
 */
export function withFrameConfig(html: string, settings: unknown): string {
  const json = JSON.stringify(settings).replace(/</g, '\\u003c')
  return html.replace(
    '</head>',
    `<script type="application/json" id="${FRAME_CONFIG_ID}">${json}</script></head>`,
  )
}

/**
 * A served frame page as the build wrote it: the one data block {@link withFrameConfig} adds removed,
 * and nothing else. Any other change stays, so its hash no longer matches the build's.
 *
 * @example
 * builtFramePage(withFrameConfig(html, settings)) === html // true
 */
export function builtFramePage(html: string): string {
  return html.replace(configBlock, '')
}

/**
 * The Subresource Integrity value (`sha384-` and base64) of some bytes, with WebCrypto (browsers and
 * Node): what a `<script integrity>`, an import map's `integrity` and `integrity.json` hold.
 *
 * @example
 * await sriOf(new TextEncoder().encode('alert(1)')) // 'sha384-…'
 */
export async function sriOf(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return `sha384-${toBase64(new Uint8Array(await crypto.subtle.digest('SHA-384', bytes)))}`
}
