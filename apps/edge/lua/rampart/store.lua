-- The data plane in the `rampart_config` shared dict, and per-worker caches of decoded entries.
--
-- Every entry is "<kind>:<id>" (kinds below) under two keys, "<crc32 of it, hex>|e|<kind>:<id>"
-- (its newest record) and "…|p|<kind>:<id>" (the record before it, while a request may still
-- need it). A record is "[<1xx>,<version>,"<hash>",<value>,<1yyy>]": the version (apply number)
-- that wrote it, the 48-bit hash the agent gave it (12 hex digits, "" for a whole-document push),
-- and the value (null: deleted at that version).
--   current        the active version: a request reads it once and, for every entry, takes the
--                  newest record at or below it, so an apply is seen whole or not at all
--   pending        the version an apply is writing (a worker that died half-way leaves it)
--   c|<version>    the entries that version changed (JSON list), or "*" (all: a whole push);
--                  each worker's caches forget those names when they meet the version
--   gc             the versions whose superseded records go once no request can read them
-- Kinds:
--   d:<name>       a domain, <name> exact or "*.parent"
--   c:<id>         a certificate {cert, key}
--   p:<id>         a site's cache policy {id, generation, rules}
--   m:<id>         a site module {id, type, …} (rampart.modules)
--   s:<id>         a site's settings {id, gzip, rates, language, pages}
--   f:<id>         a site's firewall {id, whitelist, blacklist, userAgents, intervals, rates} (rampart.firewall)
--   a:<host>/<token>  an ACME HTTP-01 key authorization (a string; rampart.router)
--   x:             the challenge keys {keys, passSeconds} (rampart.challenge)
--   pages:         the operator's default pages (rampart.pages)
--   n:             the node's values compiled into cached domains {cacheEpoch}
--   meta:          {version, generation, domains, certificates, acme, limits, hash, sum, geoDatabase, abuseIPs}
--
-- Why the hashes and the record framing: LuaJIT (Debian's luajit2 build) interns every string and
-- hashes only four 4-byte windows of it (first, last, middle, quarter). Thousands of same-length
-- strings that differ elsewhere — keys for similar host names, JSON entries that differ only in an
-- id — land in one hash chain and interning turns quadratic (a 50,000-domain push took 15 s instead
-- of 1 s, depending on the per-process key order cjson happened to use). A key therefore starts with
-- a hash of its id, and a record starts and ends with small numbers that differ per entry.
local bit = require "bit"
local cache = require "rampart.cache"
local cjson = require "cjson.safe"

local _M = {}

local dict = ngx.shared.rampart_config
_M.dict = dict

local tohex, crc32, floor = bit.tohex, ngx.crc32_short, math.floor
local find, sub, byte = string.find, string.sub, string.byte
local null = cjson.null

-- The key of entry `kk` ("<kind>:<id>") in slot `slot` ("e" newest, "p" the one before).
local function slot_key(slot, kk)
  return tohex(crc32(kk)) .. "|" .. slot .. "|" .. kk
end
_M.slot_key = slot_key

-- Record number i (1-based within an apply) of `value` (cjson.null: deleted) at `version` with
-- `hash`: distinct first and last four bytes for every i below 100,000 (see the note at the top).
-- Encoded in one call: the value's own JSON as a string of its own would be the similar strings
-- the framing is there to avoid (a 50,000-domain push took 30 s instead of 1.5).
function _M.record(i, version, hash, value)
  return cjson.encode({ 100 + i % 100, version, hash, value, 1000 + floor(i / 100) % 1000 })
end

-- The version a record was written at ("[1xx," is always five bytes).
local function version_of(raw)
  local comma = find(raw, ",", 6, true)
  return comma and tonumber(sub(raw, 6, comma - 1)) or 0
end
_M.version_of = version_of

-- A record's hash and whether it holds a value (not a deletion), read without decoding it.
function _M.record_state(raw)
  if raw == nil then return nil, false end
  local open = find(raw, ',"', 6, true)
  local close = open and find(raw, '",', open + 2, true)
  if close == nil then return nil, false end
  return sub(raw, open + 2, close - 1), sub(raw, close + 2, close + 6) ~= "null,"
end

-- The raw record of entry `kk` that version `gen` reads: the newest at or below it, or nil.
local function raw_at(gen, kk)
  local raw = dict:get(slot_key("e", kk))
  if raw == nil then return nil end
  if version_of(raw) <= gen then return raw end
  -- Written after this request read `current`: the record before it (nil when the entry is newer).
  raw = dict:get(slot_key("p", kk))
  if raw ~= nil and version_of(raw) <= gen then return raw end
  return nil
end

-- Entry `kk`'s value as version `gen` sees it, decoded, or nil.
local function read(gen, kk)
  local raw = raw_at(gen, kk)
  if raw == nil then return nil end
  local r = cjson.decode(raw)
  if type(r) ~= "table" then return nil end
  local value = r[4]
  if value == null then return nil end
  return value
end
_M.read = read

-- Decoded entries, per worker, keyed by the name itself (no key to build per request). A worker
-- meeting a newer version forgets the names it changed (`c|<version>`), or everything when it
-- cannot tell; `_M.epoch` counts those flushes, and what is compiled from more than one entry
-- (rampart.firewall, rampart.compiled_modules, certificates) is kept per epoch.
local cache_get, cache_set, cache_delete = cache.get, cache.set, cache.delete
local FOUND_SIZE, MISSING_SIZE = 20000, 5000
local SYNC_MAX = 64
local cache_gen, found, missing = nil, cache.new(FOUND_SIZE), cache.new(MISSING_SIZE)
_M.epoch = 0

-- Called with a version when this worker's lookups first meet it (rampart.limits reads its
-- settings then, so requests pay nothing for them).
_M.on_generation = nil

local function flush()
  found = cache.new(FOUND_SIZE)
  missing = cache.new(MISSING_SIZE)
  _M.epoch = _M.epoch + 1
end

-- Kinds whose change leaves cached domains stale (they hold what was compiled from them).
local FLUSH_KINDS = { c = true, p = true, m = true, s = true, f = true, n = true }

-- Brings this worker's caches from cache_gen to `gen`.
local function sync(gen)
  if cache_gen == nil or gen < cache_gen or gen - cache_gen > SYNC_MAX then
    flush()
    return
  end
  local names = {}
  for v = cache_gen + 1, gen do
    local list = dict:get("c|" .. v)
    if list == nil or list == "*" then
      flush()
      return
    end
    local changed = cjson.decode(list)
    if type(changed) ~= "table" then
      flush()
      return
    end
    for _, kk in ipairs(changed) do
      local colon = find(kk, ":", 1, true)
      local kind = colon and sub(kk, 1, colon - 1) or kk
      if FLUSH_KINDS[kind] then
        flush()
        return
      end
      if kind == "d" then
        -- A wildcard entry also stands behind every host it served: forget them all.
        if byte(kk, 3) == 42 then
          flush()
          return
        end
        names[#names + 1] = sub(kk, 3)
      end
    end
  end
  for _, name in ipairs(names) do
    cache_delete(found, name)
    cache_delete(missing, name)
  end
end

local function caches(gen)
  if gen ~= cache_gen then
    sync(gen)
    cache_gen = gen
    if _M.on_generation then _M.on_generation(gen) end
  end
  return found, missing
end

function _M.generation()
  return dict:get("current")
end

-- The entries by kind, as version `gen` sees them (nil when absent).
function _M.firewall(gen, id) return read(gen, "f:" .. id) end -- compiled and memoized by rampart.firewall
function _M.site_settings(gen, id) return read(gen, "s:" .. id) end -- memoized by rampart.settings
-- Called once per domain entry and worker (the router memoizes the compiled policy on the cached
-- domain), so no cache of its own.
function _M.cache_policy(gen, id) return read(gen, "p:" .. id) end
function _M.module(gen, id) return read(gen, "m:" .. id) end -- memoized by rampart.modules per domain entry
function _M.certificate(gen, id) return read(gen, "c:" .. id) end
function _M.acme(gen, host, token) return read(gen, "a:" .. host .. "/" .. token) end
function _M.challenge_keys(gen) return read(gen, "x:") end

-- The meta entry of version `gen`, decoded once per worker and version; nil while it is missing
-- or not an object (read again on the next call).
local meta_gen, meta_value = nil, nil
function _M.meta(gen)
  if gen ~= meta_gen then
    local meta = read(gen, "meta:")
    if type(meta) ~= "table" then return nil end
    meta_gen, meta_value = gen, meta
  end
  return meta_value
end

-- A string field of version `gen`'s meta entry (the geo database's or reputation list's hash), or nil.
function _M.meta_string(gen, field)
  local meta = _M.meta(gen)
  local v = meta and meta[field]
  return type(v) == "string" and v or nil
end

-- The node's cache epoch in version `gen` (part of every cache key), read once per worker and version.
local epoch_gen, epoch_value = nil, 0
function _M.cache_epoch(gen)
  if gen ~= epoch_gen then
    local node = read(gen, "n:")
    epoch_value = type(node) == "table" and tonumber(node.cacheEpoch) or 0
    epoch_gen = gen
  end
  return epoch_value
end

-- The operator's default pages of version `gen` by status (empty when it has none), decoded once
-- per worker and version.
local pages_gen, pages_value = nil, {}
function _M.operator_pages(gen)
  if gen ~= pages_gen then
    local list = read(gen, "pages:")
    local pages = {}
    if type(list) == "table" then
      for _, page in ipairs(list) do pages[page.status] = page.body end
    end
    pages_gen, pages_value = gen, pages
  end
  return pages_value
end

-- The decoded domain stored under exactly `name` in version `gen`, or nil.
local function entry(gen, name)
  local hits, misses = caches(gen)
  local domain = cache_get(hits, name)
  if domain then return domain end
  if cache_get(misses, name) then return nil end
  domain = read(gen, "d:" .. name)
  if domain == nil then
    cache_set(misses, name, true)
    return nil
  end
  -- Derived once per worker and version, not per request.
  domain._redirect_code = tostring(domain.forceSSLCode)
  domain._id = tostring(domain.id)
  cache_set(hits, name, domain)
  return domain
end

-- Exact name first, then the wildcard one level up: a.b.example.com → *.b.example.com.
function _M.find_domain(gen, host)
  local domain = entry(gen, host)
  if domain then return domain end
  local dot = host:find(".", 1, true)
  if dot then return entry(gen, "*" .. host:sub(dot)) end
  return nil
end

-- The domain this worker routed `host` to in its current cache version, without reading the
-- shared dict: for the balancer, right after the router looked the host up in the same request.
-- Falls back to a full lookup when the cache moved on in between.
function _M.routed(host)
  local domain = cache_get(found, host)
  if domain then return domain end
  return (_M.lookup(host))
end

-- The domain the router found for the request it routed last (rampart.router: request_routed), so
-- the balancer of that request takes it without reading $host again (a Lua string made and looked
-- up per request). Another request routed in between (a body read, a wait, a retry later) makes the
-- balancer look its host up again, as routed() does.
local routed_r, routed_domain = nil, nil
local get_request = require("resty.core.base").get_request

function _M.request_routed(domain)
  routed_r, routed_domain = get_request(), domain
end

function _M.request_domain()
  local r = get_request()
  if r ~= nil and r == routed_r then return routed_domain end
  return _M.routed(ngx.var.host)
end

local STAR = 42
local HOST_RE = [[^[a-z0-9_-]+(\.[a-z0-9_-]+)+\z]]

-- host (already lower-case, no port) → domain, version. A host is checked against the pattern
-- only when it is not in the cache (a cached name passed it before).
function _M.lookup(host)
  local gen = _M.generation()
  if gen == nil then return nil, nil end
  local hits = caches(gen)
  -- "*.x" keys hold wildcard entries; a Host header that is literally "*.x" must not reach them.
  local cached = byte(host, 1) ~= STAR and cache_get(hits, host)
  if cached then return cached, gen end
  if #host > 253 or not ngx.re.find(host, HOST_RE, "jo") then return nil, gen end
  local domain = _M.find_domain(gen, host)
  -- A host served by a wildcard entry is remembered under its own name too.
  if domain then cache_set(hits, host, domain) end
  return domain, gen
end

return _M
