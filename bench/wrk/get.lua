-- A plain GET of the URL given to wrk, optionally as a shopper's session:
--   BENCH_CART_TOKEN  sent as the Cart-Token request header when set
--   BENCH_COOKIE      sent as the Cookie request header when set (a page for a shopper)
-- The request is the same every time, so wrk builds it once (no request() here).
local dir = os.getenv("BENCH_WRK_DIR") or debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
dofile(dir .. "/common.lua")

wrk.method = "GET"
local token = os.getenv("BENCH_CART_TOKEN")
if token and token ~= "" then
  wrk.headers["Cart-Token"] = token
end
local cookie = os.getenv("BENCH_COOKIE")
if cookie and cookie ~= "" then
  wrk.headers["Cookie"] = cookie
end
