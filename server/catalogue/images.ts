import { and, eq } from 'drizzle-orm'
import type { ImageKind } from '../../src/protocol/api/index.ts'
import type { Db } from '../db/database.ts'
import { images } from '../db/schema.ts'

export interface StoredImage {
  contentType: string
  etag: string
  data: Buffer
}

/** Token and currency images are looked up by upper-case symbol (`eth` finds `ETH`). */
export function normalizeImageId(kind: ImageKind, id: string): string {
  return kind === 'token' || kind === 'currency' ? id.toUpperCase() : id
}

/**
 * The stored image of one family and id, or null.
 *
 * @example
 * const logo = await getImage(db, 'wallet', 'c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96')
 */
export async function getImage(db: Db, kind: ImageKind, id: string): Promise<StoredImage | null> {
  const [row] = await db
    .select({ contentType: images.contentType, etag: images.etag, data: images.data })
    .from(images)
    .where(and(eq(images.kind, kind), eq(images.id, normalizeImageId(kind, id))))
    .limit(1)
  return row ?? null
}
