// Where the modal lays the wallet frame (src/ui/hooks/useFrameOverlay.ts `visiblePart`): over what the
// person sees of its view, so the frame's Approve bar is never under a phone's keyboard or home indicator.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { visiblePart } from '../../../src/ui/hooks/useFrameOverlay.ts'

/** The approval's room in a phone's bottom sheet (layout-viewport coordinates, 844 px high). */
const area = { top: 120, bottom: 780 }

describe('visiblePart', () => {
  it('default: nothing hides the view: the frame covers it all', () => {
    assert.deepEqual(visiblePart(area, { offsetTop: 0, height: 844, scale: 1 }), { top: 120, height: 660 })
    assert.deepEqual(visiblePart(area, undefined), { top: 120, height: 660 })
  })

  it('behavior: an on-screen keyboard (the visual viewport 500 px high): the frame ends above it', () => {
    assert.deepEqual(visiblePart(area, { offsetTop: 0, height: 500, scale: 1 }), { top: 120, height: 380 })
  })

  it('behavior: the visual viewport panned down to a focused field: the frame starts at its top', () => {
    assert.deepEqual(visiblePart(area, { offsetTop: 200, height: 400, scale: 1 }), { top: 200, height: 400 })
  })

  it('behavior: the safe area below (the home indicator) is left out', () => {
    assert.deepEqual(visiblePart(area, { offsetTop: 0, height: 844, scale: 1 }, 18), {
      top: 120,
      height: 642,
    })
  })

  it('behavior: a pinch-zoomed page is left as it is (the frame would reflow at each pan)', () => {
    assert.deepEqual(visiblePart(area, { offsetTop: 300, height: 200, scale: 2 }), { top: 120, height: 660 })
  })

  it('error: a view scrolled wholly out of sight gets no height, never a negative one', () => {
    assert.deepEqual(visiblePart({ top: 900, bottom: 1200 }, { offsetTop: 0, height: 844, scale: 1 }), {
      top: 900,
      height: 0,
    })
  })
})
