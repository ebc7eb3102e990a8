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
