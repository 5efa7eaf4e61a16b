#!/usr/bin/env bash
# Ferroshop HTTP benchmarks (see bench/README.md).
#
# Builds the release server and the ceiling, starts the shop on a free loopback port
# with a fresh SQLite database (then, if asked, on a fresh PostgreSQL schema), and
# for three Store API endpoints measures the maximum throughput, the p99 latency at a
# fixed rate of half the target, and the server's peak memory; then serves each
# endpoint's recorded response from the ceiling under the same load (on PostgreSQL
# also the floor: the ceiling asking the database as many questions per request as
# the cart calls make round trips). Prints a
# markdown table and writes it to bench/results/latest.md. Exits 0 whether or not
# the targets are met; only a broken run exits non-zero.
#
# Usage: bench/run.sh [--postgres URL] [--no-build] [--duration SECS] [--warmup SECS]
#                     [--threads N] [--connections N] [--sessions N] [--no-ceiling]
#                     [--no-demo]   (start from an empty catalogue: add-item is skipped)
#                     [--wait-quiet SECS]  (wait up to SECS, default 60, for an idle machine)
# Environment: FERROSHOP_BENCH_POSTGRES_URL (same as --postgres)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
WRK_DIR="$BENCH_DIR/wrk"
RESULTS_DIR="$BENCH_DIR/results"

# ---- settings ---------------------------------------------------------------------

PG_URL=${FERROSHOP_BENCH_POSTGRES_URL:-}
BUILD=1
CEILING=1
DEMO=(--demo)
WAIT_QUIET=60
DURATION=10      # seconds per measured run
WARMUP=3         # seconds per warm-up run
THREADS=2
CONNECTIONS=50
SESSIONS=1000

# Targets (release build, 2-core machine, load generator on the same machine).
TARGET_PRODUCTS=10000
TARGET_CART=10000
TARGET_ADD=3000
TARGET_P99_MS=10
TARGET_MEM_MB=100

STORE_API=/wp-json/wc/store/v1
PRODUCTS_PATH="$STORE_API/products?per_page=12"

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
    --no-ceiling) CEILING=0; shift ;;
    --no-demo) DEMO=(); shift ;;
    --wait-quiet) WAIT_QUIET=${2:?}; shift 2 ;;
    --duration) DURATION=${2:?}; shift 2 ;;
    --warmup) WARMUP=${2:?}; shift 2 ;;
    --threads) THREADS=${2:?}; shift 2 ;;
    --connections) CONNECTIONS=${2:?}; shift 2 ;;
    --sessions) SESSIONS=${2:?}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
  esac
done

for n in DURATION WARMUP THREADS CONNECTIONS SESSIONS WAIT_QUIET; do
  [[ ${!n} =~ ^[0-9]+$ ]] || die "--${n,,} must be a whole number"
done
((THREADS >= 1 && CONNECTIONS >= THREADS && SESSIONS >= 1 && DURATION >= 1)) || die "bad load settings"

# ---- tools ------------------------------------------------------------------------

need_tool() { # command debian-package
  command -v "$1" >/dev/null 2>&1 && return 0
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "bench: $1 is missing; installing the Debian package $2" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" >/dev/null ||
      { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" >/dev/null; } ||
      die "could not install $2; install it yourself: sudo apt-get install -y $2"
    command -v "$1" >/dev/null 2>&1 || die "$1 is still missing after installing $2"
  else
    die "$1 is missing: install it with 'sudo apt-get install -y $2' (Debian/Ubuntu) and run again"
  fi
}
need_tool wrk wrk
need_tool curl curl
need_tool jq jq
if [[ -n $PG_URL ]]; then
  need_tool psql postgresql-client
fi

# Every byte of load goes to the loopback interface; the database must be local too,
# or the figures would measure a network.
if [[ -n $PG_URL ]]; then
  [[ $PG_URL =~ ^postgres(ql)?://([^@/]*@)?(\[[^]]*\]|[^:/?]*) ]] || die "--postgres: not a postgres:// URL"
  pg_host=${BASH_REMATCH[3]}
  case $pg_host in
    127.0.0.1|localhost|\[::1\]) ;;
    *) die "--postgres: the database must be on this machine (127.0.0.1), not ${pg_host:-a socket}" ;;
  esac
fi

# ---- processes and clean-up ---------------------------------------------------------

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ferroshop-bench.XXXXXX")
declare -a PIDS=()
PG_SCHEMA=""

stop_pid() {
  local pid=$1 i
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 100; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  local kept=() p
  for p in "${PIDS[@]}"; do [[ $p == "$pid" ]] || kept+=("$p"); done
  PIDS=("${kept[@]+"${kept[@]}"}")
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  local p
  for p in "${PIDS[@]+"${PIDS[@]}"}"; do stop_pid "$p"; done
  if [[ -n $PG_SCHEMA ]]; then
    psql "$PG_URL" -X -q -v ON_ERROR_STOP=1 -c "DROP SCHEMA IF EXISTS $PG_SCHEMA CASCADE" >/dev/null 2>&1 ||
      echo "bench: could not drop the schema $PG_SCHEMA; drop it by hand" >&2
  fi
  if ((status == 0)); then
    rm -rf "$WORK"
  else
    echo "bench: failed; logs and recorded bodies kept in $WORK" >&2
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Starts a command in the background in its own directory and waits for the line
# "... at http://127.0.0.1:PORT/" it prints once listening. Sets STARTED_PID and
# STARTED_ADDR.
start_listening() { # dir log command...
  local dir=$1 log=$2 i line
  shift 2
  (cd "$dir" && exec "$@") >"$log" 2>&1 &
  STARTED_PID=$!
  PIDS+=("$STARTED_PID")
  for ((i = 0; i < 1200; i++)); do
    line=$(grep -m1 -oE 'at http://127\.0\.0\.1:[0-9]+' "$log" || true)
    if [[ -n $line ]]; then
      STARTED_ADDR=${line#at http://}
      return 0
    fi
    kill -0 "$STARTED_PID" 2>/dev/null || { cat "$log" >&2; die "$1 exited before listening (log above)"; }
    sleep 0.1
  done
  cat "$log" >&2
  die "$1 did not start listening within 120 s"
}

# ---- measuring helpers --------------------------------------------------------------

CLK_TCK=$(getconf CLK_TCK)
NCPU=$(nproc)

proc_cpu_ticks() { # pid -> utime+stime of the process
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || { echo 0; return; }
  stat=${stat##*) }
  awk '{print $12 + $13}' <<<"$stat"
}

comm_cpu_ticks() { # name -> utime+stime of all processes with that name (the database server's)
  cat /proc/[0-9]*/stat 2>/dev/null | awk -v want="$1" '{
    o = index($0, "("); c = index($0, ") ")
    if (substr($0, o + 1, c - o - 1) == want) { split(substr($0, c + 2), f, " "); t += f[12] + f[13] }
  } END { print t + 0 }'
}

machine_busy_ticks() { # -> "busy irq": jiffies of all CPUs in processes (user, nice, system, steal), in interrupts (irq, softirq)
  awk '/^cpu /{print $2 + $3 + $4 + $9, $7 + $8}' /proc/stat
}

# User+sys seconds of this shell's finished children (wrk among them). `times` must
# run in this shell, not in a $(...) subshell, which has children of its own.
children_cpu_secs() { # variable-name
  times >"$WORK/times.txt"
  printf -v "$1" '%s' "$(awk 'NR == 2 {
    t = 0
    for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }
    print t
  }' "$WORK/times.txt")"
}

# Runs wrk and fills R[...] from the "BENCH ..." line printed by wrk/common.lua, plus
# CPU use during the run in % of one core: cpu_server, cpu_db (processes named
# "postgres"), cpu_wrk, cpu_irq (interrupts and softirqs: mostly the loopback TCP
# stack, which Linux does not charge to the processes), cpu_other (everything else
# on the machine: other people's work); us_per_req (server + db CPU microseconds
# per request) and load1.
declare -A R
run_wrk() { # name url script secs rate server-pid [env assignments...]
  local name=$1 url=$2 script=$3 secs=$4 rate=$5 spid=$6
  shift 6
  local out="$WORK/wrk-$name.txt"
  local s0 d0 m0 i0 c0 s1 d1 m1 i1 c1 t0 t1
  s0=$(proc_cpu_ticks "$spid"); d0=$(comm_cpu_ticks postgres)
  read -r m0 i0 < <(machine_busy_ticks); children_cpu_secs c0; t0=$(date +%s.%N)
  env BENCH_WRK_DIR="$WRK_DIR" BENCH_THREADS="$THREADS" BENCH_RATE="$rate" "$@" \
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"${secs}s" --timeout 5s -s "$WRK_DIR/$script" "$url" >"$out" 2>&1 ||
    { cat "$out" >&2; die "wrk failed ($name)"; }
  s1=$(proc_cpu_ticks "$spid"); d1=$(comm_cpu_ticks postgres)
  read -r m1 i1 < <(machine_busy_ticks); children_cpu_secs c1; t1=$(date +%s.%N)
  local line
  line=$(grep -m1 '^BENCH ' "$out" || true)
  if [[ -z $line ]] || grep -qE '\.lua:|PANIC' "$out"; then
    cat "$out" >&2
    die "wrk did not finish cleanly ($name)"
  fi
  R=()
  local kv
  for kv in ${line#BENCH }; do R[${kv%%=*}]=${kv#*=}; done
  read -r R[cpu_server] R[cpu_db] R[cpu_wrk] R[cpu_irq] R[cpu_other] R[us_per_req] < <(awk -v s="$((s1 - s0))" \
    -v d="$((d1 - d0))" -v m="$((m1 - m0))" -v irq="$((i1 - i0))" -v n="${R[requests]}" \
    -v c0="$c0" -v c1="$c1" -v t="$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b - a}')" -v hz="$CLK_TCK" 'BEGIN {
      srv = s / hz; db = d / hz; w = c1 - c0; all = m / hz; other = all - srv - db - w; if (other < 0) other = 0
      printf "%.0f %.0f %.0f %.0f %.0f %.0f\n", 100 * srv / t, 100 * db / t, 100 * w / t, 100 * irq / hz / t, 100 * other / t,
        (n > 0 ? 1e6 * (srv + db) / n : 0) }')
  R[load1]=$(cut -d' ' -f1 /proc/loadavg)
  R[errors]=$((${R[err_connect]} + ${R[err_read]} + ${R[err_write]} + ${R[err_timeout]} + ${R[err_status]}))
}

# Formatting.
thousands() { awk -v n="$1" 'BEGIN { n = sprintf("%.0f", n); s = ""; while (length(n) > 3) { s = "," substr(n, length(n) - 2) s; n = substr(n, 1, length(n) - 3) } print n s }'; }
ms() { awk -v us="$1" 'BEGIN { printf (us < 10000 ? "%.2f ms" : "%.1f ms"), us / 1000 }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.0f%%", 100 * a / b; else print "n/a" }'; }
yesno() { if awk "BEGIN { exit !($1) }"; then echo "**yes**"; else echo "**NO**"; fi; }
# "**yes**", or "**NO** (−12%)": how far the measured value is short of (or above) the target.
met_min() { awk -v v="$1" -v t="$2" 'BEGIN { if (v >= t) print "**yes**"; else printf "**NO** (−%.0f%%)\n", 100 * (t - v) / t }'; }

# ---- build ----------------------------------------------------------------------------

if ((BUILD)); then
  echo "bench: building the release server and the ceiling (cargo build --release)" >&2
  (cd "$ROOT" && cargo build --release --quiet -p ferroshop -p ceiling) || die "the build failed"
fi
TARGET_DIR=$(cd "$ROOT" && cargo metadata --format-version 1 --no-deps 2>/dev/null | jq -r .target_directory) ||
  TARGET_DIR="$ROOT/target"
SERVER_BIN="$TARGET_DIR/release/ferroshop"
CEILING_BIN="$TARGET_DIR/release/ceiling"
[[ -x $SERVER_BIN && -x $CEILING_BIN ]] || die "no release binaries in $TARGET_DIR/release (run without --no-build)"

# ---- one backend ----------------------------------------------------------------------

TABLES=""
SUMMARY=""

# Records METHOD url into file; prints the status code.
record() { # file curl-args...
  local file=$1
  shift
  curl -sS --max-time 30 -o "$file" -w '%{http_code}' "$@"
}

bench_backend() { # label database-url
  local label=$1 db_url=$2
  local dir="$WORK/$label"
  mkdir -p "$dir"
  echo "bench: [$label] starting the server" >&2
  # The server reads ferroshop.toml from its working directory and FERROSHOP_*
  # variables: run it in an empty directory with only the log level set.
  local -a server_env=(env)
  local v
  for v in $(compgen -e | grep '^FERROSHOP_' || true); do server_env+=(-u "$v"); done
  server_env+=(FERROSHOP_LOG=warn)
  start_listening "$dir" "$dir/server.log" "${server_env[@]}" "$SERVER_BIN" serve \
    --bind 127.0.0.1:0 --database "$db_url" "${DEMO[@]+"${DEMO[@]}"}"
  local spid=$STARTED_PID base="http://$STARTED_ADDR"
  local api="$base$STORE_API"
  local i
  for ((i = 0; i < 100; i++)); do
    [[ $(curl -s -o /dev/null -w '%{http_code}' "$base/healthz" || true) == 200 ]] && break
    sleep 0.1
  done

  # Products that can be added 9,999 times: simple, purchasable, in stock, no limit.
  local page=1 ids=() n
  while ((page <= 50)); do
    local chunk
    chunk=$(curl -sS --max-time 30 "$api/products?per_page=100&page=$page") || die "GET /products failed"
    n=$(jq 'if type == "array" then length else 0 end' <<<"$chunk")
    ((n > 0)) || break
    mapfile -t -O "${#ids[@]}" ids < <(jq -r '.[] | select(.type == "simple" and .is_purchasable == true
      and .is_in_stock == true and (.add_to_cart.maximum // 0) >= 9999) | .id' <<<"$chunk")
    ((n == 100)) || break
    page=$((page + 1))
  done
  local product_ids
  product_ids=$(IFS=,; echo "${ids[*]:0:8}")
  local catalogue_note=""
  if [[ -z $product_ids ]]; then
    catalogue_note="no purchasable simple product with maximum 9999 in the catalogue: the cart is empty and add-item was not measured"
    echo "bench: [$label] $catalogue_note" >&2
  fi

  # Sessions: a Cart-Token each, from GET /cart (nothing is stored until the first write).
  curl -sS --max-time 60 -D - -o /dev/null "$api/cart?session=[1-$SESSIONS]" |
    awk 'tolower($1) == "cart-token:" { sub(/\r$/, "", $2); print $2 }' >"$dir/tokens.txt"
  [[ $(sort -u "$dir/tokens.txt" | wc -l) == "$SESSIONS" ]] || die "did not get $SESSIONS distinct Cart-Tokens"
  local cart_token
  cart_token=$(curl -sS -D - -o /dev/null "$api/cart" | awk 'tolower($1) == "cart-token:" { sub(/\r$/, "", $2); print $2 }')
  [[ -n $cart_token ]] || die "GET /cart sent no Cart-Token"

  # The bodies the ceiling will serve, recorded from the real endpoints.
  local st_products st_cart st_add=""
  st_products=$(record "$dir/products.body" "$base$PRODUCTS_PATH")
  if [[ -n $product_ids ]]; then
    local first=${product_ids%%,*} sample_token
    st_add=$(record "$dir/cart-seed.body" -H "Cart-Token: $cart_token" -H 'Content-Type: application/json' \
      --data "{\"id\":$first,\"quantity\":1}" "$api/cart/add-item")
    [[ $st_add == 201 ]] || die "POST /cart/add-item answered $st_add: $(head -c 300 "$dir/cart-seed.body")"
    sample_token=$(curl -sS -D - -o /dev/null "$api/cart" | awk 'tolower($1) == "cart-token:" { sub(/\r$/, "", $2); print $2 }')
    st_add=$(record "$dir/add-item.body" -H "Cart-Token: $sample_token" -H 'Content-Type: application/json' \
      --data "{\"id\":$first,\"quantity\":1}" "$api/cart/add-item")
  fi
  st_cart=$(record "$dir/cart.body" -H "Cart-Token: $cart_token" "$api/cart")
  [[ $st_products == 200 && $st_cart == 200 ]] || die "recording bodies: products $st_products, cart $st_cart"
  local n_products
  n_products=$(jq length "$dir/products.body")
  echo "bench: [$label] catalogue page holds $n_products products; add-item products: ${product_ids:-none}" >&2

  # name | url | script | target | body | status | extra env
  local -a names=(products cart add-item)
  declare -A url script target body status xenv title
  url[products]="$base$PRODUCTS_PATH"; script[products]=get.lua; target[products]=$TARGET_PRODUCTS
  body[products]="$dir/products.body"; status[products]=$st_products; xenv[products]=""
  title[products]="GET /products?per_page=12"
  url[cart]="$api/cart"; script[cart]=get.lua; target[cart]=$TARGET_CART
  body[cart]="$dir/cart.body"; status[cart]=$st_cart; xenv[cart]="BENCH_CART_TOKEN=$cart_token"
  title[cart]="GET /cart (Cart-Token, 1 item)"
  [[ -n $product_ids ]] || title[cart]="GET /cart (Cart-Token, empty cart)"
  url[add-item]="$api/cart/add-item"; script[add-item]=add-item.lua; target[add-item]=$TARGET_ADD
  body[add-item]="$dir/add-item.body"; status[add-item]=$st_add
  xenv[add-item]="BENCH_TOKENS_FILE=$dir/tokens.txt BENCH_PRODUCT_IDS=$product_ids"
  title[add-item]="POST /cart/add-item ($SESSIONS sessions)"
  [[ -n $product_ids ]] || names=(products cart)

  local name
  echo "bench: [$label] warming up (${WARMUP} s per endpoint)" >&2
  for name in "${names[@]}"; do
    # shellcheck disable=SC2086
    run_wrk "$label-warmup-$name" "${url[$name]}" "${script[$name]}" "$WARMUP" 0 "$spid" ${xenv[$name]}
  done

  declare -A max_rps max_p50 max_p99 max_err cpu_s cpu_d cpu_w cpu_i cpu_o cpu_req fix_rate fix_rps fix_p99 fix_p999 fix_err fix_slips fix_other load
  for name in "${names[@]}"; do
    echo "bench: [$label] $name: maximum throughput (${DURATION} s)" >&2
    # shellcheck disable=SC2086
    run_wrk "$label-max-$name" "${url[$name]}" "${script[$name]}" "$DURATION" 0 "$spid" ${xenv[$name]}
    max_rps[$name]=${R[rps]}; max_p50[$name]=${R[p50_us]}; max_p99[$name]=${R[p99_us]}; max_err[$name]=${R[errors]}
    cpu_s[$name]=${R[cpu_server]}; cpu_d[$name]=${R[cpu_db]}; cpu_w[$name]=${R[cpu_wrk]}; cpu_i[$name]=${R[cpu_irq]}; cpu_req[$name]=${R[us_per_req]}; cpu_o[$name]=${R[cpu_other]}; load[$name]=${R[load1]}
  done
  for name in "${names[@]}"; do
    fix_rate[$name]=$((${target[$name]} / 2))
    echo "bench: [$label] $name: fixed rate ${fix_rate[$name]} req/s (${DURATION} s)" >&2
    # shellcheck disable=SC2086
    run_wrk "$label-fixed-$name" "${url[$name]}" "${script[$name]}" "$DURATION" "${fix_rate[$name]}" "$spid" ${xenv[$name]}
    fix_rps[$name]=${R[rps]}; fix_p99[$name]=${R[p99_us]}; fix_p999[$name]=${R[p999_us]}
    fix_err[$name]=${R[errors]}; fix_slips[$name]=${R[slips]}; fix_other[$name]=${R[cpu_other]}
  done

  local hwm_kb rss_kb
  hwm_kb=$(awk '/^VmHWM:/ {print $2}' "/proc/$spid/status")
  rss_kb=$(awk '/^VmRSS:/ {print $2}' "/proc/$spid/status")
  kill -0 "$spid" 2>/dev/null || die "the server died during the run"
  stop_pid "$spid"

  declare -A ceil_rps
  for name in "${names[@]}"; do
    ceil_rps[$name]=0
    ((CEILING)) || continue
    echo "bench: [$label] $name: ceiling, same load (${DURATION} s)" >&2
    start_listening "$dir" "$dir/ceiling-$name.log" "$CEILING_BIN" --bind 127.0.0.1:0 \
      --body "${body[$name]}" --status "${status[$name]}"
    local cpid=$STARTED_PID curl_path=${url[$name]#http://*/}
    local curl_url="http://$STARTED_ADDR/$curl_path"
    # shellcheck disable=SC2086
    run_wrk "$label-ceiling-warmup-$name" "$curl_url" "${script[$name]}" 1 0 "$cpid" ${xenv[$name]}
    # shellcheck disable=SC2086
    run_wrk "$label-ceiling-$name" "$curl_url" "${script[$name]}" "$DURATION" 0 "$cpid" ${xenv[$name]}
    ceil_rps[$name]=${R[rps]}
    stop_pid "$cpid"
  done

  # On PostgreSQL, the floor under the cart calls: the ceiling again, asking the
  # database as many prepared questions per request as the call needs round trips
  # (GET /cart one, add-item two), questions that read no table. No answer that reads
  # the database that often can be faster on this machine.
  declare -A floor_rps floor_questions=([cart]=1 [add-item]=2)
  if ((CEILING)) && [[ $label == PostgreSQL ]]; then
    for name in cart add-item; do
      [[ " ${names[*]} " == *" $name "* ]] || continue
      echo "bench: [$label] $name: floor, ${floor_questions[$name]} database round trip(s) per request (${DURATION} s)" >&2
      start_listening "$dir" "$dir/floor-$name.log" "$CEILING_BIN" --bind 127.0.0.1:0 \
        --body "${body[$name]}" --status "${status[$name]}" \
        --postgres "$db_url" --questions "${floor_questions[$name]}"
      local fpid=$STARTED_PID floor_url="http://$STARTED_ADDR/${url[$name]#http://*/}"
      # shellcheck disable=SC2086
      run_wrk "$label-floor-warmup-$name" "$floor_url" "${script[$name]}" 1 0 "$fpid" ${xenv[$name]}
      # shellcheck disable=SC2086
      run_wrk "$label-floor-$name" "$floor_url" "${script[$name]}" "$DURATION" 0 "$fpid" ${xenv[$name]}
      floor_rps[$name]=${R[rps]}
      stop_pid "$fpid"
    done
  fi

  # ---- the table ----
  local t=""
  t+="### $label"$'\n\n'
  t+="| Endpoint | Body | Max throughput | Target | Met | Ceiling | Share of ceiling | p50 / p99 at max | Fixed rate: asked → got | p99 (p99.9) at fixed rate | p99 < ${TARGET_P99_MS} ms | Errors (max / fixed) | CPU per request | CPU at max: server / db / wrk / softirq / other |"$'\n'
  t+="|---|---:|---:|---:|:---:|---:|---:|---:|---:|---:|:---:|---:|---:|---:|"$'\n'
  for name in "${names[@]}"; do
    local size ceil_txt share_txt
    size=$(stat -c %s "${body[$name]}")
    if ((CEILING)); then
      ceil_txt="$(thousands "${ceil_rps[$name]}") req/s"; share_txt=$(pct "${max_rps[$name]}" "${ceil_rps[$name]}")
    else
      ceil_txt="–"; share_txt="–"
    fi
    t+="| ${title[$name]} | $(thousands "$size") B | $(thousands "${max_rps[$name]}") req/s | ≥ $(thousands "${target[$name]}") | $(met_min "${max_rps[$name]}" "${target[$name]}") | $ceil_txt | $share_txt"
    t+=" | $(ms "${max_p50[$name]}") / $(ms "${max_p99[$name]}") | $(thousands "${fix_rate[$name]}") → $(thousands "${fix_rps[$name]}") req/s"
    t+=" | $(ms "${fix_p99[$name]}") ($(ms "${fix_p999[$name]}")) | $(yesno "${fix_p99[$name]} < $TARGET_P99_MS * 1000 && ${fix_rps[$name]} >= 0.95 * ${fix_rate[$name]}")"
    local db_txt="–"
    [[ $label == SQLite ]] || db_txt="${cpu_d[$name]}%"
    t+=" | ${max_err[$name]} / ${fix_err[$name]} | ${cpu_req[$name]} µs | ${cpu_s[$name]}% / $db_txt / ${cpu_w[$name]}% / ${cpu_i[$name]}% / ${cpu_o[$name]}% |"$'\n'
    local line="$label $name: $(thousands "${max_rps[$name]}") req/s"
    ((CEILING)) && line+=" = $share_txt of ceiling $(thousands "${ceil_rps[$name]}") req/s"
    [[ -z ${floor_rps[$name]:-} ]] ||
      line+=" (floor with ${floor_questions[$name]} round trip(s): $(thousands "${floor_rps[$name]}") req/s = $(pct "${floor_rps[$name]}" "${ceil_rps[$name]}") of ceiling)"
    line+="; p99 $(ms "${fix_p99[$name]}") at $(thousands "${fix_rps[$name]}") req/s"
    SUMMARY+="$line"$'\n'
  done
  if [[ -z $product_ids ]]; then
    t+="| POST /cart/add-item | – | not measured: no suitable product | ≥ $(thousands "$TARGET_ADD") | – | – | – | – | – | – | – | – | – | – |"$'\n'
  fi
  local hwm_mb
  hwm_mb=$(awk -v k="$hwm_kb" 'BEGIN { printf "%.1f", k / 1024 }')
  t+=$'\n'"Server peak memory (VmHWM): **$hwm_mb MB** (target < $TARGET_MEM_MB MB: $(yesno "$hwm_mb < $TARGET_MEM_MB")); RSS at the end $(awk -v k="$rss_kb" 'BEGIN { printf "%.1f", k / 1024 }') MB."$'\n'
  t+="Load average (1 min) after each maximum run: products ${load[products]}, cart ${load[cart]}${load[add-item]:+, add-item ${load[add-item]}}."$'\n'
  local slip_txt="" other_txt=""
  for name in "${names[@]}"; do
    slip_txt+=" $name ${fix_slips[$name]},"
    other_txt+=" $name ${fix_other[$name]}%,"
  done
  t+="Fixed-rate runs: send slots missed by more than 1 ms (no free connection):${slip_txt%,}; CPU used by the rest of the machine meanwhile:${other_txt%,}."$'\n'
  local floor_txt=""
  for name in cart add-item; do
    [[ -z ${floor_rps[$name]:-} ]] && continue
    floor_txt+=" $name $(thousands "${floor_rps[$name]}") req/s with ${floor_questions[$name]} (= $(pct "${floor_rps[$name]}" "${ceil_rps[$name]}") of its ceiling; the shop reaches $(pct "${max_rps[$name]}" "${floor_rps[$name]}") of it),"
  done
  [[ -z $floor_txt ]] ||
    t+="Floor (the ceiling asking the database one prepared question per round trip the call needs, reading no table):${floor_txt%,}."$'\n'
  [[ -z $catalogue_note ]] || t+="Note: $catalogue_note."$'\n'
  TABLES+="$t"$'\n'
  SUMMARY+="$label memory: VmHWM $hwm_mb MB"$'\n'
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
if ((busy > 10)); then
  echo "bench: warning: the machine is busy (${busy}% of its CPU in use); the figures will be low. Busiest processes now:" >&2
  top -b -n 2 -d 1 -w 120 2>/dev/null | awk '/^top -/ { n++ } n == 2' | sed -n '7,12p' >&2 || true
fi
LOAD_BEFORE="$(uptime | sed 's/^ *//'); CPU in use just before: ${busy}%"
STARTED_AT=$(date -u '+%Y-%m-%d %H:%M UTC')
echo "bench: load before the run: $LOAD_BEFORE" >&2

bench_backend SQLite "sqlite://$WORK/SQLite/shop.db"

if [[ -n $PG_URL ]]; then
  PG_SCHEMA="bench_$(date +%s)_$$"
  psql "$PG_URL" -X -q -v ON_ERROR_STOP=1 -c "CREATE SCHEMA $PG_SCHEMA" >/dev/null ||
    { PG_SCHEMA=""; die "could not create a schema in $PG_URL"; }
  sep='?'
  [[ $PG_URL == *\?* ]] && sep='&'
  bench_backend PostgreSQL "${PG_URL}${sep}options=-c%20search_path%3D${PG_SCHEMA}"
  psql "$PG_URL" -X -q -v ON_ERROR_STOP=1 -c "DROP SCHEMA $PG_SCHEMA CASCADE" >/dev/null 2>&1 && PG_SCHEMA=""
fi

LOAD_AFTER=$(uptime | sed 's/^ *//')
commit=$(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ $commit != unknown && -n $(cd "$ROOT" && git status --porcelain --untracked-files=no -- . ':(exclude)bench' 2>/dev/null) ]]; then
  commit+=" (with uncommitted changes outside bench/)"
fi
cpu_model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
mem_total=$(awk '/^MemTotal:/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo)
wrk_version=$( (wrk -v 2>&1 || true) | awk 'NR == 1 { print $2 }')

built=$(date -u -r "$SERVER_BIN" '+%Y-%m-%d %H:%M UTC')
((BUILD)) || built+=", --no-build: may predate the commit"

REPORT="## Ferroshop HTTP benchmark — $STARTED_AT

Commit $commit; release build (server binary built $built). Machine: $NCPU × ${cpu_model:-unknown CPU}, $mem_total RAM, Linux $(uname -r).
Load: wrk $wrk_version, $THREADS threads, $CONNECTIONS connections, ${DURATION} s per run (after ${WARMUP} s of warm-up), on the same machine, over 127.0.0.1; no Accept-Encoding (identity bodies).
Fixed-rate runs ask for half the throughput target (paced by wrk/common.lua); the ceiling serves each endpoint's recorded body under the same load.
uptime before: $LOAD_BEFORE
uptime after: $LOAD_AFTER

$TABLES"

mkdir -p "$RESULTS_DIR"
printf '%s' "$REPORT" >"$RESULTS_DIR/latest.md"
printf '%s\n' "$REPORT"
printf '%s' "$SUMMARY"
echo "bench: written to ${RESULTS_DIR#"$ROOT/"}/latest.md" >&2
