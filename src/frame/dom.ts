// The frame pages' small DOM helpers: elements with text children, and a site shown by its host.

/** A child of `h`: a node or a text; nothing for a falsy one. */
export type Child = Node | string | null | undefined | false

/** A DOM element with text children only (values never become markup). */
export function h(tag: string, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value)
  for (const child of children) if (child) element.append(child)
  return element
}

/** A site as the person reads it: its host (`shop.example`), or the text itself when not a URL. */
export function hostOf(site: string): string {
  try {
    return new URL(site).host
  } catch {
    return site
  }
}

/**
 * Focuses a view's heading without scrolling and shows the view from its top: the site, the heading and
 * the first row in view. The frame is 1 px wide and high until the modal lays it out, so a plain
 * `focus()` there scrolls the heading's middle into that pixel, and a long view (a permission) then
 * opens scrolled past its title.
 *
 * @example
 * root.replaceChildren(panel)
 * focusAtTop(title)
 */
export function focusAtTop(heading: HTMLElement): void {
  heading.focus({ preventScroll: true })
  for (let element = heading.parentElement; element; element = element.parentElement) element.scrollTop = 0
  heading.ownerDocument.scrollingElement?.scrollTo(0, 0)
}

/**
 * Focuses `target` (without scrolling) unless something else has the focus: a focus asked while the
 * frame was still hidden (before the modal laid it over its view) did not take, and is asked again
 * once the frame is shown or gets its size.
 *
 * @example
 * new ResizeObserver(() => focusIfUnclaimed(title)).observe(panel)
 */
export function focusIfUnclaimed(target: HTMLElement | undefined): void {
  const active = document.activeElement
  if (target?.isConnected && (!active || active === document.body)) target.focus({ preventScroll: true })
}
