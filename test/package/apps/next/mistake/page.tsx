// What a newcomer writes first: the elements imported at the top of a server component. The test
// copies this file to app/mistake/page.tsx of a second copy of the app; `next build` must fail and say
// where the import belongs.
import 'wallet-elements/elements'

export default function Mistake() {
  return <wallet-button />
}
