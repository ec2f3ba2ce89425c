-- The data plane in the `rampart_config` shared dict, and per-worker caches of decoded entries.
--
-- Keys (every generation key reads "<crc32 of its id, hex>|g<N>|<kind>:<id>"):
--   current             the active generation (a number)
--   gen_seq             the last generation number handed out
--   …|g<N>|d:<name>     a domain, <name> exact or "*.parent"
--   …|g<N>|c:<id>       a certificate {cert, key}
--   …|g<N>|p:<id>       a site's cache policy {id, generation, rules}
--   …|g<N>|m:<id>       a site module {id, type, …} (rampart.modules)
--   …|g<N>|s:<id>       a site's settings {id, gzip, rates, language, pages}
--   …|g<N>|f:<id>       a site's firewall {id, whitelist, blacklist, userAgents, intervals, rates} (rampart.firewall)
--   …|g<N>|meta:        {version, generation, domains, certificates, cacheEpoch, limits}
--   …|g<N>|x:           the challenge keys {keys, passSeconds} (rampart.challenge)
--   …|g<N>|a:<host>/<token>  an ACME HTTP-01 key authorization (a plain string; rampart.router)
--   …|g<N>|keys:        every key of generation N, to retire it later
-- A generation is written completely before `current` points at it and never changes afterwards,
-- so a cache keyed by generation never needs invalidating.
--
-- Why the hashes and the entry framing: LuaJIT (Debian's luajit2 build) interns every string and
-- hashes only four 4-byte windows of it (first, last, middle, quarter). Thousands of same-length
-- strings that differ elsewhere — keys for similar host names, JSON entries that differ only in an
-- id — land in one hash chain and interning turns quadratic (a 50,000-domain push took 15 s instead
-- of 1 s, depending on the per-process key order cjson happened to use). A key therefore starts with
-- a hash of its id, and an entry is encoded as [<a>, value, <b>] with small numbers that differ per
-- entry in the first and last four bytes.
local bit = require "bit"
local cache = require "rampart.cache"
local cjson = require "cjson.safe"

local _M = {}

local dict = ngx.shared.rampart_config
_M.dict = dict

-- Decoded entries of one generation, per worker, keyed by the name itself (no key to build per
-- request). A new generation starts new caches; the old ones are garbage.
local cache_get, cache_set = cache.get, cache.set
local FOUND_SIZE, MISSING_SIZE = 20000, 5000
local cache_gen, found, missing = nil, nil, nil

-- Called with a generation when this worker's lookups first meet it (rampart.limits reads its
-- settings then, so requests pay nothing for them).
_M.on_generation = nil

local function caches(gen)
  if gen ~= cache_gen then
    found = cache.new(FOUND_SIZE)
    missing = cache.new(MISSING_SIZE)
    cache_gen = gen
    if _M.on_generation then _M.on_generation(gen) end
  end
  return found, missing
end

local tohex, crc32, floor = bit.tohex, ngx.crc32_short, math.floor

local function key(gen, kind, id)
  return tohex(crc32(id)) .. "|g" .. gen .. "|" .. kind .. ":" .. id
end

function _M.domain_key(gen, name) return key(gen, "d", name) end
function _M.certificate_key(gen, id) return key(gen, "c", tostring(id)) end
function _M.cache_key(gen, id) return key(gen, "p", tostring(id)) end
function _M.settings_key(gen, id) return key(gen, "s", tostring(id)) end
function _M.firewall_key(gen, id) return key(gen, "f", tostring(id)) end
function _M.acme_key(gen, host, token) return key(gen, "a", host .. "/" .. token) end

-- The site firewall `id` of generation `gen`, decoded, or nil (compiled and memoized by rampart.firewall).
function _M.firewall(gen, id)
  local raw = dict:get(_M.firewall_key(gen, id))
  if raw == nil then return nil end
  return _M.decode_entry(raw)
end

-- The site settings `id` of generation `gen`, decoded, or nil (memoized by rampart.settings).
function _M.site_settings(gen, id)
  local raw = dict:get(_M.settings_key(gen, id))
  if raw == nil then return nil end
  return _M.decode_entry(raw)
end

-- The cache policy `id` of generation `gen`, decoded, or nil. Called once per domain entry and
-- worker (the router memoizes the compiled policy on the cached domain), so no cache of its own.
function _M.cache_policy(gen, id)
  local raw = dict:get(_M.cache_key(gen, id))
  if raw == nil then return nil end
  return _M.decode_entry(raw)
end
function _M.module_key(gen, id) return key(gen, "m", tostring(id)) end

-- The site module `id` of generation `gen`, decoded, or nil (memoized by rampart.modules per domain entry).
function _M.module(gen, id)
  local raw = dict:get(_M.module_key(gen, id))
  if raw == nil then return nil end
  return _M.decode_entry(raw)
end
function _M.meta_key(gen) return key(gen, "meta", "") end

-- The meta entry of generation `gen`, decoded once per worker and generation; nil while it is
-- missing or not an object (read again on the next call).
local meta_gen, meta_value = nil, nil
function _M.meta(gen)
  if gen ~= meta_gen then
    local meta = cjson.decode(dict:get(_M.meta_key(gen)) or "")
    if type(meta) ~= "table" then return nil end
    meta_gen, meta_value = gen, meta
  end
  return meta_value
end

-- A string field of generation `gen`'s meta entry (the geo database's or reputation list's hash), or nil.
function _M.meta_string(gen, field)
  local meta = _M.meta(gen)
  local v = meta and meta[field]
  return type(v) == "string" and v or nil
end

-- The node's cache epoch in generation `gen` (part of every cache key), read from the meta entry
-- once per worker and generation.
local epoch_gen, epoch_value = nil, 0
function _M.cache_epoch(gen)
  if gen ~= epoch_gen then
    local meta = _M.meta(gen)
    epoch_value = meta and tonumber(meta.cacheEpoch) or 0
    epoch_gen = gen
  end
  return epoch_value
end
function _M.keys_key(gen) return key(gen, "keys", "") end
function _M.pages_key(gen) return key(gen, "pages", "") end

-- The operator's default pages of generation `gen` by status (empty when it has none), decoded
-- once per worker and generation.
local pages_gen, pages_value = nil, {}
function _M.operator_pages(gen)
  if gen ~= pages_gen then
    local list = cjson.decode(dict:get(_M.pages_key(gen)) or "")
    local pages = {}
    if type(list) == "table" then
      for _, page in ipairs(list) do pages[page.status] = page.body end
    end
    pages_gen, pages_value = gen, pages
  end
  return pages_value
end
function _M.challenge_key(gen) return key(gen, "x", "") end

-- The generation a key belongs to, or nil for the global keys.
function _M.generation_of(k)
  local gen = k:match("^%x+|g(%d+)|")
  return gen and tonumber(gen) or nil
end

-- Entry number i (1-based within a push) → "[1xx,<json>,1yyy]": distinct first and last four
-- bytes for every i below 100,000 (see the note at the top).
function _M.encode_entry(i, value)
  return cjson.encode({ 100 + i % 100, value, 1000 + floor(i / 100) % 1000 })
end

function _M.decode_entry(raw)
  local framed = cjson.decode(raw)
  return type(framed) == "table" and framed[2] or nil
end

function _M.generation()
  return dict:get("current")
end

-- The decoded domain stored under exactly `name` in generation `gen`, or nil.
local function entry(gen, name)
  local hits, misses = caches(gen)
  local domain = cache_get(hits, name)
  if domain then return domain end
  if cache_get(misses, name) then return nil end
  local raw = dict:get(_M.domain_key(gen, name))
  if raw == nil then
    cache_set(misses, name, true)
    return nil
  end
  domain = assert(_M.decode_entry(raw), "undecodable domain entry")
  -- Derived once per worker and generation, not per request.
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

-- The domain this worker routed `host` to in its current cache generation, without reading the
-- shared dict: for the balancer, right after the router looked the host up in the same request.
-- Falls back to a full lookup when the cache moved on in between.
function _M.routed(host)
  local domain = found and cache_get(found, host)
  if domain then return domain end
  return (_M.lookup(host))
end

local byte, STAR = string.byte, 42
local HOST_RE = [[^[a-z0-9_-]+(\.[a-z0-9_-]+)+\z]]

-- host (already lower-case, no port) → domain, generation. A miss is retried once against a newer
-- generation: a push may have retired the one read first between the two dict reads. A host is
-- checked against the pattern only when it is not in the cache (a cached name passed it before).
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
  if domain == nil then
    local latest = _M.generation()
    if latest ~= gen then return _M.find_domain(latest, host), latest end
  end
  return domain, gen
end

return _M
