#!/usr/bin/env bash
# Browser tests: a fresh portal (own data directory and port) started by Playwright with `npm start`'s script.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
export E2E_DATA_DIR="${E2E_DATA_DIR:-$PWD/.data-e2e}"
rm -rf "$E2E_DATA_DIR"
exec npx playwright test "$@"
