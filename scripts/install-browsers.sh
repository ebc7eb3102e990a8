#!/usr/bin/env bash
# Makes sure the browsers the suites drive exist. `npm test` runs it first (its pretest), so a fresh
# machine needs no extra command: as root with apt it installs what is missing from Debian.
# - Chromium (browser, end-to-end, package and size checks) is required: without it and without apt,
#   the script stops with one line saying what to do. CHROME_PATH overrides /usr/bin/chromium.
# - Firefox ESR (the Firefox end-to-end test, over WebDriver BiDi) and WebKit (Debian's
#   WebKitWebDriver with its MiniBrowser, package webkit2gtk-driver, run under Xvfb, package xvfb,
#   with a window manager, package matchbox-window-manager) are
#   required in CI (CI=true), where the script stops when it cannot install them. Locally they are
#   optional: without them their tests skip with a line saying why. FIREFOX_PATH overrides
#   /usr/bin/firefox-esr; WEBKIT_DRIVER_PATH, WEBKIT_BROWSER_PATH, XVFB_PATH and WINDOW_MANAGER_PATH
#   override WebKit's.
set -uo pipefail

# ensure LABEL PACKAGE DEBIAN_PATH OVERRIDE_NAME OVERRIDE_VALUE REQUIRED MISSING_LINE
# Answers 0 when the browser is there (or was installed), 1 when it is not.
ensure() {
  local label="$1" package="$2" debian_path="$3" override_name="$4" override="$5" required="$6" missing="$7"
  if [[ -n "${override}" && -x "${override}" ]]; then
    echo "${label}: using ${override_name}=${override}"
    return 0
  fi
  if [[ -n "${override}" ]]; then
    echo "${override_name}=${override} is not an executable file; looking for ${debian_path} instead." >&2
  fi
  if [[ -x "${debian_path}" ]]; then
    echo "${label}: ${debian_path} is installed"
    return 0
  fi
  if [[ "$(id -u)" -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing ${package} with apt-get..."
    if DEBIAN_FRONTEND=noninteractive apt-get update &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${package}"; then
      echo "${label}: installed at ${debian_path}"
      return 0
    fi
  fi
  echo "${missing}" >&2
  [[ "${required}" == optional ]]
}

ensure Chromium chromium "${CHROMIUM_DEFAULT_PATH:-/usr/bin/chromium}" CHROME_PATH "${CHROME_PATH:-}" required \
  'No Chromium found: install it (sudo apt-get install -y --no-install-recommends chromium) or set CHROME_PATH=/path/to/chrome, then run npm test again.' ||
  exit 1
engines=optional
[[ "${CI:-}" == true ]] && engines=required
ensure Firefox firefox-esr "${FIREFOX_DEFAULT_PATH:-/usr/bin/firefox-esr}" FIREFOX_PATH "${FIREFOX_PATH:-}" "${engines}" \
  'No Firefox found: the Firefox test will skip (CI fails). Install it (sudo apt-get install -y --no-install-recommends firefox-esr) or set FIREFOX_PATH=/path/to/firefox.' ||
  exit 1
ensure WebKitWebDriver webkit2gtk-driver "${WEBKIT_DRIVER_DEFAULT_PATH:-/usr/bin/WebKitWebDriver}" WEBKIT_DRIVER_PATH "${WEBKIT_DRIVER_PATH:-}" "${engines}" \
  'No WebKitWebDriver found: the WebKit test will skip (CI fails). Install it (sudo apt-get install -y --no-install-recommends webkit2gtk-driver) or set WEBKIT_DRIVER_PATH.' ||
  exit 1
ensure Xvfb xvfb "${XVFB_DEFAULT_PATH:-/usr/bin/Xvfb}" XVFB_PATH "${XVFB_PATH:-}" "${engines}" \
  'No Xvfb found: the WebKit test will skip (CI fails). Install it (sudo apt-get install -y --no-install-recommends xvfb) or set XVFB_PATH.' ||
  exit 1
# A window manager on that display, as on a desktop: it gives the approval window a page opens the focus.
ensure matchbox matchbox-window-manager "${WINDOW_MANAGER_DEFAULT_PATH:-/usr/bin/matchbox-window-manager}" WINDOW_MANAGER_PATH "${WINDOW_MANAGER_PATH:-}" "${engines}" \
  'No matchbox-window-manager found: the WebKit test will skip (CI fails). Install it (sudo apt-get install -y --no-install-recommends matchbox-window-manager) or set WINDOW_MANAGER_PATH.' ||
  exit 1
exit 0
