/** Design tokens; each becomes a `--wallet-<kebab-name>` custom property a page may set. */
export interface ThemeTokens {
  accent: string
  accentForeground: string
  background: string
  foreground: string
  muted: string
  surface: string
  surfaceHover: string
  border: string
  danger: string
  success: string
  overlay: string
  radius: string
  fontFamily: string
  fontSize: string
  zIndex: string
}

const shared = {
  accent: '#3b5bdb',
  accentForeground: '#ffffff',
  radius: '16px',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  fontSize: '16px',
  zIndex: '2147483000',
}

export const lightTokens: ThemeTokens = {
  ...shared,
  background: '#ffffff',
  foreground: '#141414',
  muted: '#5c5f66',
  surface: '#f1f3f5',
  surfaceHover: '#e6e8eb',
  border: '#dee2e6',
  danger: '#c92a2a',
  success: '#2b8a3e',
  overlay: 'rgba(0, 0, 0, 0.45)',
}

export const darkTokens: ThemeTokens = {
  ...shared,
  accent: '#748ffc',
  accentForeground: '#0b0d12',
  background: '#17181c',
  foreground: '#f1f3f5',
  muted: '#a6a7ab',
  surface: '#25262b',
  surfaceHover: '#2c2e33',
  border: '#373a40',
  danger: '#ff8787',
  success: '#69db7c',
  overlay: 'rgba(0, 0, 0, 0.65)',
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)

/**
 * Compiles a token set to private variables that read the public `--wallet-*` property first,
 * so a page's own `--wallet-accent: …` always wins over the theme's default.
 *
 * @example
 * themeToCss(darkTokens, { accent: '#e8590c' }) // '--_accent: var(--wallet-accent, #e8590c); …'
 */
export function themeToCss(tokens: ThemeTokens, overrides: Partial<ThemeTokens> = {}): string {
  return Object.entries({ ...tokens, ...overrides })
    .map(([name, value]) => `--_${kebab(name)}: var(--wallet-${kebab(name)}, ${value});`)
    .join('')
}
