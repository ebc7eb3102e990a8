import type { ReactNode } from 'react'
import { useLayoutEffect, useRef, useState } from 'react'

/**
 * A list that renders only the rows in view (plus a few either side), so 600 wallets scroll and
 * filter as smoothly as 6. Rows have one fixed height; the list is as tall as its rows, up to
 * `maxHeight` (one search result leaves no blank below it). `onNearEnd` fires when the last rows
 * come into view (infinite scroll).
 */
export function VirtualList<T>(props: {
  items: readonly T[]
  rowHeight: number
  maxHeight: number
  overscan?: number
  label: string
  renderRow: (item: T, index: number) => ReactNode
  rowKey: (item: T) => string
  onNearEnd?: () => void
  footer?: ReactNode
}) {
  const { items, rowHeight, maxHeight: height, overscan = 4 } = props
  const scroller = useRef<HTMLDivElement>(null)
  const [scrollTop, setScrollTop] = useState(0)
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan)
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + overscan)
  const nearEnd = last >= items.length - overscan

  const onNearEnd = useRef(props.onNearEnd)
  onNearEnd.current = props.onNearEnd
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again when more rows arrive while still near the end.
  useLayoutEffect(() => {
    if (nearEnd) onNearEnd.current?.()
  }, [nearEnd, items.length])

  // A row that receives keyboard focus is scrolled fully into view.
  const onFocus = (event: React.FocusEvent<HTMLDivElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>('[data-index]')
    const container = scroller.current
    if (!row || !container) return
    const top = Number(row.dataset.index) * rowHeight
    const shown = container.clientHeight
    if (top < container.scrollTop) container.scrollTop = top
    else if (top + rowHeight > container.scrollTop + shown) container.scrollTop = top + rowHeight - shown
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: scroll and focus are observed, not handled as actions.
    <div
      ref={scroller}
      className="virtual"
      style={{ maxHeight: height, overflowY: 'auto', position: 'relative' }}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
      onFocus={onFocus}
    >
      <ul
        className="list"
        aria-label={props.label}
        style={{ height: items.length * rowHeight, position: 'relative', display: 'block' }}
      >
        {items.slice(first, last).map((item, offset) => {
          const index = first + offset
          return (
            <li
              key={props.rowKey(item)}
              data-index={index}
              aria-setsize={items.length}
              aria-posinset={index + 1}
              style={{
                position: 'absolute',
                top: index * rowHeight,
                left: 0,
                right: 0,
                height: rowHeight - 8,
              }}
            >
              {props.renderRow(item, index)}
            </li>
          )
        })}
      </ul>
      {props.footer}
    </div>
  )
}
