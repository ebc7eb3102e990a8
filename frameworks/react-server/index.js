// What `wallet-elements` resolves to under the `react-server` export condition (see elements.js beside
// this file): the main entry holds the element classes, which run in the browser.
throw new Error(
  "wallet-elements holds the elements, which run in the browser: import it from a client component (a file that starts with 'use client'), not from a server component. A server component can import createConfig and the stores from wallet-elements/core.",
)
