#!/usr/bin/env bash
# Browser tests drive Debian's Chromium (Playwright's own download cannot work here).
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "[e2e] Chromium is missing; installing Debian's chromium package…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "[e2e] Chromium was not found at $CHROMIUM." >&2
echo "[e2e] Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary." >&2
exit 1
