// What `wallet-elements/wallet-elements.js` resolves to under the `react-server` export condition (see
// elements.js beside this file): the script-tag file imported from a server component registers nothing.
throw new Error(
  "wallet-elements/wallet-elements.js registers custom elements in the browser: import it from a client component (a file that starts with 'use client'), or load it with a script tag, not from a server component.",
)
