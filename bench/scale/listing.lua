-- Random uncached catalogue pages:
--   /wp-json/wc/store/v1/products?per_page=12&page=<1..SCALE_PAGES>&orderby=<…>&r=<random>
-- The unused `r` makes every URL new, so the server's response cache never answers.
local pages = tonumber(os.getenv("SCALE_PAGES") or "1")
local orders = { "price", "date", "title", "popularity", "menu_order" }

function init(args)
  math.randomseed(os.time() * 1000 + (tonumber(tostring({}):match("0x(%x+)"), 16) or 0) % 1000)
end

function request()
  local path = string.format("/wp-json/wc/store/v1/products?per_page=12&page=%d&orderby=%s&r=%d",
    math.random(1, pages), orders[math.random(#orders)], math.random(1, 1000000000))
  return wrk.format("GET", path)
end
