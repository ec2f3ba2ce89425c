-- The site firewall's geo rules at the edge (packages/contract/src/routes/firewall-geos.ts,
-- packages/contract/src/edge/geo.ts; docs/decisions.md "Geo rules"), called by rampart.firewall
-- after the blacklist and before the user-agent rules.
--
-- The geo database is the operator's MaxMind DB file: the agent keeps it as <geo dir>/<sha256>.mmdb
-- (the directory comes from nginx.conf, the hash from the data plane's `geoDatabase`), and each
-- worker opens it with libmaxminddb (LuaJIT FFI on libmaxminddb.so.0) the first time a request
-- meets a generation naming a hash it has not opened: a new database needs no reload. A node
-- without one (none uploaded, the file missing or unreadable; tried again every 5 s) matches no region: black rules block
-- nothing, white rules block every request they cover (its address is in no listed region), and
-- the error log says once per worker and hash why the database is missing.
--
-- Per request, only for a site with geo rules: one lookup of the client address (rampart.firewall's
-- binary one, after realip) per worker and address while it stays in a small LRU cache, then a table index
-- per rule. Runs in set_by_lua: nothing here yields.
local ffi = require "ffi"
local lrucache = require "resty.lrucache"
local checks = require "rampart.checks"
local store = require "rampart.store"
local request_url = require "rampart.request_url"

local _M = {}

ffi.cdef [[
typedef struct rampart_mmdb_s rampart_mmdb_s;
typedef struct {
  const rampart_mmdb_s *mmdb;
  uint32_t offset;
} rampart_mmdb_entry_s;
typedef struct {
  bool found_entry;
  rampart_mmdb_entry_s entry;
  uint16_t netmask;
} rampart_mmdb_lookup_result_s;
/* MMDB_entry_data_s of libmaxminddb 1.7 on x86-64: its union holds an unsigned __int128, so it
   starts at offset 16 and is 16 bytes long. Only the fields read here are named. */
typedef struct {
  bool has_data;
  uint8_t pad1[15];
  union { const char *utf8_string; uint32_t uint32; uint16_t uint16; uint64_t uint64; } value;
  uint8_t pad2[8];
  uint32_t offset;
  uint32_t offset_to_next;
  uint32_t data_size;
  uint32_t type;
} rampart_mmdb_entry_data_s;
int MMDB_open(const char *const filename, uint32_t flags, rampart_mmdb_s *const mmdb);
rampart_mmdb_lookup_result_s MMDB_lookup_string(const rampart_mmdb_s *const mmdb, const char *const ipstr,
  int *const gai_error, int *const mmdb_error);
int MMDB_aget_value(rampart_mmdb_entry_s *const start, rampart_mmdb_entry_data_s *const entry_data,
  const char *const *const path);
void MMDB_close(rampart_mmdb_s *const mmdb);
const char *MMDB_strerror(int error_code);
const char *inet_ntop(int af, const void *src, char *dst, uint32_t size);
]]

local MMDB_SUCCESS = 0
local TYPE_UTF8_STRING, TYPE_UINT16, TYPE_UINT32 = 2, 5, 6
-- sizeof(MMDB_s) is about 200 bytes in 1.7; a generous, 16-aligned buffer holds it.
local MMDB_S_BYTES = 1024

local libmaxminddb, lib_error
do
  local ok, lib = pcall(ffi.load, "maxminddb.so.0")
  if ok then libmaxminddb = lib else lib_error = tostring(lib) end
end

local geo_dir = nil

-- Called by rampart.init in the master with the directory the agent keeps databases in.
function _M.configure(dir)
  geo_dir = dir
end

-- Validation (rampart.firewall_check): the same allowlists as edgeGeoRuleSchema, from the contract
-- (rampart.contract_limits: FIREWALL_LIST_RULES_PER_SITE, GEO_RULE_REGIONS_MAX, GEO_COUNTRY_ID_RE).
local contract_limits = require "rampart.contract_limits"
local MAX_RULES, MAX_REGIONS = contract_limits.FIREWALL_LIST_RULES_PER_SITE, contract_limits.GEO_RULE_REGIONS_MAX
local COUNTRY_RE = contract_limits.GEO_COUNTRY_ID_RE
-- The blocking actions and the challenges (rampart.checks).
local RULE_ACTIONS = checks.RULE_ACTIONS
local re_find = ngx.re.find
local is_int, is_list = checks.is_int, checks.is_array

-- rules (decoded JSON) → a clean copy, or nil, field, reason. `url_problem` is firewall_check's.
function _M.check_rules(rules, path, url_problem)
  if rules == nil then return {} end
  if not is_list(rules, MAX_RULES) then return nil, path, "not a list of at most " .. MAX_RULES end
  local clean = {}
  for i, r in ipairs(rules) do
    local at = path .. "[" .. (i - 1) .. "]"
    if type(r) ~= "table" then return nil, at, "not an object" end
    if not is_int(r.id, 1, 2147483647) then return nil, at .. ".id", "not an id" end
    local problem = url_problem(r.url)
    if problem then return nil, at .. ".url", problem end
    if type(r.white) ~= "boolean" then return nil, at .. ".white", "not a boolean" end
    if not is_list(r.countries, MAX_REGIONS) then return nil, at .. ".countries", "not a list of at most " .. MAX_REGIONS end
    local countries = {}
    for j, c in ipairs(r.countries) do
      if type(c) ~= "string" or not re_find(c, COUNTRY_RE, "jo") then
        return nil, at .. ".countries[" .. (j - 1) .. "]", "not an alpha-2 code"
      end
      countries[j] = c
    end
    if not is_list(r.cities, MAX_REGIONS) then return nil, at .. ".cities", "not a list of at most " .. MAX_REGIONS end
    local cities = {}
    for j, c in ipairs(r.cities) do
      if not is_int(c, 1, 4294967295) then return nil, at .. ".cities[" .. (j - 1) .. "]", "not a city id" end
      cities[j] = c
    end
    if not RULE_ACTIONS[r.action] then return nil, at .. ".action", "not an action" end
    clean[i] = { id = r.id, url = r.url, white = r.white, countries = countries, cities = cities, action = r.action }
  end
  return clean
end

-- Patterns that match every string (as rampart.firewall).
local EVERY_URL = { [".*"] = true, ["/*"] = true }

-- The site's geo rules → compiled rules (sets by region), or nil when it has none. `route_of` and
-- `challenge_of` are rampart.firewall's: what the router answers for an action, and whether it is a
-- challenge (a client with a pass for the site is not caught by it).
function _M.compile(list, site, route_of, challenge_of)
  if list == nil or #list == 0 then return nil end
  local out = {}
  for i, r in ipairs(list) do
    local regions = {}
    for _, c in ipairs(r.countries) do regions[c] = true end
    for _, c in ipairs(r.cities) do regions[c] = true end
    out[i] = {
      id = tostring(r.id),
      url = not EVERY_URL[r.url] and r.url or nil,
      white = r.white,
      regions = regions,
      action = r.action,
      -- dropBlacklist drops, and rampart.firewall puts the address on the site's block list.
      route = route_of(r.action, site),
      challenge = challenge_of[r.action] ~= nil,
    }
  end
  return out
end

-- The open database of this worker: its hash, the MMDB_s buffer (nil when it could not be opened)
-- and a cache of lookups by address.
local db_hash, db, db_memory, cache = nil, nil, nil, nil
-- A lookup path: NULL-terminated C strings, kept alive in `_M.anchors` (a pointer into a Lua string
-- does not keep the string alive, nor would a table only this loader's closure holds).
local anchors = {}
_M.anchors = anchors
local function lookup_path(...)
  local names = { ... }
  local path = ffi.new("const char *[?]", #names + 1)
  for i, name in ipairs(names) do
    local c = ffi.new("char[?]", #name + 1, name)
    anchors[#anchors + 1] = c
    path[i - 1] = c
  end
  anchors[#anchors + 1] = path
  return path
end
local COUNTRY_PATH = lookup_path("country", "iso_code")
local CITY_PATH = lookup_path("city", "geoname_id")
local gai_error, mmdb_error = ffi.new("int[1]"), ffi.new("int[1]")
local data = ffi.new("rampart_mmdb_entry_data_s")
local NONE = { country = false, city = false }

-- A database that could not be opened (the agent may still be fetching it) is tried again at most
-- every RETRY_SECONDS; its failure is logged once per worker and hash.
local RETRY_SECONDS = 5
local retry_at, logged_hash = 0, nil

local function log_failure(hash, ...)
  if logged_hash == hash then return end
  logged_hash = hash
  ngx.log(ngx.ERR, ...)
end

local function open(hash)
  if db ~= nil then
    libmaxminddb.MMDB_close(db)
    db, db_memory = nil, nil
  end
  db_hash, cache = hash, lrucache.new(10000)
  retry_at = ngx.now() + RETRY_SECONDS
  if hash == nil then return end
  if libmaxminddb == nil then
    log_failure(hash, "rampart geo: libmaxminddb.so.0 not loaded, geo rules match no region: ", lib_error)
    return
  end
  if geo_dir == nil then
    log_failure(hash, "rampart geo: no geo directory configured, geo rules match no region")
    return
  end
  local memory = ffi.new("uint64_t[?]", MMDB_S_BYTES / 8)
  local buf = ffi.cast("rampart_mmdb_s *", memory)
  local path = geo_dir .. "/" .. hash .. ".mmdb"
  local status = libmaxminddb.MMDB_open(path, 0, buf)
  if status ~= MMDB_SUCCESS then
    log_failure(hash, "rampart geo: cannot open ", path, ": ", ffi.string(libmaxminddb.MMDB_strerror(status)),
      "; geo rules match no region until it opens")
    return
  end
  -- The cast does not keep the memory alive: it is held beside the handle.
  db, db_memory = buf, memory
end

-- The database's hash in generation `gen` (the data plane's `geoDatabase`, in its meta entry).
local function hash_of(gen)
  return store.meta_string(gen, "geoDatabase")
end

local AF_INET6, V6_TEXT_BYTES = 10, 46
local v6_text = ffi.new("char[?]", V6_TEXT_BYTES)

-- The text MMDB_lookup_string reads for `addr`, the client's binary address as rampart.firewall
-- has it (challenge.client_address: an IPv4-mapped IPv6 address folded to its 4 bytes).
local function text_of(addr)
  if #addr == 4 then return string.format("%d.%d.%d.%d", addr:byte(1, 4)) end
  return ffi.string(ffi.C.inet_ntop(AF_INET6, addr, v6_text, V6_TEXT_BYTES))
end

-- { country = "CN" | false, city = <geoname id> | false } of `addr` (binary, folded), cached by it:
-- the text is formatted only for a lookup.
local function regions_of(addr)
  local hit = cache:get(addr)
  if hit then return hit end
  local found = NONE
  if db ~= nil then
    local result = libmaxminddb.MMDB_lookup_string(db, text_of(addr), gai_error, mmdb_error)
    if gai_error[0] == 0 and mmdb_error[0] == MMDB_SUCCESS and result.found_entry then
      local country, city = false, false
      if libmaxminddb.MMDB_aget_value(result.entry, data, COUNTRY_PATH) == MMDB_SUCCESS and data.has_data
        and data.type == TYPE_UTF8_STRING then
        country = ffi.string(data.value.utf8_string, data.data_size)
      end
      if libmaxminddb.MMDB_aget_value(result.entry, data, CITY_PATH) == MMDB_SUCCESS and data.has_data then
        if data.type == TYPE_UINT32 then
          city = tonumber(data.value.uint32)
        elseif data.type == TYPE_UINT16 then
          city = tonumber(data.value.uint16)
        end
      end
      found = { country = country, city = city }
    end
  end
  cache:set(addr, found)
  return found
end

-- The client's country (ISO code) in the operator's geo database, or false (none, or no database):
-- for the Lua ACL's country conditions (rampart.acl). `addr`: the binary client address, folded.
function _M.country(gen, addr)
  local hash = hash_of(gen)
  if hash ~= db_hash or cache == nil or (db == nil and hash ~= nil and ngx.now() >= retry_at) then open(hash) end
  return regions_of(addr).country
end

-- The first rule of `rules` that blocks the request, or nil; and the URL (read at most once, handed
-- on as rampart.firewall does). A challenge rule does not catch a client that `passed`.
function _M.check(rules, gen, addr, url, passed)
  local hash = hash_of(gen)
  if hash ~= db_hash or cache == nil or (db == nil and hash ~= nil and ngx.now() >= retry_at) then open(hash) end
  local where = nil
  for i = 1, #rules do
    local r = rules[i]
    local covered = not (passed and r.challenge)
    if covered and r.url then
      -- The URL stays in nginx's memory (rampart.request_url): `url` is its length once read.
      if url == nil then url = request_url.read() end
      covered = request_url.find(r.url) == true
    end
    if covered then
      if where == nil then where = regions_of(addr) end
      local listed = (where.country and r.regions[where.country]) or (where.city and r.regions[where.city]) or false
      if listed ~= r.white then return r, url end
    end
  end
  return nil, url
end

return _M
