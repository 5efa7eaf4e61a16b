#!/usr/bin/env bash
# Ferroshop checkout benchmark (see the "Checkout" section of bench/README.md).
#
# Builds the release server and bench/checkout, starts the shop with its demo
# catalogue on a free loopback port with a fresh SQLite database (then, if asked, on a
# fresh PostgreSQL schema) and measures, through the Store API:
#   1. orders placed per second: N carts (1,000), each its own Cart-Token session with
#      1-3 products and a Californian address, all checked out (cash on delivery) with
#      a fixed number of checkouts in flight (16, then 32);
#   2. the latency of POST /cart/update-customer at a fixed, paced rate (200 req/s for
#      10 s over 100 carts, the address alternating between California, New York and
#      Germany), measured from each request's due time.
# Prints a markdown table and writes it to bench/results/checkout-latest.md. Exits 0
# whether or not the targets are met; non-zero when the run broke or any measured
# request failed (the logs are then kept and their directory named).
#
# Usage: bench/run-checkout.sh [--postgres URL] [--no-build] [--carts N]
#                              [--concurrency LIST] [--rate N] [--duration SECS]
#                              [--latency-carts N]
#                              [--wait-quiet SECS]  (before the run and before each measured phase,
#                                                    wait up to SECS, default 60, for an idle machine)
# Environment: FERROSHOP_BENCH_POSTGRES_URL (same as --postgres)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
RESULTS_DIR="$BENCH_DIR/results"

# ---- settings ---------------------------------------------------------------------

PG_URL=${FERROSHOP_BENCH_POSTGRES_URL:-}
BUILD=1
CARTS=1000
CONCURRENCY=16,32
RATE=200
DURATION=10
LATENCY_CARTS=100
WAIT_QUIET=60

# Targets (release build, 2-core machine, load generator on the same machine).
TARGET_ORDERS=500
TARGET_P99_MS=15

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
}

die() {
  echo "bench: $*" >&2
  exit 1
}

while (($#)); do
  case $1 in
    --postgres) PG_URL=${2:?--postgres needs a URL}; shift 2 ;;
    --postgres=*) PG_URL=${1#*=}; shift ;;
    --no-build) BUILD=0; shift ;;
    --carts) CARTS=${2:?}; shift 2 ;;
    --concurrency) CONCURRENCY=${2:?}; shift 2 ;;
    --rate) RATE=${2:?}; shift 2 ;;
    --duration) DURATION=${2:?}; shift 2 ;;
    --latency-carts) LATENCY_CARTS=${2:?}; shift 2 ;;
    --wait-quiet) WAIT_QUIET=${2:?}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
  esac
done

for n in CARTS RATE DURATION LATENCY_CARTS WAIT_QUIET; do
  [[ ${!n} =~ ^[0-9]+$ ]] || die "--${n,,} must be a whole number"
done
[[ $CONCURRENCY =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "--concurrency must be a list like 16,32"
((CARTS >= 1 && RATE >= 1 && DURATION >= 1 && LATENCY_CARTS >= 1)) || die "bad load settings"

if [[ -n $PG_URL ]]; then
  command -v psql >/dev/null 2>&1 ||
    die "psql is missing: install it with 'sudo apt-get install -y postgresql-client' and run again"
  # The database must be on this machine, or the figures would measure a network.
  [[ $PG_URL =~ ^postgres(ql)?://([^@/]*@)?(\[[^]]*\]|[^:/?]*) ]] || die "--postgres: not a postgres:// URL"
  case ${BASH_REMATCH[3]} in
    127.0.0.1|localhost|\[::1\]) ;;
    *) die "--postgres: the database must be on this machine (127.0.0.1), not ${BASH_REMATCH[3]:-a socket}" ;;
  esac
fi

# ---- processes and clean-up ---------------------------------------------------------

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ferroshop-checkout-bench.XXXXXX")
SERVER_PID=""
PG_SCHEMA=""

stop_server() {
  [[ -n $SERVER_PID ]] || return 0
  local i
  kill -TERM "$SERVER_PID" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  stop_server
  if [[ -n $PG_SCHEMA ]]; then
    psql "$PG_URL" -X -q -v ON_ERROR_STOP=1 -c "DROP SCHEMA IF EXISTS $PG_SCHEMA CASCADE" >/dev/null 2>&1 ||
      echo "bench: could not drop the schema $PG_SCHEMA; drop it by hand" >&2
  fi
  if ((status == 0)); then
    rm -rf "$WORK"
  else
    echo "bench: failed; logs kept in $WORK" >&2
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Starts the shop in an empty directory (it reads ferroshop.toml from there), without
# the caller's FERROSHOP_* variables, and waits for the "... at http://ADDR/" line it
# prints once listening. Sets SERVER_PID and SERVER_ADDR.
start_server() { # dir database-url
  local dir=$1 db_url=$2 log="$1/server.log" i line v
  local -a server_env=(env)
  for v in $(compgen -e | grep '^FERROSHOP_' || true); do server_env+=(-u "$v"); done
  server_env+=(FERROSHOP_LOG=warn FERROSHOP_BIND=127.0.0.1:0 "FERROSHOP_DATABASE_URL=$db_url")
  (cd "$dir" && exec "${server_env[@]}" "$SERVER_BIN" serve --demo) >"$log" 2>&1 &
  SERVER_PID=$!
  for ((i = 0; i < 1200; i++)); do
    line=$(grep -m1 -oE 'at http://127\.0\.0\.1:[0-9]+' "$log" || true)
    if [[ -n $line ]]; then
      SERVER_ADDR=${line#at http://}
      return 0
    fi
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$log" >&2; die "the server exited before listening (log above)"; }
    sleep 0.1
  done
  cat "$log" >&2
  die "the server did not start listening within 120 s"
}

# ---- formatting ---------------------------------------------------------------------

# The value of KEY in a "BENCH key=value ..." line.
field() { # line key
  awk -v k="$2" '{ for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) { print substr($i, length(k) + 2); exit } }' <<<"$1"
}
thousands() { awk -v n="$1" 'BEGIN { n = sprintf("%.0f", n); s = ""; while (length(n) > 3) { s = "," substr(n, length(n) - 2) s; n = substr(n, 1, length(n) - 3) } print n s }'; }
met_min() { awk -v v="$1" -v t="$2" 'BEGIN { if (v >= t) print "**yes**"; else printf "**NO** (−%.0f%%)\n", 100 * (t - v) / t }'; }
# "yes" when the rest of the machine stayed under 10 % of its CPU before and during a run.
quiet_run() { # line
  awk -v b="$(field "$1" busy_before)" -v o="$(field "$1" cpu_other)" -v n="$(nproc)" \
    'BEGIN { if (b < 10 && o < 10 * n) print "yes"; else print "**no**: other work ran" }'
}
met_max() { awk -v v="$1" -v t="$2" 'BEGIN { if (v < t) print "**yes**"; else printf "**NO** (+%.0f%%)\n", 100 * (v - t) / t }'; }

# ---- build ----------------------------------------------------------------------------

if ((BUILD)); then
  echo "bench: building the release server and the checkout benchmark (cargo build --release)" >&2
  (cd "$ROOT" && cargo build --release --quiet -p ferroshop -p checkout-bench) || die "the build failed"
fi
TARGET_DIR=$(cd "$ROOT" && cargo metadata --format-version 1 --no-deps 2>/dev/null |
  sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p') || true
TARGET_DIR=${TARGET_DIR:-$ROOT/target}
SERVER_BIN="$TARGET_DIR/release/ferroshop"
BENCH_BIN="$TARGET_DIR/release/checkout-bench"
[[ -x $SERVER_BIN && -x $BENCH_BIN ]] || die "no release binaries in $TARGET_DIR/release (run without --no-build)"

# ---- one database ---------------------------------------------------------------------

CHECKOUT_ROWS=""
LATENCY_ROWS=""
declare -A BEST_ORDERS P99 FAILED
ANY_FAILED=0

bench_database() { # label database-url
  local label=$1 db_url=$2
  local dir="$WORK/$label"
  mkdir -p "$dir"
  echo "bench: [$label] starting the server" >&2
  start_server "$dir" "$db_url"
  local status=0
  "$BENCH_BIN" --base-url "http://$SERVER_ADDR" --server-pid "$SERVER_PID" --carts "$CARTS" \
    --concurrency "$CONCURRENCY" --rate "$RATE" --duration "$DURATION" \
    --latency-carts "$LATENCY_CARTS" --wait-quiet "$WAIT_QUIET" >"$dir/bench.out" || status=$?
  kill -0 "$SERVER_PID" 2>/dev/null || { tail -20 "$dir/server.log" >&2; die "[$label] the server died during the run"; }
  local hwm_kb
  hwm_kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$SERVER_PID/status")
  stop_server
  grep -q '^BENCH phase=update-customer' "$dir/bench.out" ||
    { tail -20 "$dir/server.log" >&2; die "[$label] the benchmark broke off (exit $status); server log above"; }
  ((status == 0)) || ANY_FAILED=1

  local line best=0 best_c=""
  while IFS= read -r line; do
    local ops
    ops=$(field "$line" orders_per_s)
    if awk -v a="$ops" -v b="$best" 'BEGIN { exit !(a > b) }'; then best=$ops; best_c=$(field "$line" concurrency); fi
  done < <(grep '^BENCH phase=checkout ' "$dir/bench.out")
  BEST_ORDERS[$label]=$best

  local failures=0
  while IFS= read -r line; do
    local c ops shown
    c=$(field "$line" concurrency); ops=$(field "$line" orders_per_s)
    shown="$(thousands "$ops")"
    [[ $c == "$best_c" ]] && shown="**$shown**"
    failures=$((failures + $(field "$line" failures)))
    CHECKOUT_ROWS+="| $label | $c | $shown | $(met_min "$ops" "$TARGET_ORDERS") | $(field "$line" elapsed_s) s"
    CHECKOUT_ROWS+=" | $(field "$line" p50_ms) / $(field "$line" p99_ms) / $(field "$line" max_ms) ms"
    CHECKOUT_ROWS+=" | $(field "$line" failures) of $(field "$line" carts)"
    CHECKOUT_ROWS+=" | $(field "$line" server_us_per_order) / $([[ $label == SQLite ]] && echo – || field "$line" db_us_per_order) µs"
    CHECKOUT_ROWS+=" | $(field "$line" cpu_server)% / $([[ $label == SQLite ]] && echo – || echo "$(field "$line" cpu_db)%")"
    CHECKOUT_ROWS+=" / $(field "$line" cpu_bench)% / $(field "$line" cpu_irq)% / $(field "$line" cpu_other)% | $(quiet_run "$line") |"$'\n'
  done < <(grep '^BENCH phase=checkout ' "$dir/bench.out")

  line=$(grep -m1 '^BENCH phase=update-customer ' "$dir/bench.out")
  P99[$label]=$(field "$line" p99_ms)
  failures=$((failures + $(field "$line" failures)))
  FAILED[$label]=$failures
  LATENCY_ROWS+="| $label | $(field "$line" rate) → $(field "$line" got_rate) req/s"
  LATENCY_ROWS+=" | $(field "$line" p50_ms) ms | **$(field "$line" p99_ms) ms** | $(field "$line" p999_ms) ms | $(field "$line" max_ms) ms"
  LATENCY_ROWS+=" | $(met_max "$(field "$line" p99_ms)" "$TARGET_P99_MS") | $(field "$line" failures) of $(field "$line" sent)"
  LATENCY_ROWS+=" | $(field "$line" late_sends) | $(field "$line" send_p99_ms) ms"
  LATENCY_ROWS+=" | $(field "$line" cpu_server)% / $([[ $label == SQLite ]] && echo – || echo "$(field "$line" cpu_db)%")"
  LATENCY_ROWS+=" / $(field "$line" cpu_bench)% / $(field "$line" cpu_irq)% / $(field "$line" cpu_other)% | $(quiet_run "$line") |"$'\n'

  MEMORY+="$label $(awk -v k="$hwm_kb" 'BEGIN { printf "%.1f", k / 1024 }') MB, "
  echo "bench: [$label] best $(thousands "$best") orders/s (concurrency $best_c); update-customer p99 ${P99[$label]} ms; $failures failed requests" >&2
}

# ---- run ------------------------------------------------------------------------------

# Share of the machine's CPU time that was busy over the next N seconds.
machine_busy_pct() { # seconds
  local a b
  a=$(awk '/^cpu /{ print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
  sleep "$1"
  b=$(awk '/^cpu /{ print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
  awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " "); t = y[2] - x[2]; printf "%.0f\n", (t > 0 ? 100 * (y[1] - x[1]) / t : 0) }'
}

# Others share this machine: wait (up to --wait-quiet seconds) until it is idle.
waited=0
busy=$(machine_busy_pct 3)
while ((busy > 10 && waited < WAIT_QUIET)); do
  ((waited == 0)) && echo "bench: the machine is busy (${busy}% of its CPU); waiting up to ${WAIT_QUIET} s for it to calm down" >&2
  busy=$(machine_busy_pct 5)
  waited=$((waited + 5))
done
QUIET_NOTE="The machine was idle before the run (${busy}% of its CPU in use)."
if ((busy > 10)); then
  QUIET_NOTE="**The machine was busy before the run (${busy}% of its CPU in use after waiting ${WAIT_QUIET} s): the figures are low; see the \"other\" CPU column.**"
  echo "bench: warning: the machine is busy (${busy}% of its CPU in use); the figures will be low. Busiest processes now:" >&2
  top -b -n 2 -d 1 -w 120 2>/dev/null | awk '/^top -/ { n++ } n == 2' | sed -n '7,12p' >&2 || true
fi
LOAD_BEFORE=$(uptime | sed 's/^ *//')
STARTED_AT=$(date -u '+%Y-%m-%d %H:%M UTC')
echo "bench: load before the run: $LOAD_BEFORE" >&2

MEMORY=""
LABELS=(SQLite)
bench_database SQLite "sqlite://$WORK/SQLite/shop.db"

if [[ -n $PG_URL ]]; then
  PG_SCHEMA="bench_checkout_$(date +%s)_$$"
  psql "$PG_URL" -X -q -v ON_ERROR_STOP=1 -c "CREATE SCHEMA $PG_SCHEMA" >/dev/null ||
    { PG_SCHEMA=""; die "could not create a schema in $PG_URL"; }
  sep='?'
  [[ $PG_URL == *\?* ]] && sep='&'
  bench_database PostgreSQL "${PG_URL}${sep}options=-c%20search_path%3D${PG_SCHEMA}"
  LABELS+=(PostgreSQL)
  psql "$PG_URL" -X -q -v ON_ERROR_STOP=1 -c "DROP SCHEMA $PG_SCHEMA CASCADE" >/dev/null 2>&1 && PG_SCHEMA=""
fi

LOAD_AFTER=$(uptime | sed 's/^ *//')
commit=$(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ $commit != unknown && -n $(cd "$ROOT" && git status --porcelain --untracked-files=normal -- . ':(exclude)bench' 2>/dev/null) ]]; then
  commit+=" (with uncommitted changes outside bench/)"
fi
cpu_model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
mem_total=$(awk '/^MemTotal:/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo)
built=$(date -u -r "$SERVER_BIN" '+%Y-%m-%d %H:%M UTC')
((BUILD)) || built+=", --no-build: may predate the tree"

summary_head="| Target |"
summary_sep="|---|"
summary_orders="| checkout ≥ $TARGET_ORDERS orders/s (best concurrency) |"
summary_p99="| update-customer p99 < $TARGET_P99_MS ms at $RATE req/s |"
summary_failed="| failed requests (must be 0) |"
for label in "${LABELS[@]}"; do
  summary_head+=" $label |"
  summary_sep+="---|"
  summary_orders+=" $(thousands "${BEST_ORDERS[$label]}"): $(met_min "${BEST_ORDERS[$label]}" "$TARGET_ORDERS") |"
  summary_p99+=" ${P99[$label]} ms: $(met_max "${P99[$label]}" "$TARGET_P99_MS") |"
  summary_failed+=" ${FAILED[$label]} |"
done

REPORT="## Ferroshop checkout benchmark — $STARTED_AT

Commit $commit; release build (server binary built $built). Machine: $(nproc) × ${cpu_model:-unknown CPU}, $mem_total RAM, Linux $(uname -r).
Load: bench/checkout (tokio + reqwest, HTTP/1.1 keep-alive) on the same machine, over 127.0.0.1. $QUIET_NOTE
uptime before: $LOAD_BEFORE
uptime after: $LOAD_AFTER

$summary_head
$summary_sep
$summary_orders
$summary_p99
$summary_failed

### Orders placed per second

$(thousands "$CARTS") carts, each its own Cart-Token session holding 1–3 simple products (one of each) and a billing address in San Francisco; all checked out with POST /checkout (billing and shipping address, cash on delivery), a fixed number in flight. Every answer must be 200 with status \"processing\".

| Database | In flight | Orders/s | ≥ $TARGET_ORDERS | Elapsed | Checkout p50 / p99 / max | Failed | CPU per order: server / db | CPU during the run: server / db / bench / softirq / other | Quiet? |
|---|---:|---:|:---:|---:|---:|---:|---:|---:|---:|
${CHECKOUT_ROWS}
### POST /cart/update-customer at a fixed rate

$RATE req/s for $DURATION s (after 2 s of warm-up), sent on schedule whatever the answers, over $LATENCY_CARTS carts with items; each cart's address alternates between San Francisco, New York and Berlin. Latency runs from the moment each request was due (so a stall delays no send and hides nothing) to the end of its answer.

| Database | Rate asked → got | p50 | p99 | p99.9 | max | p99 < $TARGET_P99_MS ms | Failed | Sent > 2 ms late | p99 from actual send | CPU during the run: server / db / bench / softirq / other | Quiet? |
|---|---:|---:|---:|---:|---:|:---:|---:|---:|---:|---:|---:|
${LATENCY_ROWS}
Server peak memory (VmHWM): ${MEMORY%, }.
CPU figures are % of one core (the machine has $(( $(nproc) * 100 ))%); \"other\" is the rest of the machine (other people's work): when it is well above 0 the figures are low. A run is \"quiet\" when less than 10% of the whole machine was in use in the second before it started (each run first waits up to $WAIT_QUIET s for that) and the rest of the machine used less than 10% of each core during it; figures from runs that were not quiet are low (throughput) or high (latency).
"

mkdir -p "$RESULTS_DIR"
printf '%s' "$REPORT" >"$RESULTS_DIR/checkout-latest.md"
printf '%s\n' "$REPORT"
echo "bench: written to ${RESULTS_DIR#"$ROOT/"}/checkout-latest.md" >&2
if ((ANY_FAILED)); then
  echo "bench: FAILED: some measured requests did not get the answer they should have (see the Failed columns and $WORK)" >&2
  exit 1
fi
