// The dialog's phone gestures (src/ui/modal/phoneGestures.ts): when a swipe of the bottom sheet closes
// it, and the back gesture's history entry against a history that behaves as a browser's does (entries,
// `pushState` cutting the forward ones, `back()` arriving later as a `popstate`). The real gestures in
// real browsers: test/e2e/phone.test.ts and test/e2e/webkit-phone.test.ts.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  backToClose,
  CLOSE_DISTANCE_MAX,
  dismissesSheet,
  ENTRY_KEY,
  FLICK_DISTANCE,
  FLICK_SPEED,
} from '../../../src/ui/modal/phoneGestures.ts'

describe('dismissesSheet', () => {
  it('default: a slow drag closes past a third of the sheet, and settles back short of it', () => {
    assert.equal(dismissesSheet({ distance: 101, speed: 0.1, height: 300 }), true)
    assert.equal(dismissesSheet({ distance: 99, speed: 0.1, height: 300 }), false)
  })

  it('behavior: a tall sheet asks no more than 160 px', () => {
    assert.equal(dismissesSheet({ distance: CLOSE_DISTANCE_MAX, speed: 0, height: 800 }), true)
    assert.equal(dismissesSheet({ distance: CLOSE_DISTANCE_MAX - 1, speed: 0, height: 800 }), false)
  })

  it('behavior: a downward flick closes after a short drag, but not a slip of a tap', () => {
    assert.equal(dismissesSheet({ distance: FLICK_DISTANCE, speed: FLICK_SPEED, height: 600 }), true)
    assert.equal(dismissesSheet({ distance: FLICK_DISTANCE - 1, speed: 3, height: 600 }), false)
  })

  it('behavior: a last flick upward keeps it open however far it went; no distance, no close', () => {
    assert.equal(dismissesSheet({ distance: 300, speed: -FLICK_SPEED, height: 600 }), false)
    assert.equal(dismissesSheet({ distance: 0, speed: 2, height: 600 }), false)
  })
})

type Entry = { state: unknown; url: string }

/** A window with a history as a browser keeps it: traversals arrive later, as `popstate`. */
function fakeWindow(url = 'https://site.example/shop?item=1') {
  const target = new EventTarget()
  const entries: Entry[] = [{ state: { page: 'home' }, url }]
  let index = 0
  const traverse = (delta: number) =>
    setTimeout(() => {
      const next = index + delta
      if (next < 0 || next >= entries.length) return
      index = next
      const event = Object.assign(new Event('popstate'), { state: structuredClone(entries[index]?.state) })
      target.dispatchEvent(event)
    })
  const history = {
    get state() {
      return structuredClone(entries[index]?.state ?? null)
    },
    get length() {
      return entries.length
    },
    pushState(state: unknown, _title: string, next?: string) {
      entries.splice(index + 1)
      entries.push({ state: structuredClone(state), url: next ?? win.location.href })
      index++
    },
    back: () => traverse(-1),
    forward: () => traverse(1),
  }
  const win = {
    history,
    location: {
      get href() {
        return entries[index]?.url ?? ''
      },
    },
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
  }
  /** Resolves once the next `popstate` has been handled. */
  const popped = () =>
    new Promise<void>((resolve) =>
      target.addEventListener('popstate', () => setTimeout(resolve), { once: true }),
    )
  return { win: win as unknown as Window, history, entries, popped, index: () => index }
}

/** A dialog's close: counts the calls; refuses while `refuse` is set. */
function closer() {
  const calls = { count: 0, refuse: false }
  const close = async () => {
    calls.count++
    return !calls.refuse
  }
  return { calls, close }
}

describe('backToClose', () => {
  it('behavior: opening adds an entry at the same URL, keeping the page state; back closes the dialog', async () => {
    const { win, history, entries, popped } = fakeWindow()
    const { calls, close } = closer()
    const stop = backToClose({ window: win, close })
    assert.equal(entries.length, 2)
    assert.equal(entries[1]?.url, entries[0]?.url)
    assert.equal((history.state as { page: string }).page, 'home')
    assert.equal(typeof (history.state as Record<string, unknown>)[ENTRY_KEY], 'string')

    history.back()
    await popped()
    assert.equal(calls.count, 1)
    assert.deepEqual(history.state, { page: 'home' })
    // Closed by the gesture: nothing left to take out (no second back, which would leave the page).
    stop()
    await new Promise((resolve) => setTimeout(resolve, 5))
    assert.deepEqual(history.state, { page: 'home' })
    assert.equal(win.location.href, 'https://site.example/shop?item=1')
  })

  it('behavior: closed another way, its entry is taken out and the page is where it was', async () => {
    const { win, history, popped, index } = fakeWindow()
    const { calls, close } = closer()
    const stop = backToClose({ window: win, close })
    assert.equal(index(), 1)
    const arrived = popped()
    stop()
    await arrived
    assert.equal(index(), 0)
    assert.deepEqual(history.state, { page: 'home' })
    assert.equal(calls.count, 0, 'the removal does not close anything again')
  })

  it('behavior: a route the page pushed while open keeps its URL when the dialog closes', async () => {
    const { win, history, index } = fakeWindow()
    const { close } = closer()
    const stop = backToClose({ window: win, close })
    history.pushState({ page: 'checkout' }, '', 'https://site.example/checkout')
    stop()
    await new Promise((resolve) => setTimeout(resolve, 5))
    assert.equal(win.location.href, 'https://site.example/checkout')
    assert.deepEqual(history.state, { page: 'checkout' })
    assert.equal(index(), 2)
  })

  it('behavior: back from the page route onto the dialog entry leaves it open; back again closes', async () => {
    const { win, history, popped } = fakeWindow()
    const { calls, close } = closer()
    const stop = backToClose({ window: win, close })
    history.pushState({ page: 'checkout' }, '', 'https://site.example/checkout')
    history.back()
    await popped()
    assert.equal(calls.count, 0)
    history.back()
    await popped()
    assert.equal(calls.count, 1)
    stop()
  })

  it('behavior: when the dialog may not close, back pushes the entry again and it stays', async () => {
    const { win, history, popped, index } = fakeWindow()
    const { calls, close } = closer()
    calls.refuse = true
    const stop = backToClose({ window: win, close })
    history.back()
    await popped()
    assert.equal(calls.count, 1)
    assert.equal(index(), 1, 'the entry is back')
    assert.equal(typeof (history.state as Record<string, unknown>)[ENTRY_KEY], 'string')
    calls.refuse = false
    history.back()
    await popped()
    assert.equal(calls.count, 2)
    stop()
  })

  it('behavior: reopened before the last entry is out, the new entry comes after its removal', async () => {
    const { win, history, popped, index } = fakeWindow()
    const { calls, close } = closer()
    const stopFirst = backToClose({ window: win, close })
    stopFirst()
    // Reopened at once: the removal (a popstate) has not arrived yet.
    const arrived = popped()
    const stopSecond = backToClose({ window: win, close })
    await arrived
    assert.equal(index(), 1, 'one entry of the dialog, after the page')
    assert.equal(calls.count, 0, 'the last removal did not close the reopened dialog')
    history.back()
    await popped()
    assert.equal(calls.count, 1)
    stopSecond()
  })
})
