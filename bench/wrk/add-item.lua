-- POST /cart/add-item across many sessions: request k of a thread carries the
-- Cart-Token of one session, rotating through the thread's share of the tokens (the
-- threads take disjoint shares, so one session is never written by two threads at
-- once), and adds one unit of that session's product.
--   BENCH_TOKENS_FILE  one Cart-Token per line (1,000 sessions)
--   BENCH_PRODUCT_IDS  purchasable in-stock simple products, comma-separated;
--                      session i always adds product i mod n (one cart line per
--                      session, whose quantity grows by 1 per request)
local dir = os.getenv("BENCH_WRK_DIR") or debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
dofile(dir .. "/common.lua")

local tokens = {}
local tokens_file = os.getenv("BENCH_TOKENS_FILE")
assert(tokens_file, "BENCH_TOKENS_FILE is not set")
for line in io.lines(tokens_file) do
  if line ~= "" then
    tokens[#tokens + 1] = line
  end
end
assert(#tokens > 0, "no tokens in BENCH_TOKENS_FILE")

local ids = {}
for id in string.gmatch(os.getenv("BENCH_PRODUCT_IDS") or "", "%d+") do
  ids[#ids + 1] = id
end
assert(#ids > 0, "BENCH_PRODUCT_IDS names no product")

local requests = {}
local next_request = 1

function init(args)
  local nthreads = tonumber(os.getenv("BENCH_THREADS") or "") or 2
  local me = thread_index or 0
  for i = 1, #tokens do
    if (i - 1) % nthreads == me then
      local body = string.format('{"id":%s,"quantity":1}', ids[(i - 1) % #ids + 1])
      requests[#requests + 1] = wrk.format("POST", wrk.path, {
        ["Cart-Token"] = tokens[i],
        ["Content-Type"] = "application/json",
      }, body)
    end
  end
  next_request = 1 + (me * 7) % #requests
end

function request()
  local r = requests[next_request]
  next_request = next_request % #requests + 1
  return r
end
