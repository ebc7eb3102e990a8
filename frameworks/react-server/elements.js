// What `wallet-elements/elements` resolves to under the `react-server` export condition, that is in a
// React Server Component (Next.js App Router and other RSC frameworks). A server component never runs in
// the browser, so the import would register nothing and the tags would stay empty with no word why: fail
// the build (or the request) instead, saying where the import belongs.
throw new Error(
  "wallet-elements/elements registers custom elements in the browser: import it from a client component (a file that starts with 'use client'), not from a server component.",
)
