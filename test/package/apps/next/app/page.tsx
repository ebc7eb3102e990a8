// A server component: it renders on the server only and hands the site's settings to the client
// component that registers the elements.
import { connection } from 'next/server'
import { Wallet } from './wallet'

export default async function Page() {
  // The settings come from the server's environment when a request is served (not frozen at build),
  // as a deployed site reads its own.
  await connection()
  return (
    <main>
      <h1>A Next.js site</h1>
      <Wallet
        projectId={process.env.WALLET_PROJECT_ID ?? ''}
        apiUrl={process.env.WALLET_API_URL ?? ''}
        relayUrl={process.env.WALLET_RELAY_URL ?? ''}
        frameUrl={process.env.WALLET_FRAME_URL ?? ''}
      />
    </main>
  )
}
