import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm'
import type { ProjectFeatures } from '../../src/protocol/api/index.ts'
import { projectFeatures, socialProviders } from '../../src/protocol/api/index.ts'
import type { CustodyMode } from '../../src/protocol/embedded/keys.ts'
import type { Db } from '../db/database.ts'
import { projectOrigins, projects } from '../db/schema.ts'
import { isOriginPattern, normalizeOriginPattern } from './origins.ts'

/** A project with its allow-list, as the API uses it. */
export interface Project {
  id: string
  name: string
  analyticsEnabled: boolean
  features: ProjectFeatures
  /**
   * Who can recover a wallet without the person: `user` (the default: nobody) or `operator`
   * (the service keeps the recovery share under its KEK, and so can sign for every user).
   */
  custody: CustodyMode
  /** Allowed origin patterns, sorted. */
  origins: string[]
}

/** Features a project gets unless its row says otherwise. */
export const defaultFeatures: ProjectFeatures = {
  email: true,
  socials: [...socialProviders],
  farcaster: true,
  swaps: true,
  onramp: true,
  send: true,
  activity: true,
  names: true,
}

/** Thrown for project operations that cannot be done (unknown project, duplicate id, bad origin). */
export class ProjectStoreError extends Error {
  override name = 'ProjectStoreError'
}

function resolveFeatures(stored: Record<string, unknown>): ProjectFeatures {
  const merged = { ...defaultFeatures, ...stored }
  const parsed = projectFeatures.safeParse(merged)
  return parsed.success ? parsed.data : defaultFeatures
}

function checkOrigins(origins: readonly string[]): string[] {
  const normalized = [...new Set(origins.map(normalizeOriginPattern))]
  for (const origin of normalized) {
    if (!isOriginPattern(origin)) {
      throw new ProjectStoreError(
        `"${origin}" is not an origin pattern such as https://app.example.com, https://*.example.com or http://localhost:5173`,
      )
    }
  }
  return normalized
}

/**
 * One project with its origins, or null when no project has this id.
 *
 * @example
 * const project = await getProject(db, 'dev-project')
 */
export async function getProject(db: Db, id: string): Promise<Project | null> {
  const [rows, originRows] = await Promise.all([
    db.select().from(projects).where(eq(projects.id, id)).limit(1),
    db
      .select({ origin: projectOrigins.origin })
      .from(projectOrigins)
      .where(eq(projectOrigins.projectId, id))
      .orderBy(asc(projectOrigins.origin)),
  ])
  const row = rows[0]
  if (!row) return null
  return {
    id: row.id,
    name: row.name,
    analyticsEnabled: row.analyticsEnabled,
    features: resolveFeatures(row.features),
    custody: row.custody,
    origins: originRows.map((origin) => origin.origin),
  }
}

/**
 * Every project with its origins, by id.
 *
 * @example
 * for (const project of await listProjects(db)) console.log(project.id, project.origins)
 */
export async function listProjects(db: Db): Promise<Project[]> {
  const [rows, originRows] = await Promise.all([
    db.select().from(projects).orderBy(asc(projects.id)),
    db.select().from(projectOrigins).orderBy(asc(projectOrigins.origin)),
  ])
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    analyticsEnabled: row.analyticsEnabled,
    features: resolveFeatures(row.features),
    custody: row.custody,
    origins: originRows.filter((origin) => origin.projectId === row.id).map((origin) => origin.origin),
  }))
}

export interface CreateProjectParameters {
  id: string
  name: string
  origins?: readonly string[]
  analyticsEnabled?: boolean
  /** Default `user`. */
  custody?: CustodyMode
}

/**
 * Creates a project; fails when the id is taken or an origin is not a valid pattern.
 *
 * @example
 * await createProject(db, { id: 'shop', name: 'Shop', origins: ['https://shop.example.com'] })
 */
export async function createProject(db: Db, parameters: CreateProjectParameters): Promise<Project> {
  const origins = checkOrigins(parameters.origins ?? [])
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(projects)
      .values({
        id: parameters.id,
        name: parameters.name,
        analyticsEnabled: parameters.analyticsEnabled ?? true,
        custody: parameters.custody ?? 'user',
      })
      .onConflictDoNothing()
      .returning({ id: projects.id })
    if (inserted.length === 0)
      throw new ProjectStoreError(`A project with id "${parameters.id}" already exists`)
    if (origins.length > 0) {
      await tx.insert(projectOrigins).values(origins.map((origin) => ({ projectId: parameters.id, origin })))
    }
  })
  return requireProject(db, parameters.id)
}

async function requireProject(db: Db, id: string): Promise<Project> {
  const project = await getProject(db, id)
  if (!project) throw new ProjectStoreError(`No project has id "${id}"`)
  return project
}

/**
 * Adds origins to a project's allow-list (already listed ones are kept once).
 *
 * @example
 * await allowOrigins(db, 'shop', ['https://*.shop.example.com'])
 */
export async function allowOrigins(db: Db, id: string, origins: readonly string[]): Promise<Project> {
  const normalized = checkOrigins(origins)
  await requireProject(db, id)
  if (normalized.length > 0) {
    await db
      .insert(projectOrigins)
      .values(normalized.map((origin) => ({ projectId: id, origin })))
      .onConflictDoNothing()
    await touch(db, id)
  }
  return requireProject(db, id)
}

/**
 * Removes origins from a project's allow-list.
 *
 * @example
 * await removeOrigins(db, 'shop', ['http://localhost:5173'])
 */
export async function removeOrigins(db: Db, id: string, origins: readonly string[]): Promise<Project> {
  const normalized = origins.map(normalizeOriginPattern)
  const before = await requireProject(db, id)
  const missing = normalized.filter((origin) => !before.origins.includes(origin))
  if (missing.length > 0) {
    throw new ProjectStoreError(`Project "${id}" does not list ${missing.map((o) => `"${o}"`).join(', ')}`)
  }
  if (normalized.length > 0) {
    await db
      .delete(projectOrigins)
      .where(and(eq(projectOrigins.projectId, id), inArray(projectOrigins.origin, normalized)))
    await touch(db, id)
  }
  return requireProject(db, id)
}

export interface UpdateProjectParameters {
  name?: string
  analyticsEnabled?: boolean
  features?: Partial<ProjectFeatures>
  custody?: CustodyMode
}

/**
 * Changes a project's name, analytics setting, custody mode or features (features are merged over the stored ones).
 *
 * @example
 * await updateProject(db, 'shop', { analyticsEnabled: false })
 */
export async function updateProject(
  db: Db,
  id: string,
  parameters: UpdateProjectParameters,
): Promise<Project> {
  const current = await requireProject(db, id)
  await db
    .update(projects)
    .set({
      ...(parameters.name === undefined ? {} : { name: parameters.name }),
      ...(parameters.analyticsEnabled === undefined ? {} : { analyticsEnabled: parameters.analyticsEnabled }),
      ...(parameters.custody === undefined ? {} : { custody: parameters.custody }),
      ...(parameters.features === undefined
        ? {}
        : { features: { ...current.features, ...parameters.features } }),
      updatedAt: sql`now()`,
    })
    .where(eq(projects.id, id))
  return requireProject(db, id)
}

async function touch(db: Db, id: string): Promise<void> {
  await db.update(projects).set({ updatedAt: sql`now()` }).where(eq(projects.id, id))
}

/**
 * Creates the dev project, or resets its allow-list to exactly `origins` when it exists (so an origin
 * dropped from `DEV_ORIGINS` stops being allowed). Its name and settings are kept.
 *
 * @example
 * await ensureDevProject(db, { id: 'dev-project', origins: ['http://localhost:5173'] })
 */
export async function ensureDevProject(
  db: Db,
  parameters: { id: string; origins: readonly string[] },
): Promise<Project> {
  const origins = checkOrigins(parameters.origins)
  await db.transaction(async (tx) => {
    await tx
      .insert(projects)
      .values({ id: parameters.id, name: 'Development project', analyticsEnabled: true })
      .onConflictDoNothing()
    await tx
      .delete(projectOrigins)
      .where(
        origins.length === 0
          ? eq(projectOrigins.projectId, parameters.id)
          : and(eq(projectOrigins.projectId, parameters.id), notInArray(projectOrigins.origin, origins)),
      )
    if (origins.length > 0) {
      await tx
        .insert(projectOrigins)
        .values(origins.map((origin) => ({ projectId: parameters.id, origin })))
        .onConflictDoNothing()
    }
  })
  return requireProject(db, parameters.id)
}
