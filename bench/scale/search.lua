-- Random searches: a word of bench/scale/make-catalog.py's vocabulary (adjectives,
-- nouns, brands, colours), a third of the time with one typo (a letter dropped,
-- doubled or replaced), plus an unused `r` so the response cache never answers.
local words = {
  "Classic", "Cosy", "Sturdy", "Light", "Bright", "Compact", "Deluxe", "Urban",
  "Alpine", "Coastal", "Midnight", "Everyday", "Vintage", "Modern", "Rugged",
  "Hoodie", "Tee", "Jacket", "Mug", "Lamp", "Tent", "Bottle", "Speaker", "Cable",
  "Puzzle", "Blanket", "Cap", "Backpack", "Pan", "Charger", "Sock", "Helmet",
  "Northwind", "Lumen", "Boreal", "Fjord", "Kestrel", "Ridge", "Saltmarsh", "Tandem",
  "Red", "Blue", "Green", "Black", "White", "Grey", "Navy", "Teal",
}
local letters = "abcdefghijklmnopqrstuvwxyz"

function init(args)
  math.randomseed(os.time() * 1000 + (tonumber(tostring({}):match("0x(%x+)"), 16) or 0) % 1000)
end

local function typo(w)
  local i = math.random(1, #w)
  local k = math.random(3)
  if k == 1 and #w > 3 then
    return w:sub(1, i - 1) .. w:sub(i + 1)
  elseif k == 2 then
    return w:sub(1, i) .. w:sub(i)
  end
  local c = math.random(#letters)
  return w:sub(1, i - 1) .. letters:sub(c, c) .. w:sub(i + 1)
end

function request()
  local w = words[math.random(#words)]:lower()
  if math.random(3) == 1 then
    w = typo(w)
  end
  local path = string.format("/wp-json/wc/store/v1/products?search=%s&per_page=12&r=%d",
    w, math.random(1, 1000000000))
  return wrk.format("GET", path)
end
