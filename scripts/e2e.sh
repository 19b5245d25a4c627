#!/usr/bin/env bash
# Browser tests: a fresh portal (own data directory and port) started by Playwright with `npm start`'s script.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
export E2E_DATA_DIR="${E2E_DATA_DIR:-$PWD/.data-e2e}"
# One browser-test run at a time per checkout: runs share the port, the data directory and .next.
LOCK="${TMPDIR:-/tmp}/clinic-exchange-e2e-$(printf '%s' "$PWD" | cksum | cut -d' ' -f1).lock"
run() {
  rm -rf "$E2E_DATA_DIR"
  # Build first (when the sources changed): Playwright's web-server timeout then covers only the start.
  node --import tsx scripts/start.ts --build-only
  npx playwright test "$@"
}
if command -v flock >/dev/null; then
  exec 9>"$LOCK"
  flock 9
fi
run "$@"
