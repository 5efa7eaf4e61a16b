#!/usr/bin/env bash
# Server-rendered pages (see bench/README.md, "Pages").
#
# Starts the release server on the demo catalogue (SQLite) and measures a product
# page at two connections (wrk -t1 -c2):
#   * cached: a visitor without a session, as crawlers and first visits are (the
#     page cache serves the render; the head, settings and session are made per
#     request) — throughput, and its share of the ceiling serving the same HTML;
#   * rendered: a shopper with a session (rendered for them every time) —
#     throughput and p99 latency at two connections as fast as they go (wrk -c2, the
#     target's measure), then p99 latency at half that rate (paced; on a machine
#     with two cores, idle cores waking up add to it);
# and the render engines' heap, from the server's own log of each render.
# Prints a markdown table and writes it to bench/results/pages.md.
#
# With --products N, the generated catalogue of bench/scale (N rows: products and
# variations) is imported over the demo shop first, and the page is measured at that
# size (the default page is then a product of the generated catalogue).
#
# Usage: bench/run-pages.sh [--no-build] [--duration SECS] [--page PATH] [--products N]
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
WRK_DIR="$BENCH_DIR/wrk"
RESULTS_DIR="$BENCH_DIR/results"

BUILD=1
DURATION=10
WARMUP=3
PAGE=""
PRODUCTS=0
TARGET_SHARE=50     # cached page, % of the ceiling
TARGET_P99_MS=25    # rendered page
TARGET_ENGINE_MB=64 # all engines together

while (($#)); do
  case $1 in
    --no-build) BUILD=0; shift ;;
    --duration) DURATION=${2:?}; shift 2 ;;
    --page) PAGE=${2:?}; shift 2 ;;
    --products) PRODUCTS=${2:?}; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench: unknown option $1" >&2; exit 2 ;;
  esac
done

die() { echo "bench: $*" >&2; exit 1; }
for tool in wrk curl jq; do
  command -v "$tool" >/dev/null || die "$tool is missing (apt-get install $tool)"
done

if ((BUILD)); then
  echo "bench: building the release server, the ceiling and the storefront" >&2
  (cd "$ROOT" && cargo build --release --quiet -p ferroshop -p ceiling) || die "the build failed"
  (cd "$ROOT/web" && npm run build >/dev/null) || die "the storefront did not build"
fi
SERVER_BIN="$ROOT/target/release/ferroshop"
CEILING_BIN="$ROOT/target/release/ceiling"
[[ -x $SERVER_BIN && -x $CEILING_BIN ]] || die "no release binaries (run without --no-build)"
[[ -f $ROOT/web/dist-server/server.js ]] || die "no server bundle (run without --no-build)"

WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

start() { # log command... -> sets PID and ADDR
  "${@:2}" >"$1" 2>&1 &
  PID=$!
  PIDS+=("$PID")
  for ((i = 0; i < 600; i++)); do
    ADDR=$(grep -m1 -oE '(at http://|listening on |on http://)127\.0\.0\.1:[0-9]+' "$1" | grep -oE '127\.0\.0\.1:[0-9]+' || true)
    [[ -n $ADDR ]] && return 0
    kill -0 "$PID" 2>/dev/null || { cat "$1" >&2; die "$2 exited"; }
    sleep 0.1
  done
  cat "$1" >&2
  die "$2 did not start"
}

# wrk at two connections; prints "requests_per_sec p99_us errors".
measure() { # url secs rate [env...]
  local url=$1 secs=$2 rate=$3
  shift 3
  local out="$WORK/wrk.txt"
  env BENCH_WRK_DIR="$WRK_DIR" BENCH_THREADS=1 BENCH_RATE="$rate" "$@" \
    wrk -t1 -c2 -d"${secs}s" --timeout 5s -s "$WRK_DIR/get.lua" "$url" >"$out" 2>&1 || { cat "$out" >&2; die "wrk failed"; }
  local line
  line=$(grep -m1 '^BENCH ' "$out") || { cat "$out" >&2; die "wrk printed no figures"; }
  declare -A r=()
  local kv
  for kv in ${line#BENCH }; do r[${kv%%=*}]=${kv#*=}; done
  echo "${r[rps]} ${r[p99_us]} $((${r[err_connect]} + ${r[err_read]} + ${r[err_write]} + ${r[err_timeout]} + ${r[err_status]}))"
}

echo "bench: starting the shop" >&2
mkdir -p "$WORK/shop"
# In an empty directory (the server reads ferroshop.toml from where it runs).
cd "$WORK/shop"
start "$WORK/server.log" env FERROSHOP_LOG=warn,ferroshop::shell=info,ferroshop::ssr=debug \
  FERROSHOP_WEB_DIR="$ROOT/web/dist" "$SERVER_BIN" serve --bind 127.0.0.1:0 \
  --database "sqlite://$WORK/shop/shop.db" --demo
cd "$ROOT"
SERVER_PID=$PID
BASE="http://$ADDR"
for ((i = 0; i < 100; i++)); do
  [[ $(curl -s -o /dev/null -w '%{http_code}' "$BASE/healthz" || true) == 200 ]] && break
  sleep 0.1
done
CATALOG="demo catalogue"
if ((PRODUCTS > 0)); then
  echo "bench: importing $PRODUCTS generated catalogue rows" >&2
  python3 "$BENCH_DIR/scale/make-catalog.py" "$PRODUCTS" >"$WORK/catalog.csv"
  (cd "$WORK/shop" && env FERROSHOP_LOG=warn "$SERVER_BIN" products import "$WORK/catalog.csv" \
    --database "sqlite://$WORK/shop/shop.db") >"$WORK/import.log" 2>&1 || { tail -20 "$WORK/import.log" >&2; die "the import failed"; }
  # The running server takes the new catalogue on its next look at the database.
  for ((i = 0; i < 300; i++)); do
    total=$(curl -s -D - -o /dev/null "$BASE/wp-json/wc/store/v1/products?per_page=1" | awk -F': ' 'tolower($1) == "x-wp-total" { print $2 + 0 }')
    ((${total:-0} > 1000)) && break
    sleep 0.2
  done
  ((${total:-0} > 1000)) || die "the server does not list the imported catalogue"
  CATALOG="$total products listed"
  [[ -n $PAGE ]] || PAGE=$(curl -sS "$BASE/wp-json/wc/store/v1/products?per_page=1&orderby=date&order=desc" | jq -r '.[0].permalink' | sed -E 's#^https?://[^/]+##')
fi
if [[ -z $PAGE ]]; then
  PAGE=$(curl -sS "$BASE/wp-json/wc/store/v1/products?per_page=1" | jq -r '.[0].permalink' | sed -E 's#^https?://[^/]+##')
fi
URL="$BASE$PAGE"

# A session: the cookie a shopper's browser sends back.
COOKIE=$(curl -sS -D - -o /dev/null "$URL" | awk 'tolower($1) == "set-cookie:" { sub(/\r$/, ""); split($2, kv, ";"); print kv[1] }' | paste -sd ';' -)
[[ -n $COOKIE ]] || die "the page set no session cookie"

curl -sS -o "$WORK/page.html" "$URL"
grep -q 'id="ferroshop-state"' "$WORK/page.html" || die "the page was not rendered on the server (see $WORK/server.log)"
echo "bench: ceiling (the same HTML from a server that does nothing else)" >&2
start "$WORK/ceiling.log" "$CEILING_BIN" --bind 127.0.0.1:0 --body "$WORK/page.html" --content-type "text/html; charset=utf-8"
CEILING_URL="http://$ADDR$PAGE"

measure "$CEILING_URL" "$WARMUP" 0 >/dev/null
read -r ceiling_rps _ _ < <(measure "$CEILING_URL" "$DURATION" 0)
echo "bench: cached page" >&2
measure "$URL" "$WARMUP" 0 >/dev/null
read -r cached_rps cached_p99 cached_err < <(measure "$URL" "$DURATION" 0)
echo "bench: rendered page (a shopper with a session)" >&2
measure "$URL" "$WARMUP" 0 BENCH_COOKIE="$COOKIE" >/dev/null
read -r rendered_rps rendered_c2_p99 rendered_err < <(measure "$URL" "$DURATION" 0 BENCH_COOKIE="$COOKIE")
half=$(awk -v r="$rendered_rps" 'BEGIN { printf "%d", r / 2 }')
read -r _ rendered_p99 _ < <(measure "$URL" "$DURATION" "$half" BENCH_COOKIE="$COOKIE")

# The log's fields, without its colours.
sed -E 's/\x1b\[[0-9;]*m//g' "$WORK/server.log" >"$WORK/server.txt"
engine_kb=$(grep -oE 'engine_kb=[0-9]+' "$WORK/server.txt" | cut -d= -f2 | sort -n | tail -1 || true)
engines=$(grep -oE 'engines=[0-9]+' "$WORK/server.txt" | head -1 | cut -d= -f2 || true)
rss_mb=$(awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$SERVER_PID/status")
renders=$(grep -c 'page rendered' "$WORK/server.txt" || true)

share=$(awk -v a="$cached_rps" -v b="$ceiling_rps" 'BEGIN { printf "%.0f", 100 * a / b }')
p99_ms=$(awk -v us="$rendered_c2_p99" 'BEGIN { printf "%.1f", us / 1000 }')
half_p99_ms=$(awk -v us="$rendered_p99" 'BEGIN { printf "%.1f", us / 1000 }')
engine_mb=$(awk -v kb="${engine_kb:-0}" -v n="${engines:-1}" 'BEGIN { printf "%.1f", kb * n / 1024 }')
yes() { if awk "BEGIN { exit !($1) }"; then echo "**yes**"; else echo "**NO**"; fi; }

mkdir -p "$RESULTS_DIR"
{
  echo "Pages, $PAGE ($CATALOG), wrk -t1 -c2, ${DURATION} s ($(nproc) cores, $(date -u +%Y-%m-%d))"
  echo
  echo "| | figure | target | met |"
  echo "|---|---|---|---|"
  echo "| ceiling (same HTML) | $(printf '%.0f' "$ceiling_rps") req/s | | |"
  echo "| cached page (no session) | $(printf '%.0f' "$cached_rps") req/s = ${share} % of the ceiling | ≥ ${TARGET_SHARE} % | $(yes "$share >= $TARGET_SHARE") |"
  echo "| rendered page (a shopper's session) | $(printf '%.0f' "$rendered_rps") req/s | | |"
  echo "| rendered page, p99 at wrk -c2 | ${p99_ms} ms | < ${TARGET_P99_MS} ms | $(yes "$p99_ms < $TARGET_P99_MS") |"
  echo "| rendered page, p99 paced at half that rate ($half req/s) | ${half_p99_ms} ms | | |"
  echo "| render engines' heap (largest seen × ${engines:-?} engines) | ${engine_mb} MB | ≤ ${TARGET_ENGINE_MB} MB | $(yes "$engine_mb <= $TARGET_ENGINE_MB") |"
  echo "| server peak RSS | ${rss_mb} MB | | |"
  echo
  echo "Errors: cached $cached_err, rendered $rendered_err; renders logged: $renders."
} | tee "$RESULTS_DIR/pages.md"
