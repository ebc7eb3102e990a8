import { z } from 'zod'
import { projectIdPattern } from '../../src/protocol/api/index.ts'
import { blankToUndefined, commaItems } from '../config/env.ts'
import { isOriginPattern } from './origins.ts'

/** The demo's origins (vite dev server and preview, by IP and by name). */
export const defaultDevOrigins = [
  'http://127.0.0.1:5173',
  'http://localhost:5173',
  'http://127.0.0.1:4173',
  'http://localhost:4173',
]

/** The projects' slice of the service configuration: the dev project. */
export interface ProjectsConfig {
  /** Id of the dev project created or updated at start; null when disabled (production, unless `DEV_PROJECT_ID` is set). */
  devProjectId: string | null
  /** Origins the dev project allows. */
  devOrigins: string[]
}

/** The projects' variables: `DEV_PROJECT_ID`, `DEV_ORIGINS`. */
export const projectsEnv = z.object({
  // Undefined means the environment's default; an empty value turns the dev project off.
  DEV_PROJECT_ID: z
    .string()
    .transform((value) => value.trim())
    .refine(
      (value) => value === '' || projectIdPattern.test(value),
      'DEV_PROJECT_ID must use letters, digits, _ and - (up to 128), or be empty to turn the dev project off',
    )
    .optional(),
  DEV_ORIGINS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .transform(commaItems)
      .superRefine((items, context) => {
        for (const item of items) {
          if (!isOriginPattern(item)) {
            context.addIssue({
              code: 'custom',
              message: `DEV_ORIGINS has "${item}", which is not an origin such as http://localhost:5173 or https://*.example.com`,
            })
          }
        }
      })
      .optional(),
  ),
})

/**
 * The projects slice; development makes the dev project unless `DEV_PROJECT_ID` is empty.
 *
 * @example
 * const projects = projectsConfig(projectsEnv.parse({}), 'development') // devProjectId: 'dev-project'
 */
export function projectsConfig(
  values: z.output<typeof projectsEnv>,
  environment: 'development' | 'production',
): ProjectsConfig {
  const devProjectId = values.DEV_PROJECT_ID ?? (environment === 'development' ? 'dev-project' : '')
  return {
    devProjectId: devProjectId === '' ? null : devProjectId,
    devOrigins: values.DEV_ORIGINS ?? [...defaultDevOrigins],
  }
}
