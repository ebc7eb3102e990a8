// The same React app without the elements, to measure what they add.
import { createRoot } from 'react-dom/client'
import { Counter } from '../../react/src/Counter'

createRoot(document.getElementById('root') as HTMLElement).render(
  <main>
    <Counter />
  </main>,
)
