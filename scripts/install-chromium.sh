#!/usr/bin/env bash
# Makes sure a Chromium exists for the browser and end-to-end tests (`npm run setup:browser`).
# Idempotent: does nothing when CHROME_PATH points at an executable or Debian's chromium is installed.
set -euo pipefail

if [[ -n "${CHROME_PATH:-}" && -x "${CHROME_PATH}" ]]; then
  echo "Chromium: using CHROME_PATH=${CHROME_PATH}"
  exit 0
fi
if [[ -n "${CHROME_PATH:-}" ]]; then
  echo "CHROME_PATH=${CHROME_PATH} is not an executable file; looking for /usr/bin/chromium instead." >&2
fi
if [[ -x /usr/bin/chromium ]]; then
  echo "Chromium: /usr/bin/chromium is installed"
  exit 0
fi

if [[ "$(id -u)" -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing chromium with apt-get..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends chromium
  echo "Chromium: installed at /usr/bin/chromium"
  exit 0
fi

cat >&2 <<'MSG'
No Chromium found, and this script can only install one as root on Debian/Ubuntu (apt-get).
Either install it yourself (sudo apt-get install -y --no-install-recommends chromium), or point the
tests at an existing Chrome/Chromium binary:

  export CHROME_PATH=/path/to/chrome
MSG
exit 1
