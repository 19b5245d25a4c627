#!/usr/bin/env bash
# `npm test`: lint, type-check, unit tests (PGlite, and PostgreSQL when TEST_DATABASE_URL is set), browser tests.
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
mkdir -p test-results
rm -f test-results/unit.json test-results/e2e.json
status=0
step() {
  echo
  echo "== $1"
  shift
  "$@" || status=1
}
step "lint" npx eslint --max-warnings=0 .
step "type-check" npx tsc --noEmit
step "unit tests" npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/unit.json
step "browser tests" bash scripts/e2e.sh
echo
node scripts/test-summary.mjs test-results/unit.json test-results/e2e.json || status=1
exit $status
