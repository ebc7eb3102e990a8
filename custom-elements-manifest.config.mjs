// custom-elements.json is generated from elements/ (npm run manifest) and checked in CI: each
// element's JSDoc gives its events, CSS parts and custom properties; its attributes come from its
// table in elements/attribute-table.ts, through the plugin (scripts/manifestPlugin.ts, loaded with tsx).
import { tsImport } from 'tsx/esm/api'

const { attributeTablePlugin } = await tsImport('./scripts/manifestPlugin.ts', import.meta.url)

export default {
  globs: ['elements/wallet-*.ts'],
  outdir: '.',
  dev: false,
  plugins: [attributeTablePlugin()],
}
