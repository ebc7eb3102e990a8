// The element's check of the frame page against the build the site pinned, before the iframe loads it.
import { FrameIntegrityError } from '../../errors/embedded.ts'
import { builtFramePage, FrameIntegritySchema, sriOf } from '../../protocol/embedded/frameIntegrity.ts'

/**
 * Fetches the frame page (the URL the iframe will load, never from a cache, no credentials) and
 * resolves when its bytes, without the project's settings the service adds, hash to `pinned`; rejects
 * with `FrameIntegrityError` otherwise (a malformed pin, another build, an error status, or no answer). Through the
 * page's SRI attributes and import map, that hash pins every script the frame runs.
 *
 * @example
 * await checkFramePage(fetch, 'https://wallet.example/?projectId=p', 'sha384-…')
 */
export async function checkFramePage(fetcher: typeof fetch, url: string, pinned: string): Promise<void> {
  // A malformed pin refuses every page, before anything is fetched.
  const pin = FrameIntegritySchema.safeParse(pinned)
  if (!pin.success) throw new FrameIntegrityError({ details: pin.error.issues[0]?.message })
  let response: Response
  try {
    response = await fetcher(url, {
      cache: 'no-store',
      credentials: 'omit',
      mode: 'cors',
      referrerPolicy: 'no-referrer',
    })
  } catch (cause) {
    throw new FrameIntegrityError({ details: `${url} could not be read to check it`, cause })
  }
  if (!response.ok) throw new FrameIntegrityError({ details: `${url} answered ${response.status}` })
  const page = builtFramePage(await response.text())
  const found = await sriOf(new TextEncoder().encode(page))
  if (found !== pinned) throw new FrameIntegrityError({ details: `${url} is ${found} (pinned: ${pinned})` })
}
