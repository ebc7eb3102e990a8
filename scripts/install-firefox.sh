#!/usr/bin/env bash
# Makes sure a Firefox exists for the Firefox end-to-end test (test/e2e/embedded-firefox.test.ts,
# driven over WebDriver BiDi). `npm test` runs it after install-chromium.sh (its pretest): as root with
# apt it installs Debian's firefox-esr. Unlike Chromium, Firefox is optional: without it the Firefox
# test skips with a line saying why, so this script never fails the run. Does nothing when
# FIREFOX_PATH points at an executable or firefox-esr is installed.
set -uo pipefail

debian_firefox="${FIREFOX_DEFAULT_PATH:-/usr/bin/firefox-esr}"

if [[ -n "${FIREFOX_PATH:-}" && -x "${FIREFOX_PATH}" ]]; then
  echo "Firefox: using FIREFOX_PATH=${FIREFOX_PATH}"
  exit 0
fi
if [[ -x "${debian_firefox}" ]]; then
  echo "Firefox: ${debian_firefox} is installed"
  exit 0
fi

if [[ "$(id -u)" -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing firefox-esr with apt-get..."
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update && apt-get install -y --no-install-recommends firefox-esr; then
    echo "Firefox: installed at ${debian_firefox}"
    exit 0
  fi
fi

echo "No Firefox found: the Firefox test will skip. Install it (sudo apt-get install -y --no-install-recommends firefox-esr) or set FIREFOX_PATH=/path/to/firefox." >&2
exit 0
