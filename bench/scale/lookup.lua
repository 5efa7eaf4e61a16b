-- Guest order lookup (POST /wp-json/ferroshop/v1/orders/lookup) of random orders
-- among the generated ones, with the billing e-mail scale.sh gave each: order i
-- belongs to shopper c = 1 + (i * 7919) % 50000, shopper<c>@example.test.
-- Lookups are rate-limited per e-mail and per client address: each request comes
-- from a random X-Forwarded-For address (the server runs with FERROSHOP_TRUST_PROXY),
-- as lookups from many shoppers would. SCALE_CART_TOKEN names the session (no nonce
-- is needed then); SCALE_ORDERS is the highest generated order number.
local orders = tonumber(os.getenv("SCALE_ORDERS") or "2")
local token = os.getenv("SCALE_CART_TOKEN") or ""

function init(args)
  math.randomseed(os.time() * 1000 + (tonumber(tostring({}):match("0x(%x+)"), 16) or 0) % 1000)
end

function request()
  local id = math.random(2, orders)
  local c = 1 + (id * 7919) % 50000
  local body = string.format('{"order_number":"%d","billing_email":"shopper%d@example.test"}', id, c)
  local headers = {
    ["Content-Type"] = "application/json",
    ["Cart-Token"] = token,
    ["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.random(0, 255), math.random(0, 255), math.random(1, 254)),
  }
  return wrk.format("POST", "/wp-json/ferroshop/v1/orders/lookup", headers, body)
end
