const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/** Focusable elements in order, descending into open shadow roots of nested custom elements. */
export function focusableIn(root: Element | ShadowRoot): HTMLElement[] {
  const found: HTMLElement[] = []
  const walk = (node: Element | ShadowRoot) => {
    for (const child of node.children) {
      if (
        child instanceof HTMLElement &&
        child.matches(FOCUSABLE) &&
        !child.hidden &&
        child.getClientRects().length > 0
      ) {
        found.push(child)
      }
      if (child.shadowRoot) walk(child.shadowRoot)
      walk(child)
    }
  }
  walk(root)
  return found
}
