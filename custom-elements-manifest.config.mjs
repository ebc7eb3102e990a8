// custom-elements.json is generated from the JSDoc of elements/ (npm run manifest) and checked in CI.
export default {
  globs: ['elements/wallet-*.ts'],
  outdir: '.',
  dev: false,
}
