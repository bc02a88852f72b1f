#!/usr/bin/env bash
# Runs PnPjs's own upstream test suite (test/sp/*.ts, v4 line) against a fresh spemu, in the
# default mode (the suite creates its own subweb) and with --site, and prints per-file results.
# Needs network once: the pnp/pnpjs source and `npm ci` in it (not part of CI; see README.md).
#
#   scripts/upstream-pnpjs/run.sh <pnpjs checkout> [out dir]
set -euo pipefail

CHECKOUT=$(cd "$1" && pwd)
OUT=${2:-$(mktemp -d /tmp/upstream-pnpjs-XXXXXX)}
HERE=$(cd "$(dirname "$0")" && pwd)
SPEMU=$(cd "$HERE/../.." && pwd)
PORT=${SPEMU_PORT:-8471}
RECEIVER_PORT=${RECEIVER_PORT:-8472}
UPN=${UPN:-alice@contoso.onmicrosoft.com}
SITE="http://127.0.0.1:$PORT/sites/dev"
DATA="$OUT/spemu-data"
mkdir -p "$OUT"

# spemu on a fresh workspace (the demo tenant), and the notification receiver.
(cd "$SPEMU" && exec node --import tsx src/cli/main.ts --port "$PORT" --data "$DATA" --reset --log-level "${SPEMU_LOG_LEVEL:-warn}") > "$OUT/spemu.log" 2>&1 &
SPEMU_PID=$!
node "$HERE/receiver.mjs" "$RECEIVER_PORT" > "$OUT/receiver.log" 2>&1 &
RECEIVER_PID=$!
trap 'kill $SPEMU_PID $RECEIVER_PID 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/_spemu/health" > /dev/null && break; sleep 0.2; done

export SPEMU_TOKEN
SPEMU_TOKEN=$(cd "$SPEMU" && node --import tsx src/cli/main.ts token --upn "$UPN" --data "$DATA" --expires 8h)

# Plumbing only: root hooks, settings.js, the JPEG asset. Then the suite's own build.
node "$HERE/prepare.mjs" "$CHECKOUT" "$SITE" "i:0#.f|membership|$UPN" "http://127.0.0.1:$RECEIVER_PORT/"
(cd "$CHECKOUT" && npx tsc -p test/tsconfig.json)

run() { # name, extra mocha args…
  local name=$1; shift
  (cd "$CHECKOUT" && npx mocha --noretries --reporter json --reporter-option "output=$OUT/$name.json" --packages sp "$@") > "$OUT/$name.log" 2>&1 || true
}
# Every test, to count those a failed before hook kept from running.
run all --dry-run
run default
run site --site "$SITE"

node "$HERE/summarize.mjs" "$OUT/all.json" "$OUT/default.json" "Default mode (the suite creates its own subweb)" > "$OUT/default.md"
node "$HERE/summarize.mjs" "$OUT/all.json" "$OUT/site.json" "--site $SITE" > "$OUT/site.md"
cat "$OUT/default.md" "$OUT/site.md"
echo "reports in $OUT"
