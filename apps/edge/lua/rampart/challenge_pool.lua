-- The node's challenge image pool (apps/edge/src/challenge-pool; docs/decisions.md "The code and
-- slider challenges"): the agent draws code images and slider puzzles and pushes them here with
-- their answers (admin PUT /challenge/pool). The answers never leave the node: a challenge page gets
-- a signed token naming a pool entry, and the images through CHALLENGE_PATH?i=<token>.
--
-- Dict `rampart_challenge_pool` (written with safe_set: a full dict refuses a pool rather than
-- evicting the one in use):
--   pools             "<current id>:<codes>:<sliders>:<pushed at>|<previous id>:<codes>:<sliders>:<at>"
--   <id>:k:<i>        code image i (PNG bytes), <id>:ka:<i> its answer (upper case)
--   <id>:d:<i>:b      slider puzzle i's background, <id>:d:<i>:p its piece, <id>:da:<i> "x,y"
-- A push makes the new pool current, keeps the one before it answerable (a page shown just before a
-- refresh can still be answered), and deletes the one before that.
local checks = require "rampart.checks"

local _M = {}

local dict = ngx.shared.rampart_challenge_pool
local decode_base64 = ngx.decode_base64
local tonumber, type, concat, re_find, is_int = tonumber, type, table.concat, ngx.re.find, checks.is_int

-- Bounds of a pushed pool (the agent's pool is 64 + 32 entries of ~14 KB).
local MAX_ENTRIES, MAX_IMAGE = 256, 256 * 1024
local SLIDER_WIDTH, SLIDER_HEIGHT = 300, 150

local function parse_pool(s)
  if not s then return nil end
  local id, codes, sliders, at = s:match("^(%x+):(%d+):(%d+):(%d+)$")
  if not id then return nil end
  return { id = id, codes = tonumber(codes), sliders = tonumber(sliders), at = tonumber(at) }
end

local function pools()
  local raw = dict:get("pools")
  if raw == nil then return nil, nil end
  local current, previous = raw:match("^([^|]*)|?(.*)$")
  return parse_pool(current), parse_pool(previous)
end

local function pool_text(p)
  return concat({ p.id, p.codes, p.sliders, p.at }, ":")
end

local function delete_pool(p)
  for i = 0, p.codes - 1 do
    dict:delete(p.id .. ":k:" .. i)
    dict:delete(p.id .. ":ka:" .. i)
  end
  for i = 0, p.sliders - 1 do
    dict:delete(p.id .. ":d:" .. i .. ":b")
    dict:delete(p.id .. ":d:" .. i .. ":p")
    dict:delete(p.id .. ":da:" .. i)
  end
end

local function image(b64)
  if type(b64) ~= "string" or #b64 > MAX_IMAGE * 4 / 3 + 4 then return nil end
  local bytes = decode_base64(b64)
  -- A PNG: its signature.
  if bytes == nil or bytes:sub(1, 8) ~= "\137PNG\r\n\26\n" then return nil end
  return bytes
end

-- Checks a pushed pool; answers the decoded entries or nil, the field and the reason.
local function check(doc)
  if type(doc) ~= "table" then return nil, "(body)", "not a JSON object" end
  if type(doc.id) ~= "string" or not doc.id:find("^%x%x%x%x%x%x%x%x$") then return nil, "id", "not 8 hex characters" end
  local code, slider = doc.code, doc.slider
  if type(code) ~= "table" or #code < 1 or #code > MAX_ENTRIES then return nil, "code", "1 to 256 entries" end
  if type(slider) ~= "table" or #slider < 1 or #slider > MAX_ENTRIES then return nil, "slider", "1 to 256 entries" end
  local codes, sliders = {}, {}
  for i, e in ipairs(code) do
    local png = type(e) == "table" and image(e.image)
    if not png then return nil, "code[" .. i .. "].image", "not a base64 PNG" end
    if type(e.answer) ~= "string" or not re_find(e.answer, [[^[A-Z0-9]{4,8}\z]], "jo") then
      return nil, "code[" .. i .. "].answer", "4 to 8 of A-Z and 0-9"
    end
    codes[i] = { png, e.answer }
  end
  for i, e in ipairs(slider) do
    if type(e) ~= "table" then return nil, "slider[" .. i .. "]", "not an object" end
    local b, p = image(e.background), image(e.piece)
    if not b then return nil, "slider[" .. i .. "].background", "not a base64 PNG" end
    if not p then return nil, "slider[" .. i .. "].piece", "not a base64 PNG" end
    if not is_int(e.x, 0, SLIDER_WIDTH) then return nil, "slider[" .. i .. "].x", "an integer 0-300" end
    if not is_int(e.y, 0, SLIDER_HEIGHT) then return nil, "slider[" .. i .. "].y", "an integer 0-150" end
    sliders[i] = { b, p, e.x .. "," .. e.y }
  end
  return { id = doc.id, codes = codes, sliders = sliders }
end

local function set(key, value)
  local ok, err = dict:safe_set(key, value)
  if not ok then error("challenge pool dict: " .. tostring(err)) end
end

-- PUT /challenge/pool (rampart.admin): answers {id, codes, sliders} or nil, field, reason.
function _M.put(doc)
  local pool, field, reason = check(doc)
  if pool == nil then return nil, field, reason end
  local current, previous = pools()
  if current and current.id == pool.id then return nil, "id", "that pool is already current" end
  -- Room first: the pool before the previous one goes before the new one is written.
  if previous then delete_pool(previous) end
  local ok, err = pcall(function()
    for i, e in ipairs(pool.codes) do
      set(pool.id .. ":k:" .. (i - 1), e[1])
      set(pool.id .. ":ka:" .. (i - 1), e[2])
    end
    for i, e in ipairs(pool.sliders) do
      set(pool.id .. ":d:" .. (i - 1) .. ":b", e[1])
      set(pool.id .. ":d:" .. (i - 1) .. ":p", e[2])
      set(pool.id .. ":da:" .. (i - 1), e[3])
    end
  end)
  local new = { id = pool.id, codes = #pool.codes, sliders = #pool.sliders, at = ngx.time() }
  if not ok then
    -- Nothing half-written stays: the new pool's entries go, the current pool stays in use.
    delete_pool(new)
    ngx.log(ngx.ERR, "rampart challenge pool: ", err)
    return nil, "(body)", "the pool does not fit in the rampart_challenge_pool dict"
  end
  set("pools", pool_text(new) .. (current and ("|" .. pool_text(current)) or ""))
  return { id = new.id, codes = new.codes, sliders = new.sliders }
end

-- GET /challenge/pool: {id, age} of the current pool, or nil when there is none.
function _M.status()
  local current = pools()
  if current == nil then return nil end
  return { id = current.id, age = math.max(0, ngx.time() - current.at) }
end

-- A random entry of the current pool for `kind` ("k" code, "d" slider): pool id and index, or nil.
-- `r` is a random number 0–65535 (from the token's random bytes).
function _M.pick(kind, r)
  local current = pools()
  if current == nil then return nil end
  local n = kind == "k" and current.codes or current.sliders
  if n == 0 then return nil end
  return current.id, r % n
end

-- The PNG of an entry: kind "k" (part ignored) or "d" with part "b" (background) or "p" (piece).
function _M.image(id, kind, index, part)
  if kind == "k" then return dict:get(id .. ":k:" .. index) end
  if part ~= "b" and part ~= "p" then return nil end
  return dict:get(id .. ":d:" .. index .. ":" .. part)
end

-- The answer of an entry: the code (upper case), or the slider's x and y; nil when the pool is gone.
function _M.answer(id, kind, index)
  if kind == "k" then return dict:get(id .. ":ka:" .. index) end
  local xy = dict:get(id .. ":da:" .. index)
  if xy == nil then return nil end
  local x, y = xy:match("^(%d+),(%d+)$")
  return tonumber(x), tonumber(y)
end

return _M
