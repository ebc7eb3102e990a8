// The matcher lives in src/protocol so the embedded-wallet frame applies the same rules in the browser.
export {
  isOriginAllowed,
  isOriginPattern,
  normalizeOriginPattern,
  originMatches,
  originPatternWarning,
  sharedHostingSuffixes,
} from '../../src/protocol/origins.ts'
