import { useState } from 'react'

/** The app without the elements: what a React app ships on its own. */
export function Counter() {
  const [count, setCount] = useState(0)
  return (
    <button type="button" onClick={() => setCount(count + 1)}>
      Clicked {count} times
    </button>
  )
}
