import { setViewport } from '@web/test-runner-commands'
import axe from 'axe-core'
import { equal, frames } from './helpers.ts'

/** Waits until the modal's entrance animations are over (a half-faded panel has other colours). */
export async function settled(modal: HTMLElement) {
  const animations = modal.shadowRoot?.getAnimations() ?? []
  await Promise.all(
    animations
      .filter((animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
      .map((animation) => animation.finished.catch(() => undefined)),
  )
  await frames()
}

export const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: '375 px', width: 375, height: 667 },
] as const

/** Runs axe on the modal in both themes and both sizes; fails listing every violation. */
export async function sweep(modal: HTMLElement, view: string) {
  const found: string[] = []
  for (const theme of ['light', 'dark']) {
    modal.setAttribute('theme', theme)
    for (const size of SIZES) {
      await setViewport({ width: size.width, height: size.height })
      await settled(modal)
      const { violations } = await axe.run(modal, { resultTypes: ['violations'] })
      for (const violation of violations) {
        const where = violation.nodes.map((node) => node.target.join(' > ')).join(', ')
        found.push(`${view}, ${theme}, ${size.name}: ${violation.id} (${violation.help}) at ${where}`)
      }
    }
  }
  equal(found.join('\n'), '', 'axe violations')
}
