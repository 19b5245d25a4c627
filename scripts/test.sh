#!/usr/bin/env bash
# `npm test`: lint, type-check, unit tests (PGlite, and PostgreSQL when TEST_DATABASE_URL is set), browser tests,
# and the scale-out test (two portal instances on PostgreSQL; skipped, visibly, without TEST_DATABASE_URL).
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
mkdir -p test-results
rm -f test-results/unit.json test-results/e2e.json test-results/e2e-messaging.json test-results/conformance-messaging.json test-results/scale-out.json
status=0
step() {
  echo
  echo "== $1"
  shift
  "$@" || status=1
}
# The type-check runs beside the lint (each mostly one core); its output is printed after the lint's.
npx tsc --noEmit > test-results/type-check.log 2>&1 &
typecheck_pid=$!
step "lint" npx eslint --max-warnings=0 .
wait "$typecheck_pid"
typecheck_status=$?
step "type-check" bash -c 'cat test-results/type-check.log; exit "$1"' _ "$typecheck_status"
step "unit tests" npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/unit.json
step "browser tests" bash scripts/e2e.sh
# The core journeys again with the portal speaking the national exchange's messaging protocol
# (FHIR message Bundles to $process-message, polls instead of webhooks), decision 034.
step "browser tests, messaging protocol" env E2E_PLATFORM_PROTOCOL=messaging E2E_RUN_NAME=messaging E2E_DATA_DIR="$PWD/.data-e2e-messaging" \
  bash scripts/e2e.sh e2e/front-desk.spec.ts e2e/authorizations.spec.ts e2e/claims.spec.ts e2e/care-settings.spec.ts e2e/facilities.spec.ts \
  e2e/inbox.spec.ts e2e/advanced-authorizations.spec.ts e2e/visit-details.spec.ts e2e/prescriptions.spec.ts \
  e2e/authorization-changes.spec.ts e2e/evidence.spec.ts e2e/discovery.spec.ts e2e/newborn.spec.ts e2e/referral.spec.ts
# The exchange's rules on every message the portal sent in that run (the sandbox's tally, decision 092).
step "the exchange's rules on the messages sent" node --import tsx scripts/conformance-report.ts "$PWD/.data-e2e-messaging/sandbox/conformance.json" messaging
# Two instances from the browser tests' production build (not built again), PostgreSQL, the sandbox:
# shared quota, live events across instances, SIGTERM with requests in flight, kill -9 (decisions 069, 070).
step "scale-out test" node --import tsx scripts/scale-out.ts
echo
node scripts/test-summary.mjs test-results/unit.json test-results/e2e.json test-results/e2e-messaging.json test-results/conformance-messaging.json test-results/scale-out.json || status=1
exit $status
