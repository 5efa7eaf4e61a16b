-- The URL given to wrk, every time, with optional request headers:
--   SCALE_COOKIE      sent as Cookie (a signed-in customer's cookies)
--   SCALE_CART_TOKEN  sent as Cart-Token (a shopper's session)
wrk.method = "GET"
local cookie = os.getenv("SCALE_COOKIE")
if cookie and cookie ~= "" then
  wrk.headers["Cookie"] = cookie
end
local token = os.getenv("SCALE_CART_TOKEN")
if token and token ~= "" then
  wrk.headers["Cart-Token"] = token
end
