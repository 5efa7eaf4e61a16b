#!/usr/bin/env bash
# Ferroshop card payment benchmark (see the "Payments" section of bench/README.md).
#
# Builds the release server and bench/payments, starts the provider's emulator
# (scripts/payment-emulator.py) and the shop with its demo catalogue on free loopback
# ports, with a fresh SQLite database (then, if asked, a fresh PostgreSQL schema), and
# measures:
#   1. POST /?wc-ajax=wc_stripe_create_payment_intent, the classic call the payment page
#      makes for an order: p50/p99 and calls per second with a fixed number in flight
#      (1, then 4), each on N orders (300) whose card was declined at checkout;
#   2. signed payment_intent.succeeded events at POST /?wc-api=wc_stripe, one per order
#      paid above, 8 in flight: events per second; then every event delivered again.
#      Every order must end processing, with one status-change note and one set of mails,
#      and every duplicate must be acknowledged (200) without a second change.
# Each shopper session sends its own X-Forwarded-For address and each order its own
# billing e-mail, as a load balancer presents shoppers (payment attempts are limited per
# client address and per payer e-mail).
# Prints a markdown table and writes it to bench/results/payments-latest.md. Exits 0
# when every request and order ended as it should; non-zero when the run broke or one
# did not (the logs are then kept and their directory named).
#
# Usage: bench/run-payments.sh [--postgres URL] [--no-build] [--orders N]
#                              [--concurrency LIST] [--webhook-concurrency N]
#                              [--wait-quiet SECS]  (before the run and before each measured phase,
#                                                    wait up to SECS, default 60, for an idle machine)
# Environment: FERROSHOP_BENCH_POSTGRES_URL (same as --postgres)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
RESULTS_DIR="$BENCH_DIR/results"
PYTHON="$ROOT/.venv/bin/python"

# ---- settings ---------------------------------------------------------------------

PG_URL=${FERROSHOP_BENCH_POSTGRES_URL:-}
BUILD=1
ORDERS=300
CONCURRENCY=1,4
WEBHOOK_CONCURRENCY=8
WAIT_QUIET=60

# The shop's keys for the emulator (test mode: the emulator takes any) and the webhook
# endpoint's secret, which the load program signs with.
PUBLISHABLE_KEY=pk_test_bench
SECRET_KEY=sk_test_bench
WEBHOOK_SECRET=whsec_bench

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
    --orders) ORDERS=${2:?}; shift 2 ;;
    --concurrency) CONCURRENCY=${2:?}; shift 2 ;;
    --webhook-concurrency) WEBHOOK_CONCURRENCY=${2:?}; shift 2 ;;
    --wait-quiet) WAIT_QUIET=${2:?}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
  esac
done

for n in ORDERS WEBHOOK_CONCURRENCY WAIT_QUIET; do
  [[ ${!n} =~ ^[0-9]+$ ]] || die "--${n,,} must be a whole number"
done
[[ $CONCURRENCY =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "--concurrency must be a list like 1,4"
((ORDERS >= 1 && WEBHOOK_CONCURRENCY >= 1)) || die "bad load settings"

# The emulator runs on the tests' Python tools.
[[ -x $PYTHON ]] ||
  die "the provider's emulator needs the tests' Python tools and $ROOT/.venv is missing: run ./scripts/ensure-python-tools, then run this again"
"$PYTHON" -c 'import aiohttp, localstripe' >/dev/null 2>&1 ||
  die "the provider's emulator needs localstripe, which $ROOT/.venv lacks: run ./scripts/ensure-python-tools, then run this again"
# The exactly-once check reads the shop's database.
command -v sqlite3 >/dev/null 2>&1 ||
  die "sqlite3 is missing (the exactly-once check reads the shop's database): install it with 'sudo apt-get install -y sqlite3' and run again"
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

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ferroshop-payments-bench.XXXXXX")
SERVER_PID=""
EMULATOR_PID=""
EMULATOR_STDIN=""
PG_SCHEMA=""

stop_process() { # pid
  local pid=$1 i
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

stop_server() {
  [[ -n $SERVER_PID ]] || return 0
  stop_process "$SERVER_PID"
  SERVER_PID=""
}

stop_emulator() {
  if [[ -n $EMULATOR_STDIN ]]; then
    exec {EMULATOR_STDIN}>&-
    EMULATOR_STDIN=""
  fi
  [[ -n $EMULATOR_PID ]] || return 0
  stop_process "$EMULATOR_PID"
  EMULATOR_PID=""
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  stop_server
  stop_emulator
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

# Starts the provider's emulator on a free port, its standard input a pipe this script
# holds open: however the script ends, the pipe closes and the emulator stops with it
# (--exit-with-stdin). Sets EMULATOR_PID and EMULATOR_URL.
start_emulator() { # dir
  local dir=$1 log="$1/emulator.log" stdin="$1/emulator.stdin" i line
  mkfifo "$stdin"
  : >"$log"
  "$PYTHON" "$ROOT/scripts/payment-emulator.py" --port 0 --exit-with-stdin <"$stdin" >"$log" 2>&1 &
  EMULATOR_PID=$!
  # Opening the pipe's other end lets the emulator's own open go ahead.
  exec {EMULATOR_STDIN}>"$stdin"
  for ((i = 0; i < 300; i++)); do
    line=$(grep -m1 -oE 'listening on http://127\.0\.0\.1:[0-9]+' "$log" || true)
    if [[ -n $line ]]; then
      EMULATOR_URL=${line#listening on }
      return 0
    fi
    kill -0 "$EMULATOR_PID" 2>/dev/null || { cat "$log" >&2; die "the emulator exited before listening (log above)"; }
    sleep 0.1
  done
  cat "$log" >&2
  die "the emulator did not start listening within 30 s"
}

# Starts the shop in an empty directory (it reads ferroshop.toml from there), without
# the caller's FERROSHOP_* variables, connected to the emulator and trusting
# X-Forwarded-For as from its own load balancer, and waits for the "... at
# http://ADDR/" line it prints once listening. Sets SERVER_PID and SERVER_ADDR.
start_server() { # dir database-url
  local dir=$1 db_url=$2 log="$1/server.log" i line v
  local -a server_env=(env)
  for v in $(compgen -e | grep '^FERROSHOP_' || true); do server_env+=(-u "$v"); done
  server_env+=(FERROSHOP_LOG=warn FERROSHOP_BIND=127.0.0.1:0 "FERROSHOP_DATABASE_URL=$db_url")
  server_env+=("FERROSHOP_STRIPE_PUBLISHABLE_KEY=$PUBLISHABLE_KEY" "FERROSHOP_STRIPE_SECRET_KEY=$SECRET_KEY")
  server_env+=("FERROSHOP_STRIPE_WEBHOOK_SECRET=$WEBHOOK_SECRET" "FERROSHOP_STRIPE_API_BASE=$EMULATOR_URL")
  server_env+=(FERROSHOP_TRUST_PROXY=yes)
  : >"$log"
  # The server must not hold the emulator's pipe open.
  (cd "$dir" && exec "${server_env[@]}" "$SERVER_BIN" serve --demo) >"$log" 2>&1 {EMULATOR_STDIN}>&- &
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

# What the database says of the benchmark's orders once the server has stopped: how
# many there are and are processing, how many have other than exactly one "… to
# Processing." note or other than exactly one customer "processing" mail (each order
# has its payer's own address), the shop's new-order mails, and the events recorded.
# One line, fields separated by "|".
ONCE_SQL="SELECT
  (SELECT count(*) FROM orders),
  (SELECT count(*) FROM orders WHERE status = 'processing'),
  (SELECT count(*) FROM orders o WHERE (SELECT count(*) FROM order_notes n
     WHERE n.order_id = o.id AND n.note LIKE '%to Processing.') <> 1),
  (SELECT count(*) FROM orders o WHERE (SELECT count(*) FROM mail_outbox m
     WHERE m.recipient = o.billing_email AND m.kind = 'customer_processing_order') <> 1),
  (SELECT count(*) FROM mail_outbox WHERE kind = 'new_order'),
  (SELECT count(*) FROM payment_events WHERE event_type = 'payment_intent.succeeded')"

# ---- formatting ---------------------------------------------------------------------

# The value of KEY in a "BENCH key=value ..." line.
field() { # line key
  awk -v k="$2" '{ for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) { print substr($i, length(k) + 2); exit } }' <<<"$1"
}
thousands() { awk -v n="$1" 'BEGIN { n = sprintf("%.0f", n); s = ""; while (length(n) > 3) { s = "," substr(n, length(n) - 2) s; n = substr(n, 1, length(n) - 3) } print n s }'; }
# "yes" when the rest of the machine stayed under 10 % of its CPU before and during a run.
quiet_run() { # line
  awk -v b="$(field "$1" busy_before)" -v o="$(field "$1" cpu_other)" -v n="$(nproc)" \
    'BEGIN { if (b < 10 && o < 10 * n) print "yes"; else print "**no**: other work ran" }'
}
yes_no() { if (($1)); then echo "**yes**"; else echo "**NO**"; fi; }

# ---- build ----------------------------------------------------------------------------

if ((BUILD)); then
  echo "bench: building the release server and the payments benchmark (cargo build --release)" >&2
  (cd "$ROOT" && cargo build --release --quiet -p ferroshop -p payments-bench) || die "the build failed"
fi
TARGET_DIR=$(cd "$ROOT" && cargo metadata --format-version 1 --no-deps 2>/dev/null |
  sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p') || true
TARGET_DIR=${TARGET_DIR:-$ROOT/target}
SERVER_BIN="$TARGET_DIR/release/ferroshop"
BENCH_BIN="$TARGET_DIR/release/payments-bench"
[[ -x $SERVER_BIN && -x $BENCH_BIN ]] || die "no release binaries in $TARGET_DIR/release (run without --no-build)"

# ---- one database ---------------------------------------------------------------------

INTENT_ROWS=""
WEBHOOK_ROWS=""
ONCE_ROWS=""
MEMORY=""
declare -A SUMMARY
ANY_FAILED=0

bench_database() { # label database-url
  local label=$1 db_url=$2
  local dir="$WORK/$label"
  mkdir -p "$dir"
  echo "bench: [$label] starting the emulator and the server" >&2
  start_emulator "$dir"
  start_server "$dir" "$db_url"
  local status=0
  "$BENCH_BIN" --base-url "http://$SERVER_ADDR" --server-pid "$SERVER_PID" --emulator-pid "$EMULATOR_PID" \
    --orders "$ORDERS" --concurrency "$CONCURRENCY" --webhook-concurrency "$WEBHOOK_CONCURRENCY" \
    --webhook-secret "$WEBHOOK_SECRET" --wait-quiet "$WAIT_QUIET" >"$dir/bench.out" {EMULATOR_STDIN}>&- || status=$?
  kill -0 "$SERVER_PID" 2>/dev/null || { tail -20 "$dir/server.log" >&2; die "[$label] the server died during the run"; }
  kill -0 "$EMULATOR_PID" 2>/dev/null || { tail -20 "$dir/emulator.log" >&2; die "[$label] the emulator died during the run"; }
  local hwm_kb
  hwm_kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$SERVER_PID/status")
  stop_server
  stop_emulator
  grep -q '^BENCH phase=webhook delivery=again ' "$dir/bench.out" ||
    { tail -20 "$dir/server.log" >&2; die "[$label] the benchmark broke off (exit $status); server log above"; }
  ((status == 0)) || ANY_FAILED=1

  local line cpu_db="–"
  while IFS= read -r line; do
    [[ $label == SQLite ]] || cpu_db="$(field "$line" cpu_db)%"
    INTENT_ROWS+="| $label | $(field "$line" concurrency) | $(field "$line" created) of $(field "$line" orders)"
    INTENT_ROWS+=" | **$(thousands "$(field "$line" calls_per_s)")** | $(field "$line" elapsed_s) s"
    INTENT_ROWS+=" | $(field "$line" p50_ms) / $(field "$line" p90_ms) / **$(field "$line" p99_ms)** / $(field "$line" max_ms) ms"
    INTENT_ROWS+=" | $(field "$line" failures)"
    INTENT_ROWS+=" | $(field "$line" server_us_per) / $(field "$line" emulator_us_per) / $([[ $label == SQLite ]] && echo – || field "$line" db_us_per) µs"
    INTENT_ROWS+=" | $(field "$line" cpu_server)% / $cpu_db / $(field "$line" cpu_emulator)% / $(field "$line" cpu_bench)%"
    INTENT_ROWS+=" / $(field "$line" cpu_irq)% / $(field "$line" cpu_other)% | $(quiet_run "$line") |"$'\n'
    SUMMARY[$label,intent,$(field "$line" concurrency)]="$(field "$line" p50_ms) / $(field "$line" p99_ms) ms, $(thousands "$(field "$line" calls_per_s)") calls/s"
  done < <(grep '^BENCH phase=intent ' "$dir/bench.out")

  while IFS= read -r line; do
    [[ $label == SQLite ]] || cpu_db="$(field "$line" cpu_db)%"
    local delivery
    delivery=$(field "$line" delivery)
    WEBHOOK_ROWS+="| $label | $([[ $delivery == first ]] && echo "first" || echo "again (duplicates)") | $(field "$line" concurrency)"
    WEBHOOK_ROWS+=" | **$(thousands "$(field "$line" events_per_s)")** | $(field "$line" elapsed_s) s"
    WEBHOOK_ROWS+=" | $(field "$line" p50_ms) / $(field "$line" p90_ms) / $(field "$line" p99_ms) / $(field "$line" max_ms) ms"
    WEBHOOK_ROWS+=" | $(field "$line" acknowledged) of $(field "$line" events)"
    WEBHOOK_ROWS+=" | $(field "$line" processing_after) of $(field "$line" events)"
    WEBHOOK_ROWS+=" | $(field "$line" server_us_per) / $([[ $label == SQLite ]] && echo – || field "$line" db_us_per) µs"
    WEBHOOK_ROWS+=" | $(field "$line" cpu_server)% / $cpu_db / $(field "$line" cpu_bench)%"
    WEBHOOK_ROWS+=" / $(field "$line" cpu_irq)% / $(field "$line" cpu_other)% | $(quiet_run "$line") |"$'\n'
    SUMMARY[$label,webhook,$delivery]="$(thousands "$(field "$line" events_per_s)") events/s, p99 $(field "$line" p99_ms) ms, $(field "$line" acknowledged) of $(field "$line" events) acknowledged"
  done < <(grep '^BENCH phase=webhook ' "$dir/bench.out")

  # Exactly once, as the database records it.
  local once orders processing notes_off mails_off new_order events expected ok
  if [[ $label == SQLite ]]; then
    once=$(sqlite3 -readonly "${db_url#sqlite://}" "$ONCE_SQL") || die "[$label] could not read the database for the exactly-once check"
  else
    once=$(PGOPTIONS="-c search_path=$PG_SCHEMA" psql "$PG_URL" -X -A -t -q -v ON_ERROR_STOP=1 -c "$ONCE_SQL") ||
      die "[$label] could not read the database for the exactly-once check"
  fi
  IFS='|' read -r orders processing notes_off mails_off new_order events <<<"$once"
  line=$(grep -m1 '^BENCH phase=webhook delivery=first ' "$dir/bench.out")
  expected=$(field "$line" events)
  ok=$((orders == expected && processing == expected && notes_off == 0 && mails_off == 0 &&
    new_order == expected && events == expected))
  ((ok)) || ANY_FAILED=1
  ONCE_ROWS+="| $label | $orders | $processing | $notes_off | $mails_off | $new_order | $events | $(yes_no "$ok") |"$'\n'
  SUMMARY[$label,once]="$(yes_no "$ok") ($processing of $orders processing; $notes_off orders with other than one status note, $mails_off with other than one mail)"

  MEMORY+="$label $(awk -v k="$hwm_kb" 'BEGIN { printf "%.1f", k / 1024 }') MB, "
  echo "bench: [$label] $(grep -c '^BENCH phase=intent ' "$dir/bench.out") intent runs, webhooks: ${SUMMARY[$label,webhook,first]}; exactly once: $(yes_no "$ok")" >&2
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

LABELS=(SQLite)
bench_database SQLite "sqlite://$WORK/SQLite/shop.db"

if [[ -n $PG_URL ]]; then
  PG_SCHEMA="bench_payments_$(date +%s)_$$"
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
emulator_version=$("$PYTHON" -c 'from importlib.metadata import version; print(version("localstripe"))' 2>/dev/null || echo "unknown")

summary_head="| Figure |"
summary_sep="|---|"
for label in "${LABELS[@]}"; do
  summary_head+=" $label |"
  summary_sep+="---|"
done
summary_rows=""
IFS=',' read -r -a concurrencies <<<"$CONCURRENCY"
for c in "${concurrencies[@]}"; do
  summary_rows+="| create_payment_intent p50 / p99, calls/s, $c in flight |"
  for label in "${LABELS[@]}"; do summary_rows+=" ${SUMMARY[$label,intent,$c]:-–} |"; done
  summary_rows+=$'\n'
done
summary_rows+="| webhook events, $WEBHOOK_CONCURRENCY in flight |"
for label in "${LABELS[@]}"; do summary_rows+=" ${SUMMARY[$label,webhook,first]:-–} |"; done
summary_rows+=$'\n'"| the same events again (duplicates) |"
for label in "${LABELS[@]}"; do summary_rows+=" ${SUMMARY[$label,webhook,again]:-–} |"; done
summary_rows+=$'\n'"| every order paid exactly once |"
for label in "${LABELS[@]}"; do summary_rows+=" ${SUMMARY[$label,once]:-–} |"; done

REPORT="## Ferroshop card payment benchmark — $STARTED_AT

Commit $commit; release build (server binary built $built). Machine: $(nproc) × ${cpu_model:-unknown CPU}, $mem_total RAM, Linux $(uname -r).
Provider: the emulator (scripts/payment-emulator.py, localstripe $emulator_version) on 127.0.0.1. Load: bench/payments (tokio + reqwest, HTTP/1.1 keep-alive) on the same machine, over 127.0.0.1. $QUIET_NOTE
uptime before: $LOAD_BEFORE
uptime after: $LOAD_AFTER

$summary_head
$summary_sep
$summary_rows

### POST /?wc-ajax=wc_stripe_create_payment_intent

$(thousands "$ORDERS") orders per run, each placed by a session of its own (Cart-Token, its own X-Forwarded-For address and billing e-mail) with one product and a card the emulator declines, so it is failed and waiting for payment; then the call once per order (\`stripe_order_id\`, \`payment_method_type=card\`, the session's nonce), a fixed number in flight. Every answer must be 200 with \`success\`, an intent id and its client secret. Each call asks the emulator to create the intent.

| Database | In flight | Intents | Calls/s | Elapsed | p50 / p90 / p99 / max | Failed | CPU per call: server / emulator / db | CPU during the run: server / db / emulator / bench / softirq / other | Quiet? |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${INTENT_ROWS}
### POST /?wc-api=wc_stripe (payment_intent.succeeded)

One event per intent made above, signed with the endpoint's secret (a fresh \`Stripe-Signature\` timestamp on each delivery), delivered $WEBHOOK_CONCURRENCY at a time; then every event again. Every delivery must be answered 200 \`{\"received\":true}\`; after each round every order must read \`processing\`.

| Database | Delivery | In flight | Events/s | Elapsed | p50 / p90 / p99 / max | Acknowledged (200) | Orders processing after | CPU per event: server / db | CPU during the run: server / db / bench / softirq / other | Quiet? |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${WEBHOOK_ROWS}
### Exactly once

Read from the database after the server stopped: each order must have one note \"… Order status changed from Failed to Processing.\", one \`customer_processing_order\` mail to its payer, one \`new_order\` mail to the shop, and each event must be recorded once.

| Database | Orders | Processing | Orders with ≠ 1 status note | Orders with ≠ 1 customer mail | New-order mails | Events recorded | Exactly once |
|---|---:|---:|---:|---:|---:|---:|:---:|
${ONCE_ROWS}
Server peak memory (VmHWM): ${MEMORY%, }.
CPU figures are % of one core (the machine has $(( $(nproc) * 100 ))%); \"other\" is the rest of the machine (other people's work): when it is well above 0 the figures are low. A run is \"quiet\" when less than 10% of the whole machine was in use in the second before it started (each run first waits up to $WAIT_QUIET s for that) and the rest of the machine used less than 10% of each core during it.
"

mkdir -p "$RESULTS_DIR"
printf '%s' "$REPORT" >"$RESULTS_DIR/payments-latest.md"
printf '%s\n' "$REPORT"
echo "bench: written to ${RESULTS_DIR#"$ROOT/"}/payments-latest.md" >&2
if ((ANY_FAILED)); then
  echo "bench: FAILED: some requests or orders did not end as they should have (see the Failed, Acknowledged and Exactly once columns, and $WORK)" >&2
  exit 1
fi
