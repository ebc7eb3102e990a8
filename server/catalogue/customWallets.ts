import { createHash } from 'node:crypto'
import { and, eq, max, ne } from 'drizzle-orm'
import type { CatalogueEntry } from '../../src/protocol/api/index.ts'
import { isCaip2, isSafeWalletLink, type WalletLinkKind } from '../../src/protocol/api/index.ts'
import type { Db } from '../db/database.ts'
import { images, wallets } from '../db/schema.ts'
import { imageEtag, placeholderLogo, sniffImageType } from './imageFiles.ts'

/** Thrown when a catalogue change is refused (bad value, rdns taken, unknown wallet). */
export class CatalogueError extends Error {
  override name = 'CatalogueError'
}

export interface AddWalletParameters {
  /** Catalogue id; derived from the name when absent (so re-running the same command updates it). */
  id?: string
  name: string
  /** Logo bytes (JPEG, PNG, GIF, WebP or SVG); a placeholder with the initial when absent. */
  image?: Uint8Array
  /** EIP-6963 reverse-DNS id the wallet announces, for example `com.example.wallet`. */
  rdns?: string
  mobileLink?: string
  desktopLink?: string
  webappLink?: string
  /** The wallet's page in Apple's App Store, https. */
  appStore?: string
  /** The wallet's page in Google Play, https. */
  playStore?: string
  homepage?: string
  /** CAIP-2 networks the wallet supports. */
  chains?: readonly string[]
  badgeType?: 'none' | 'certified'
}

const rdnsPattern = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/
const idPattern = /^[A-Za-z0-9:._-]{1,128}$/

/** The id a custom wallet gets from its name: 64 hex characters, like the registry's ids. */
export function customWalletId(name: string): string {
  return createHash('sha256').update(`custom:${name.trim().toLowerCase()}`).digest('hex')
}

const linkLabels: Record<WalletLinkKind, string> = {
  mobile_link: 'The mobile link',
  desktop_link: 'The desktop link',
  webapp_link: 'The web app link',
  app_store: 'The App Store link',
  play_store: 'The Google Play link',
}

/** Links that are pages on the web (a web app, a store page): https only. */
const httpsOnly: readonly WalletLinkKind[] = ['webapp_link', 'app_store', 'play_store']
const httpsExample: Partial<Record<WalletLinkKind, string>> = {
  webapp_link: 'https://app.example.com',
  app_store: 'https://apps.apple.com/app/id123456789',
  play_store: 'https://play.google.com/store/apps/details?id=com.example.wallet',
}

/** A catalogue link, or null when none was given; refused unless https or the wallet's own scheme. */
function checkLink(kind: WalletLinkKind, value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return null
  const link = value.trim()
  if (!isSafeWalletLink(kind, link)) {
    throw new CatalogueError(
      httpsOnly.includes(kind)
        ? `${linkLabels[kind]} must be an https:// URL such as ${httpsExample[kind]}`
        : `${linkLabels[kind]} must be https:// or the wallet's own scheme such as example: (never javascript:, data:, vbscript:, file: or http:)`,
    )
  }
  return link
}

function checkHomepage(value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return null
  if (!/^https?:\/\/[^\s/?#]+\S*$/i.test(value.trim())) {
    throw new CatalogueError('The homepage must be an http:// or https:// URL')
  }
  return value.trim()
}

/**
 * Adds a wallet to the catalogue, or updates it when the id exists (its position is kept). Its logo is
 * stored for `/getWalletImage/{id}`.
 *
 * @example
 * await addWallet(db, { name: 'Acme Wallet', rdns: 'com.acme.wallet', image: await readFile('acme.png') })
 */
export async function addWallet(db: Db, parameters: AddWalletParameters): Promise<CatalogueEntry> {
  const name = parameters.name.trim()
  if (name === '' || name.length > 100) throw new CatalogueError('The name must have 1 to 100 characters')
  const id = parameters.id ?? customWalletId(name)
  if (!idPattern.test(id)) throw new CatalogueError('The id must have 1 to 128 letters, digits or : . _ -')
  const rdns = parameters.rdns?.trim().toLowerCase() || null
  if (rdns !== null && !rdnsPattern.test(rdns)) {
    throw new CatalogueError('The rdns must be a reverse domain name such as com.example.wallet')
  }
  const chains = [...new Set(parameters.chains ?? [])]
  const badChain = chains.find((chain) => !isCaip2(chain))
  if (badChain !== undefined)
    throw new CatalogueError(`"${badChain}" is not a CAIP-2 network id such as eip155:1`)
  const image = parameters.image ? Buffer.from(parameters.image) : placeholderLogo(name)
  const contentType = sniffImageType(image)
  if (contentType === null) throw new CatalogueError('The image must be a JPEG, PNG, GIF, WebP or SVG file')
  const values = {
    name,
    imageId: id,
    chains,
    mobileLink: checkLink('mobile_link', parameters.mobileLink),
    desktopLink: checkLink('desktop_link', parameters.desktopLink),
    webappLink: checkLink('webapp_link', parameters.webappLink),
    appStore: checkLink('app_store', parameters.appStore),
    playStore: checkLink('play_store', parameters.playStore),
    homepage: checkHomepage(parameters.homepage),
    rdns,
    badgeType: parameters.badgeType ?? 'none',
  }
  await db.transaction(async (tx) => {
    if (rdns !== null) {
      const [taken] = await tx
        .select({ id: wallets.id, name: wallets.name })
        .from(wallets)
        .where(and(eq(wallets.rdns, rdns), ne(wallets.id, id)))
        .limit(1)
      if (taken) throw new CatalogueError(`The rdns ${rdns} is already used by ${taken.name} (${taken.id})`)
    }
    const [last] = await tx.select({ value: max(wallets.position) }).from(wallets)
    await tx
      .insert(wallets)
      .values({ id, ...values, position: (last?.value ?? -1) + 1, source: 'custom' })
      .onConflictDoUpdate({ target: wallets.id, set: { ...values, updatedAt: new Date() } })
    const imageValues = { contentType, etag: imageEtag(image), data: image, updatedAt: new Date() }
    await tx
      .insert(images)
      .values({ kind: 'wallet', id, ...imageValues })
      .onConflictDoUpdate({ target: [images.kind, images.id], set: imageValues })
  })
  return {
    id,
    name,
    image_id: id,
    chains,
    mobile_link: values.mobileLink,
    desktop_link: values.desktopLink,
    webapp_link: values.webappLink,
    app_store: values.appStore,
    play_store: values.playStore,
    rdns,
    badge_type: values.badgeType,
  }
}

/**
 * Removes a wallet and its logo from the catalogue.
 *
 * @example
 * await removeWallet(db, 'c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96')
 */
export async function removeWallet(db: Db, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const removed = await tx.delete(wallets).where(eq(wallets.id, id)).returning({ id: wallets.id })
    if (removed.length === 0) throw new CatalogueError(`No wallet has id "${id}"`)
    await tx.delete(images).where(and(eq(images.kind, 'wallet'), eq(images.id, id)))
  })
}
