// Module hooks for test/support/lane.ts: a test file loaded as `file.test.ts?lane=N` gets its own copy of
// every module under test/ that it imports (its helpers), by the same query; everything else (the code
// under test, the packages) is the one copy the whole process shares.
const testsFolder = new URL('../', import.meta.url).href

/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context)
  const lane = context.parentURL ? new URL(context.parentURL).searchParams.get('lane') : null
  if (lane === null || !resolved.url.startsWith(testsFolder) || resolved.url.includes('?')) return resolved
  return { ...resolved, url: `${resolved.url}?lane=${lane}` }
}
