/**
 * Escapes text for HTML (element content and quoted attribute values).
 *
 * @example
 * escapeHtml('<b>"hi"</b>') // '&#60;b&#62;&#34;hi&#34;&#60;/b&#62;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}
