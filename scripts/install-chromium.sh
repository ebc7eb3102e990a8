#!/usr/bin/env bash
# Makes sure a Chromium exists for the browser, end-to-end, package and size checks. `npm test` runs
# it first (its pretest), so a fresh machine needs no extra command: as root with apt it installs
# Debian's chromium, otherwise it stops with one line saying what to do. Does nothing when
# CHROME_PATH points at an executable or the chromium is installed.
set -euo pipefail

# Where Debian puts chromium (and where the tests look without CHROME_PATH); its own test moves it.
debian_chromium="${CHROMIUM_DEFAULT_PATH:-/usr/bin/chromium}"

if [[ -n "${CHROME_PATH:-}" && -x "${CHROME_PATH}" ]]; then
  echo "Chromium: using CHROME_PATH=${CHROME_PATH}"
  exit 0
fi
if [[ -n "${CHROME_PATH:-}" ]]; then
  echo "CHROME_PATH=${CHROME_PATH} is not an executable file; looking for ${debian_chromium} instead." >&2
fi
if [[ -x "${debian_chromium}" ]]; then
  echo "Chromium: ${debian_chromium} is installed"
  exit 0
fi

if [[ "$(id -u)" -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing chromium with apt-get..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends chromium
  echo "Chromium: installed at ${debian_chromium}"
  exit 0
fi

echo "No Chromium found: install it (sudo apt-get install -y --no-install-recommends chromium) or set CHROME_PATH=/path/to/chrome, then run npm test again." >&2
exit 1
