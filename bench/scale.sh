#!/usr/bin/env bash
# The shop at scale (see bench/README.md, "Scale"): 100,000 products, 1,000,000
# orders and 1,000,000 sessions, on a fresh SQLite file and, when asked, a fresh
# PostgreSQL database.
#
# For each database: makes the demo shop and measures its listing; imports the
# generated catalogue (bench/scale/make-catalog.py) with `ferroshop products import`;
# inserts the customers, orders and sessions with set-based SQL; starts the release
# server (start-up time, memory); measures listing, search, an account's orders, guest
# order lookup and a cart read with wrk; starts a second instance on the same database
# and times how long a price change and a sale of the last item take to show there.
# Prints one table per database. Exits 0 whether the targets are met or not.
#
# Usage: bench/scale.sh [--no-build] [--postgres URL] [--products N] [--orders N]
#                       [--sessions N] [--duration SECS] [--keep]
#   --products N   catalogue rows, products and variations (100000)
#   --orders N     orders (1000000), over 50,000 shoppers, 30,000 of them with accounts
#   --sessions N   stored sessions (as many as orders)
#   --duration S   seconds per wrk run (10)
#   --keep         keep the working directory (SQLite file, CSV, logs) at the end
# Environment: FERROSHOP_BENCH_POSTGRES_URL (same as --postgres)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
SCALE_DIR="$BENCH_DIR/scale"
BIN="$ROOT/target/release/ferroshop"

PG_URL=${FERROSHOP_BENCH_POSTGRES_URL:-}
BUILD=1
PRODUCTS=100000
ORDERS=1000000
SESSIONS=""
DURATION=10
KEEP=0

SHOPPERS=50000      # distinct billing e-mails (lookup.lua knows this number)
ACCOUNTS=30000      # the first ACCOUNTS shoppers have an account; the rest are guests
PASSWORD="scale-Password-1"
STORE_API=/wp-json/wc/store/v1
ACCOUNT_API=/wp-json/ferroshop/v1

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "scale: $*" >&2; exit 1; }
say() { echo "scale: $*" >&2; }

while (($#)); do
  case $1 in
    --postgres) PG_URL=${2:?--postgres needs a URL}; shift 2 ;;
    --postgres=*) PG_URL=${1#*=}; shift ;;
    --no-build) BUILD=0; shift ;;
    --products) PRODUCTS=${2:?}; shift 2 ;;
    --orders) ORDERS=${2:?}; shift 2 ;;
    --sessions) SESSIONS=${2:?}; shift 2 ;;
    --duration) DURATION=${2:?}; shift 2 ;;
    --keep) KEEP=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
  esac
done
SESSIONS=${SESSIONS:-$ORDERS}
for n in PRODUCTS ORDERS SESSIONS DURATION; do
  [[ ${!n} =~ ^[0-9]+$ ]] || die "--${n,,} must be a whole number"
done
((PRODUCTS >= 100 && ORDERS >= 2 && SESSIONS >= 1)) || die "--products ≥ 100, --orders ≥ 2, --sessions ≥ 1"

for tool in wrk curl jq python3; do
  command -v "$tool" >/dev/null || die "$tool is missing (Debian: apt-get install -y $tool)"
done
if [[ -n $PG_URL ]]; then
  command -v psql >/dev/null || die "psql is missing (Debian: apt-get install -y postgresql-client)"
fi

if ((BUILD)); then
  say "building the release server"
  (cd "$ROOT" && cargo build --release -p ferroshop) >&2
fi
[[ -x $BIN ]] || die "$BIN is missing: build it, or run without --no-build"

# ---- processes and clean-up ---------------------------------------------------------

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ferroshop-scale.XXXXXX")
declare -a PIDS=()
PG_DB=""
PG_ADMIN_URL=""

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
  for p in "${PIDS[@]+"${PIDS[@]}"}"; do [[ $p == "$pid" ]] || kept+=("$p"); done
  PIDS=("${kept[@]+"${kept[@]}"}")
}

drop_pg_db() {
  [[ -n $PG_DB ]] || return 0
  psql "$PG_ADMIN_URL" -X -q -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null 2>&1 ||
    say "could not drop the database $PG_DB; drop it by hand"
  PG_DB=""
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  local p
  for p in "${PIDS[@]+"${PIDS[@]}"}"; do stop_pid "$p"; done
  drop_pg_db
  if ((status == 0 && !KEEP)); then
    rm -rf "$WORK"
  elif ((status == 0)); then
    say "kept $WORK"
  else
    say "failed; logs kept in $WORK"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

now_ms() { date +%s%3N; }
secs_since() { awk -v a="$1" -v b="$(now_ms)" 'BEGIN { printf "%.1f", (b - a) / 1000 }'; }

# Starts the release server on a free port, in an empty directory, without the
# caller's FERROSHOP_* variables. Sets STARTED_PID, STARTED_ADDR and STARTED_MS (from
# launch until the listing answers 200).
start_server() { # name database-url [--demo]
  local name=$1 url=$2 i line t0 code
  shift 2
  mkdir -p "$WORK/$name"
  t0=$(now_ms)
  (cd "$WORK/$name" && exec env $(env | grep -o '^FERROSHOP_[A-Z_]*' | sed 's/^/-u /') \
    FERROSHOP_LOG=warn FERROSHOP_TRUST_PROXY=yes \
    "$BIN" serve --bind 127.0.0.1:0 --database "$url" "$@") >"$WORK/$name.log" 2>&1 &
  STARTED_PID=$!
  PIDS+=("$STARTED_PID")
  STARTED_ADDR=""
  for ((i = 0; i < 60000; i++)); do
    if [[ -z $STARTED_ADDR ]]; then
      line=$(grep -m1 -oE 'at http://127\.0\.0\.1:[0-9]+' "$WORK/$name.log" || true)
      [[ -n $line ]] && STARTED_ADDR=${line#at http://}
    fi
    if [[ -n $STARTED_ADDR ]]; then
      code=$(curl -s -o /dev/null -w '%{http_code}' "http://$STARTED_ADDR$STORE_API/products?per_page=1" || true)
      if [[ $code == 200 ]]; then
        STARTED_MS=$(($(now_ms) - t0))
        return 0
      fi
    fi
    kill -0 "$STARTED_PID" 2>/dev/null || { cat "$WORK/$name.log" >&2; die "$name exited before answering (log above)"; }
    sleep 0.01
  done
  cat "$WORK/$name.log" >&2
  die "$name did not answer within 10 minutes"
}

mem_kb() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }
mb() { awk -v kb="$1" 'BEGIN { printf "%.1f MB", kb / 1024 }'; }

# ---- wrk ----------------------------------------------------------------------------

# Runs wrk -t1 -c2 with --latency; sets W[rps], W[p50], W[p99] (ms), W[requests],
# W[bad] (non-2xx answers) and W[errors] (socket errors).
declare -A W
run_wrk() { # name url script [env assignments...]
  local name=$1 url=$2 script=$3 out="$WORK/wrk-$1.txt"
  shift 3
  env "$@" wrk -t1 -c2 -d"${DURATION}s" --timeout 5s --latency -s "$SCALE_DIR/$script" "$url" >"$out" 2>&1 ||
    { cat "$out" >&2; die "wrk failed ($name)"; }
  W=()
  W[rps]=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$out")
  W[requests]=$(awk '/requests in/ { print $1 }' "$out")
  local to_ms='function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /m$/) return v * 60000; return v * 1000 }'
  W[p50]=$(awk "$to_ms"' $1 == "50%" { printf "%.2f", ms($2) }' "$out")
  W[p99]=$(awk "$to_ms"' $1 == "99%" { printf "%.2f", ms($2) }' "$out")
  W[bad]=$(awk '/Non-2xx or 3xx responses:/ { print $NF }' "$out")
  W[bad]=${W[bad]:-0}
  W[errors]=$(awk '/Socket errors:/ { gsub(/,/, ""); print $4 + $6 + $8 + $10 }' "$out")
  W[errors]=${W[errors]:-0}
  [[ -n ${W[rps]} && -n ${W[p99]} ]] || { cat "$out" >&2; die "could not read wrk's output ($name)"; }
  say "$name: ${W[rps]} req/s, p50 ${W[p50]} ms, p99 ${W[p99]} ms, ${W[requests]} requests, ${W[bad]} non-2xx, ${W[errors]} socket errors"
}

yes_no() { if awk "BEGIN { exit !($1) }"; then echo "**yes**"; else echo "**NO**"; fi; }

# ---- the database -------------------------------------------------------------------

# Runs SQL read from stdin against the current database, stopping at the first error.
run_sql() {
  if [[ $BACKEND == sqlite ]]; then
    sqlite3 -bail "$SQLITE_FILE"
  else
    psql "$DB_URL" -X -q -v ON_ERROR_STOP=1 -o /dev/null
  fi
}

# One value from a query.
sql_value() {
  if [[ $BACKEND == sqlite ]]; then
    sqlite3 "$SQLITE_FILE" "$1"
  else
    psql "$DB_URL" -X -q -A -t -c "$1"
  fi
}

# The integers LO..HI as the rows of g(i): generate_series on PostgreSQL, a recursive
# common table expression on SQLite.
series() { # lo hi
  if [[ $BACKEND == sqlite ]]; then
    echo "WITH RECURSIVE g(i) AS (SELECT $1 UNION ALL SELECT i + 1 FROM g WHERE i < $2)"
  else
    echo "WITH g(i) AS (SELECT generate_series(CAST($1 AS BIGINT), $2))"
  fi
}

# ---- HTTP helpers ---------------------------------------------------------------------

# A new session's Cart-Token, as a headless client gets it.
new_cart_token() { # addr
  curl -s -D - -o /dev/null "http://$1$STORE_API/cart" | awk -F': ' 'tolower($1) == "cart-token" { sub(/\r$/, "", $2); print $2 }'
}

post_json() { # addr path cart-token body -> body on stdout, status in $WORK/status
  curl -s -o "$WORK/answer.json" -w '%{http_code}' -H 'Content-Type: application/json' \
    -H "Cart-Token: $3" --data "$4" "http://$1$2" >"$WORK/status" || true
  cat "$WORK/answer.json"
}

BILLING='{"first_name":"Shopper","last_name":"One","address_1":"1 Valencia Street","city":"San Francisco","state":"CA","postcode":"94110","country":"US","email":"shopper1@example.test","phone":"5555550100"}'

# Places an order for one of product ID through the Store API; prints the order id.
place_order() { # addr product-id
  local token answer
  token=$(new_cart_token "$1")
  [[ -n $token ]] || die "no Cart-Token from GET /cart"
  answer=$(post_json "$1" "$STORE_API/cart/add-item" "$token" "{\"id\":$2,\"quantity\":1}")
  [[ $(cat "$WORK/status") == 201 ]] || die "add-item of product $2 answered $(cat "$WORK/status"): $answer"
  answer=$(post_json "$1" "$STORE_API/checkout" "$token" \
    "{\"billing_address\":$BILLING,\"shipping_address\":$BILLING,\"payment_method\":\"cod\"}")
  [[ $(cat "$WORK/status") == 200 ]] || die "checkout answered $(cat "$WORK/status"): $answer"
  jq -r .order_id <<<"$answer"
}

# ---- one database ---------------------------------------------------------------------

declare -a TABLES=()

run_database() { # sqlite | postgres
  BACKEND=$1
  local label rows=()
  if [[ $BACKEND == sqlite ]]; then
    label=SQLite
    SQLITE_FILE="$WORK/shop.db"
    DB_URL="sqlite://$SQLITE_FILE"
  else
    label=PostgreSQL
    PG_DB="ferroshop_scale_$$"
    PG_ADMIN_URL=$PG_URL
    psql "$PG_ADMIN_URL" -X -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE $PG_DB" >/dev/null
    DB_URL=$(sed -E 's#^(postgres(ql)?://[^/]*)(/[^?]*)?#\1/'"$PG_DB"'#' <<<"$PG_URL")
  fi
  say "== $label: $DB_URL"

  # 1. The demo shop, and its listing for comparison.
  start_server demo "$DB_URL" --demo
  local demo_pid=$STARTED_PID A=$STARTED_ADDR
  local demo_pages
  demo_pages=$(curl -s -D - -o /dev/null "http://$A$STORE_API/products?per_page=12" |
    awk -F': ' 'tolower($1) == "x-wp-totalpages" { print $2 + 0 }')
  run_wrk "$label demo listing" "http://$A" listing.lua SCALE_PAGES="$demo_pages"
  local demo_rps=${W[rps]} demo_p99=${W[p99]}
  rows+=("| Listing, 60-product demo shop (random page of $demo_pages, orderby) | ${W[rps]} req/s | ${W[p50]} / ${W[p99]} ms | ${W[bad]} / ${W[errors]} | (the reference) |")

  # The templates the generated rows copy: a registered customer (shopper 1, with a
  # real password hash), an order placed through the Store API, and a stored cart.
  local answer token product template_session
  token=$(new_cart_token "$A")
  answer=$(post_json "$A" "$ACCOUNT_API/account/register" "$token" \
    "{\"email\":\"shopper1@example.test\",\"password\":\"$PASSWORD\",\"first_name\":\"Shopper\",\"last_name\":\"One\"}")
  [[ $(cat "$WORK/status") == 201 ]] || die "register answered $(cat "$WORK/status"): $answer"
  product=$(curl -s "http://$A$STORE_API/products?per_page=100&type=simple" |
    jq '[.[] | select(.is_purchasable and .is_in_stock and .add_to_cart.maximum > 1)][0].id')
  [[ $product =~ ^[0-9]+$ ]] || die "the demo shop has no simple product in stock"
  local template_order
  template_order=$(place_order "$A" "$product")
  token=$(new_cart_token "$A")
  post_json "$A" "$STORE_API/cart/add-item" "$token" "{\"id\":$product,\"quantity\":2}" >/dev/null
  template_session=$(cut -d. -f2 <<<"$token" | tr '_-' '/+' | awk '{ n = length($0) % 4; if (n) $0 = $0 substr("===", 1, 4 - n); print }' |
    base64 -d 2>/dev/null | jq -r .user_id)
  stop_pid "$demo_pid"
  [[ $template_order == 1 ]] || die "the first order has number $template_order, expected 1"
  [[ $(sql_value "SELECT COUNT(*) FROM sessions WHERE id = '$template_session'") == 1 ]] ||
    die "the template session $template_session is not stored"

  # 2. The catalogue.
  local csv="$WORK/catalog.csv" t0
  python3 "$SCALE_DIR/make-catalog.py" "$PRODUCTS" >"$csv"
  t0=$(now_ms)
  (cd "$WORK" && env FERROSHOP_LOG=warn "$BIN" products import "$csv" --database "$DB_URL") >"$WORK/import.log" 2>&1 ||
    { tail -20 "$WORK/import.log" >&2; die "products import failed"; }
  local import_s
  import_s=$(secs_since "$t0")
  say "import of $PRODUCTS rows: ${import_s} s ($(grep -v '^warning' "$WORK/import.log" | tail -1))"
  rows+=("| Import of $PRODUCTS catalogue rows (\`ferroshop products import\`) | ${import_s} s | | | |")

  # 3. Customers, orders and sessions, set-based.
  local now span recent
  now=$(date +%s)
  span=$((3 * 365 * 86400))              # orders over three years, oldest first
  recent=$((ORDERS / 200 > 10 ? ORDERS / 200 : 10))   # the newest 0.5 %: not yet completed
  t0=$(now_ms)
  run_sql <<SQL
INSERT INTO customers (id, email, email_key, display_name, first_name, last_name, password_hash,
    billing, shipping, created_at, updated_at)
$(series 2 "$ACCOUNTS")
SELECT i, 'shopper' || i || '@example.test', 'shopper' || i || '@example.test', 'Shopper ' || i,
    'Shopper', 'No. ' || i, t.password_hash, '{}', '{}', $now - $span + i * 1000, $now - $span + i * 1000
FROM g, (SELECT password_hash FROM customers WHERE id = 1) t;
SQL
  local customers_s
  customers_s=$(secs_since "$t0")
  t0=$(now_ms)
  run_sql <<SQL
INSERT INTO orders (id, order_key, status, customer_id, billing_email, currency, prices_include_tax,
    billing, shipping, customer_note, payment_method, payment_method_title, transaction_id,
    created_via, cart_hash, lines, subtotal, discount_total, discount_tax, shipping_total,
    shipping_tax, total_tax, total, stock_reduced, hold_expires_at, created_at, updated_at,
    paid_at, completed_at)
$(series 2 "$ORDERS"),
o AS (
  SELECT i, 1 + (i * 7919) % $SHOPPERS AS c, $now - ($ORDERS - i) * $span / $ORDERS AS at,
    CASE WHEN $ORDERS - i < $recent THEN
      CASE WHEN i % 20 < 12 THEN 'processing' WHEN i % 20 < 16 THEN 'on-hold'
           WHEN i % 20 < 17 THEN 'pending' ELSE 'completed' END
    ELSE
      CASE WHEN i % 100 < 90 THEN 'completed' WHEN i % 100 < 95 THEN 'cancelled'
           WHEN i % 100 < 98 THEN 'refunded' ELSE 'failed' END
    END AS status
  FROM g
)
SELECT o.i, 'wc_order_s' || (1000000000000 + o.i), o.status,
    CASE WHEN o.c <= $ACCOUNTS THEN o.c END,
    'shopper' || o.c || '@example.test', t.currency, t.prices_include_tax,
    replace(t.billing, 'shopper1@example.test', 'shopper' || o.c || '@example.test'),
    replace(t.shipping, 'shopper1@example.test', 'shopper' || o.c || '@example.test'), '',
    CASE WHEN o.status = 'on-hold' THEN 'bacs' ELSE t.payment_method END,
    CASE WHEN o.status = 'on-hold' THEN 'Direct bank transfer' ELSE t.payment_method_title END,
    '', t.created_via, '', t.lines, t.subtotal, t.discount_total, t.discount_tax, t.shipping_total,
    t.shipping_tax, t.total_tax, t.total, 0,
    CASE WHEN o.status = 'pending' THEN $now + 86400 END,
    o.at, CASE WHEN o.status = 'completed' THEN o.at + 3600 ELSE o.at + 60 END,
    CASE WHEN o.status IN ('processing', 'completed', 'refunded') THEN o.at + 60 END,
    CASE WHEN o.status = 'completed' THEN o.at + 3600 END
FROM o, (SELECT * FROM orders WHERE id = 1) t;
UPDATE orders SET customer_id = 1 WHERE id = 1;
-- The per-status counts, as migration 0005 builds them.
DELETE FROM order_status_counts;
INSERT INTO order_status_counts (status, slot, orders)
    SELECT status, id % 16, COUNT(*) FROM orders WHERE status <> 'checkout-draft'
    GROUP BY status, id % 16;
SQL
  local orders_s
  orders_s=$(secs_since "$t0")
  # Session ids as the server makes a guest's: t_ and 30 hex digits.
  local sid
  if [[ $BACKEND == sqlite ]]; then sid="'t_' || lower(hex(randomblob(15)))"; else sid="'t_' || substr(md5(i::text), 1, 30)"; fi
  t0=$(now_ms)
  run_sql <<SQL
INSERT INTO sessions (id, customer_id, cart, version, created_at, updated_at, expires_at)
$(series 1 "$SESSIONS")
SELECT $sid, CASE WHEN i % 20 = 0 THEN 2 + i % ($ACCOUNTS - 1) END, t.cart, 1 + i % 5,
    $now - i % t.half, $now - i % t.half, $now - i % t.half + 2 * t.half
FROM g, (SELECT cart, (expires_at - updated_at) / 2 AS half FROM sessions WHERE id = '$template_session') t;
SQL
  local sessions_s
  sessions_s=$(secs_since "$t0")
  if [[ $BACKEND == postgres ]]; then
    run_sql <<SQL
SELECT setval(pg_get_serial_sequence('customers', 'id'), (SELECT max(id) FROM customers));
SELECT setval(pg_get_serial_sequence('orders', 'id'), (SELECT max(id) FROM orders));
SQL
  fi
  t0=$(now_ms)
  echo "ANALYZE;" | run_sql
  local analyze_s
  analyze_s=$(secs_since "$t0")
  local counts
  counts=$(sql_value "SELECT (SELECT COUNT(*) FROM customers) || ' customers, ' || (SELECT COUNT(*) FROM orders) || ' orders, ' || (SELECT COUNT(*) FROM sessions) || ' sessions'")
  local size
  if [[ $BACKEND == sqlite ]]; then
    size=$(du -sh "$WORK/shop.db" | cut -f1)
  else
    size=$(sql_value "SELECT pg_size_pretty(pg_database_size(current_database()))")
  fi
  say "rows: $counts; customers ${customers_s} s, orders ${orders_s} s, sessions ${sessions_s} s, ANALYZE ${analyze_s} s; database $size"
  rows+=("| Insert $((ACCOUNTS - 1)) customers / $((ORDERS - 1)) orders / $SESSIONS sessions (set-based SQL); ANALYZE | ${customers_s} / ${orders_s} / ${sessions_s} s; ${analyze_s} s | | | $counts; database $size |")

  # 4. The shop at scale.
  start_server a "$DB_URL"
  local pid_a=$STARTED_PID start_ms=$STARTED_MS
  A=$STARTED_ADDR
  local rss_start
  rss_start=$(mem_kb "$pid_a" VmRSS)
  say "start-up: $start_ms ms, RSS $(mb "$rss_start")"
  rows+=("| Start-up (launch until \`/products?per_page=1\` answers 200) | $(awk -v m="$start_ms" 'BEGIN { printf "%.2f s", m / 1000 }') | | | RSS after start-up $(mb "$rss_start") |")

  local pages
  pages=$(curl -s -D - -o /dev/null "http://$A$STORE_API/products?per_page=12" |
    awk -F': ' 'tolower($1) == "x-wp-totalpages" { print $2 + 0 }')
  [[ $pages =~ ^[0-9]+$ && $pages -gt 0 ]] || die "no X-WP-TotalPages from the listing"
  run_wrk "$label listing" "http://$A" listing.lua SCALE_PAGES="$pages"
  rows+=("| Listing (random page of $pages, random orderby, uncached) | ${W[rps]} req/s | ${W[p50]} / ${W[p99]} ms | ${W[bad]} / ${W[errors]} | ≥ 50 % of the demo's req/s: $(awk -v a="${W[rps]}" -v b="$demo_rps" 'BEGIN { printf "%.0f %%", 100 * a / b }') $(yes_no "${W[rps]} >= 0.5 * $demo_rps"); p99 < 5 ms $(yes_no "${W[p99]} < 5") |")
  local search_hits
  search_hits=$(curl -s "http://$A$STORE_API/products?search=jacket&per_page=12" | jq length)
  run_wrk "$label search" "http://$A" search.lua
  rows+=("| Search (random word or typo, 12 per page, uncached) | ${W[rps]} req/s | ${W[p50]} / ${W[p99]} ms | ${W[bad]} / ${W[errors]} | p99 < 10 ms $(yes_no "${W[p99]} < 10") (\"jacket\" finds $search_hits on page 1) |")

  # 5. The million-row paths. Shopper 1 signs in as a browser does.
  local jar="$WORK/jar.txt" nonce cookie
  rm -f "$jar"
  nonce=$(curl -s -c "$jar" -b "$jar" -D - -o /dev/null "http://$A$STORE_API/cart" |
    awk -F': ' 'tolower($1) == "nonce" { sub(/\r$/, "", $2); print $2 }')
  local code
  code=$(curl -s -c "$jar" -b "$jar" -o "$WORK/login.json" -w '%{http_code}' -H 'Content-Type: application/json' \
    -H "Nonce: $nonce" --data "{\"username\":\"shopper1@example.test\",\"password\":\"$PASSWORD\"}" \
    "http://$A$ACCOUNT_API/account/login")
  [[ $code == 200 ]] || die "login answered $code: $(cat "$WORK/login.json")"
  cookie=$(awk -F'\t' 'NF >= 7 && $1 !~ /^# / { printf "%s%s=%s", (n++ ? "; " : ""), $6, $7 }' "$jar")
  local my_total
  my_total=$(curl -s -D - -o "$WORK/my-orders.json" -H "Cookie: $cookie" "http://$A$ACCOUNT_API/account/orders" |
    awk -F': ' 'tolower($1) == "x-wp-total" { print $2 + 0 }')
  [[ $my_total -gt 0 ]] || die "the signed-in customer sees no orders: $(head -c 300 "$WORK/my-orders.json")"
  run_wrk "$label account orders" "http://$A$ACCOUNT_API/account/orders" get.lua SCALE_COOKIE="$cookie"
  rows+=("| \`GET /account/orders\` (signed in, $my_total orders, first 10) | ${W[rps]} req/s | ${W[p50]} / ${W[p99]} ms | ${W[bad]} / ${W[errors]} | p99 < 5 ms $(yes_no "${W[p99]} < 5") |")

  token=$(new_cart_token "$A")
  local probe=$((ORDERS / 2))
  answer=$(post_json "$A" "$ACCOUNT_API/orders/lookup" "$token" \
    "{\"order_number\":\"$probe\",\"billing_email\":\"shopper$((1 + (probe * 7919) % SHOPPERS))@example.test\"}")
  [[ $(cat "$WORK/status") == 200 ]] || die "order lookup of $probe answered $(cat "$WORK/status"): $answer"
  run_wrk "$label order lookup" "http://$A" lookup.lua SCALE_CART_TOKEN="$token" SCALE_ORDERS="$ORDERS"
  rows+=("| \`POST /orders/lookup\` (random order of $ORDERS, its e-mail) | ${W[rps]} req/s | ${W[p50]} / ${W[p99]} ms | ${W[bad]} / ${W[errors]} | p99 < 5 ms $(yes_no "${W[p99]} < 5") |")

  token=$(new_cart_token "$A")
  post_json "$A" "$STORE_API/cart/add-item" "$token" "{\"id\":$product,\"quantity\":1}" >/dev/null
  [[ $(cat "$WORK/status") == 201 ]] || die "add-item for the cart read answered $(cat "$WORK/status")"
  run_wrk "$label cart read" "http://$A$STORE_API/cart" get.lua SCALE_CART_TOKEN="$token"
  rows+=("| \`GET /cart\` (Cart-Token of a stored session, 1 item, among $((SESSIONS + 1)) sessions) | ${W[rps]} req/s | ${W[p50]} / ${W[p99]} ms | ${W[bad]} / ${W[errors]} | p99 < 5 ms $(yes_no "${W[p99]} < 5") |")

  # 6. A second instance on the same database.
  start_server b "$DB_URL"
  local pid_b=$STARTED_PID B=$STARTED_ADDR
  say "second instance up in $STARTED_MS ms"
  local pick sku id price new_price
  pick=$(curl -s "http://$A$STORE_API/products?per_page=100&type=simple&page=2" |
    jq -r '[.[] | select(.is_purchasable and .is_in_stock and .sku != "")] | .[0], .[1] | "\(.id) \(.sku) \(.prices.regular_price) \(.name)"')
  local name
  read -r id sku price name <<<"$(sed -n 1p <<<"$pick")"
  [[ $id =~ ^[0-9]+$ ]] || die "no simple product to change"
  curl -s -o /dev/null "http://$B$STORE_API/products/$id"
  new_price=$((price + 101))
  printf 'SKU,Name,Regular price\n%s,"%s",%d.%02d\n' "$sku" "$name" $((new_price / 100)) $((new_price % 100)) >"$WORK/price.csv"
  t0=$(now_ms)
  (cd "$WORK" && env FERROSHOP_LOG=warn "$BIN" products import "$WORK/price.csv" --database "$DB_URL") >"$WORK/price.log" 2>&1 ||
    { cat "$WORK/price.log" >&2; die "the price import failed"; }
  local imported_ms=$(($(now_ms) - t0)) seen_ms=""
  while (($(now_ms) - t0 < 60000)); do
    if [[ $(curl -s "http://$B$STORE_API/products/$id" | jq -r .prices.regular_price) == "$new_price" ]]; then
      seen_ms=$(($(now_ms) - t0))
      break
    fi
    sleep 0.01
  done
  say "price change of product $id: import ${imported_ms} ms, seen on the second instance after ${seen_ms:-never (60 s)} ms"
  rows+=("| Price change (one-row CSV import) until the second instance shows it | ${seen_ms:-not within 60,000} ms | | | from the import's start; the import itself took ${imported_ms} ms |")

  # The last item: stock 1 (set by import), seen by both, then sold on A.
  read -r id sku price name <<<"$(sed -n 2p <<<"$pick")"
  # A row names every field it keeps: the price goes with the stock.
  printf 'SKU,Name,Regular price,Stock,In stock?\n%s,"%s",%d.%02d,1,1\n' "$sku" "$name" \
    $((price / 100)) $((price % 100)) >"$WORK/stock.csv"
  (cd "$WORK" && env FERROSHOP_LOG=warn "$BIN" products import "$WORK/stock.csv" --database "$DB_URL") >"$WORK/stock.log" 2>&1 ||
    { cat "$WORK/stock.log" >&2; die "the stock import failed"; }
  local i
  for ((i = 0; i < 6000; i++)); do
    [[ $(curl -s "http://$A$STORE_API/products/$id" | jq -c '[.is_in_stock, .add_to_cart.maximum]') == '[true,1]' &&
       $(curl -s "http://$B$STORE_API/products/$id" | jq -c '[.is_in_stock, .add_to_cart.maximum]') == '[true,1]' ]] && break
    sleep 0.01
  done
  ((i < 6000)) || die "product $id does not show stock 1 on both instances"
  t0=$(now_ms)
  local sold
  sold=$(place_order "$A" "$id")
  local placed_ms=$(($(now_ms) - t0))
  seen_ms=""
  while (($(now_ms) - t0 < 60000)); do
    if [[ $(curl -s "http://$B$STORE_API/products/$id" | jq -r .is_in_stock) == false ]]; then
      seen_ms=$(($(now_ms) - t0))
      break
    fi
    sleep 0.01
  done
  say "last item of product $id sold on A (order $sold, ${placed_ms} ms); out of stock on B after ${seen_ms:-never (60 s)} ms"
  rows+=("| Last item sold on A (add-item + checkout) until B shows it out of stock | ${seen_ms:-not within 60,000} ms | | | from the add-item's start; placing the order took ${placed_ms} ms |")

  local hwm rss_end
  hwm=$(mem_kb "$pid_a" VmHWM)
  rss_end=$(mem_kb "$pid_a" VmRSS)
  rows+=("| Memory of instance A | peak (VmHWM) $(mb "$hwm") | | | RSS after start-up $(mb "$rss_start"), at the end $(mb "$rss_end") |")
  stop_pid "$pid_b"
  stop_pid "$pid_a"
  drop_pg_db

  local table
  table=$(printf '%s\n' "#### $label" "" \
    "| Measure | Result | p50 / p99 | Non-2xx / socket errors | Notes |" \
    "|---|---:|---:|---:|---|" "${rows[@]}")
  TABLES+=("$table")
  printf '\n%s\n\n' "$table"
}

# ---- run ------------------------------------------------------------------------------

echo "Scale run $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'): $PRODUCTS catalogue rows, $ORDERS orders, $SESSIONS sessions; wrk -t1 -c2 -d${DURATION}s --latency; uptime:$(uptime)"
run_database sqlite
if [[ -n $PG_URL ]]; then
  run_database postgres
fi
echo
echo "Summary ($PRODUCTS catalogue rows, $ORDERS orders, $SESSIONS sessions; uptime:$(uptime))"
echo
printf '%s\n\n' "${TABLES[@]}"
