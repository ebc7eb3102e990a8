import { readFile } from 'node:fs/promises'
import { count } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { z } from 'zod'
import { isSafeWalletLink, type WalletLinkKind } from '../../src/protocol/api/index.ts'
import { imageEtag, placeholderLogo, sniffImageType } from '../catalogue/imageFiles.ts'
import type { ServiceLogger } from '../logger.ts'
import { images, type schema, wallets } from './schema.ts'

type AnyDb = PgDatabase<PgQueryResultHKT, typeof schema>

const seedFolder = new URL('../data/seed/', import.meta.url)

/**
 * EIP-6963 rdns of the snapshot's wallets whose browser extension announces a public, well-known one;
 * the modal matches installed wallets to catalogue entries by it.
 */
export const seedRdns: Readonly<Record<string, string>> = {
  c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96: 'io.metamask',
  '1ae92b26df02f0abca6304df07debccd18262fdf5fe82daa81593582dac9a369': 'me.rainbow',
  '4622a2b2d6af1c9844944291e5e7351a6aa24cd7b23099efac1b2fd875da31a0': 'com.trustwallet.app',
  f2436c67184f158d1beda5df53298ee84abfc367581e4505134b5bcf5f46697d: 'com.crypto.wallet',
  fbc8d86ad914ebd733fec4812b4b7af5ca709fdd9e75a930115e5baa02c4ef4c: 'io.rabby',
  // BitKeep is now Bitget Wallet; its extension announces this rdns.
  '42d72b6b34411dfacdf5364c027979908f971fc60251a817622b7bdb44a03106': 'com.bitget.web3',
  '20459438007b75f4f4acb98bf29aa3b800550309646d375da5fd4aac6c2a2c66': 'pro.tokenpocket',
  b021913ba555948a1c81eb3d89b372be46f8354e926679de648e4fa2938bed3e: 'coin98.com',
}

/** The project's own demo wallet (demo/), which announces itself over EIP-6963 with this rdns. */
export const demoWallet = {
  id: '55649c97559a0745c66284a422c0a8e50a61b67f77493731154dc2f1d2ea64c7',
  name: 'Demo Wallet',
  rdns: 'dev.wallet-elements.demo',
  chains: ['eip155:31337', 'eip155:31338'],
  logo: 'images/demo-wallet.svg',
} as const

/** Network, token and currency images served by the `/public/*` endpoints. */
export const seedPublicImages: ReadonlyArray<{
  kind: 'asset' | 'currency' | 'token'
  id: string
  file: string
}> = [
  { kind: 'asset', id: 'eip155:1', file: 'images/network-eip155-1.svg' },
  { kind: 'asset', id: 'eip155:31337', file: 'images/network-eip155-31337.svg' },
  { kind: 'asset', id: 'eip155:31338', file: 'images/network-eip155-31338.svg' },
  { kind: 'asset', id: 'solana', file: 'images/network-solana.svg' },
  { kind: 'token', id: 'ETH', file: 'images/token-eth.svg' },
  { kind: 'token', id: 'SOL', file: 'images/token-sol.svg' },
  { kind: 'token', id: 'USDC', file: 'images/token-usdc.svg' },
  { kind: 'token', id: 'DEV', file: 'images/token-dev.svg' },
  { kind: 'token', id: 'WETH', file: 'images/token-weth.svg' },
  { kind: 'currency', id: 'USD', file: 'images/currency-usd.svg' },
  { kind: 'currency', id: 'EUR', file: 'images/currency-eur.svg' },
]

const links = z.object({ native: z.string().default(''), universal: z.string().default('') })

const registryWallet = z.object({
  id: z.string().regex(/^[A-Za-z0-9:._-]{1,128}$/),
  name: z.string().min(1),
  homepage: z.string().default(''),
  chains: z.array(z.string()).default([]),
  app: z
    .object({
      browser: z.string().default(''),
      ios: z.string().default(''),
      android: z.string().default(''),
    })
    .default({ browser: '', ios: '', android: '' }),
  mobile: links.default({ native: '', universal: '' }),
  desktop: links.default({ native: '', universal: '' }),
  metadata: z
    .object({ colors: z.object({ primary: z.string().default('') }).default({ primary: '' }) })
    .optional(),
})

const registry = z.record(z.string(), registryWallet)

const orNull = (value: string) => (value.trim() === '' ? null : value.trim())

/** A registry wallet as the seed reads it. */
export type RegistryWallet = z.infer<typeof registryWallet>

/**
 * A registry wallet's catalogue links, each the native one or else the universal one, and its store pages
 * (`app.ios`, `app.android`), keeping only those the modal may open (https, or for the apps' links the
 * wallet's own scheme); `dropped` lists the others.
 *
 * @example
 * const { links, dropped } = seedLinks(entry)
 */
export function seedLinks(entry: RegistryWallet) {
  const dropped: string[] = []
  const pick = (kind: WalletLinkKind, ...candidates: string[]) => {
    for (const candidate of candidates.map(orNull)) {
      if (candidate === null) continue
      if (isSafeWalletLink(kind, candidate)) return candidate
      dropped.push(`${kind} ${candidate}`)
    }
    return null
  }
  return {
    links: {
      mobileLink: pick('mobile_link', entry.mobile.native, entry.mobile.universal),
      desktopLink: pick('desktop_link', entry.desktop.native, entry.desktop.universal),
      webappLink: pick('webapp_link', entry.app.browser),
      appStore: pick('app_store', entry.app.ios),
      playStore: pick('play_store', entry.app.android),
    },
    dropped,
  }
}

async function readSeedFile(path: string): Promise<Buffer> {
  return readFile(new URL(path, seedFolder))
}

async function readLogo(id: string): Promise<Buffer | null> {
  for (const extension of ['jpeg', 'png', 'svg']) {
    try {
      return await readSeedFile(`logos/${id}.${extension}`)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  return null
}

function rgbToHex(color: string): string | undefined {
  const match = /^rgb\((\d+),\s*(\d+),\s*(\d+)\)$/.exec(color.trim())
  if (!match) return undefined
  return `#${match
    .slice(1, 4)
    .map((part) => Number(part).toString(16).padStart(2, '0'))
    .join('')}`
}

function imageRow(kind: 'wallet' | 'asset' | 'currency' | 'token', id: string, bytes: Buffer) {
  const contentType = sniffImageType(bytes)
  if (contentType === null) throw new Error(`Seed image ${kind}/${id} is not a browser image format`)
  return { kind, id, contentType, etag: imageEtag(bytes), data: bytes }
}

/**
 * Loads the wallet catalogue (server/data/seed/wallets.json and its logos, mapped to SPEC section 3's
 * catalogue entry, plus the demo wallet) when the wallets table is empty, and adds any missing public
 * image. Runs at every start; cheap when there is nothing to do.
 *
 * @example
 * await seedDatabase(db, logger)
 */
export async function seedDatabase(db: AnyDb, logger?: ServiceLogger): Promise<void> {
  const [walletCount] = await db.select({ value: count() }).from(wallets)
  if ((walletCount?.value ?? 0) === 0) {
    const entries = Object.values(registry.parse(JSON.parse(await readSeedFile('wallets.json').then(String))))
    const walletRows: (typeof wallets.$inferInsert)[] = []
    const imageRows: (typeof images.$inferInsert)[] = []
    for (const [position, entry] of entries.entries()) {
      const { links, dropped } = seedLinks(entry)
      if (dropped.length > 0) {
        logger?.info({ wallet: entry.id, dropped }, `Dropped links of ${entry.name} the modal may not open`)
      }
      walletRows.push({
        id: entry.id,
        name: entry.name,
        imageId: entry.id,
        chains: entry.chains,
        ...links,
        rdns: seedRdns[entry.id] ?? null,
        homepage: orNull(entry.homepage),
        position,
        source: 'seed',
      })
      const logo = await readLogo(entry.id)
      const usable = logo !== null && sniffImageType(logo) !== null
      if (!usable) logger?.warn({ wallet: entry.id }, `No usable logo for ${entry.name}; using a placeholder`)
      imageRows.push(
        imageRow(
          'wallet',
          entry.id,
          usable ? logo : placeholderLogo(entry.name, rgbToHex(entry.metadata?.colors.primary ?? '')),
        ),
      )
    }
    walletRows.push({
      id: demoWallet.id,
      name: demoWallet.name,
      imageId: demoWallet.id,
      chains: [...demoWallet.chains],
      mobileLink: null,
      desktopLink: null,
      webappLink: null,
      appStore: null,
      playStore: null,
      rdns: demoWallet.rdns,
      homepage: null,
      position: entries.length,
      source: 'seed',
    })
    imageRows.push(imageRow('wallet', demoWallet.id, await readSeedFile(demoWallet.logo)))
    await db.transaction(async (tx) => {
      await tx.insert(wallets).values(walletRows)
      await tx.insert(images).values(imageRows).onConflictDoNothing()
    })
    logger?.info({ wallets: walletRows.length }, 'Seeded the wallet catalogue')
  }
  const publicRows = await Promise.all(
    seedPublicImages.map(async (image) => imageRow(image.kind, image.id, await readSeedFile(image.file))),
  )
  await db.insert(images).values(publicRows).onConflictDoNothing()
}
