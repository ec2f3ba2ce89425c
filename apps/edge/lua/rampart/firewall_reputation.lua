-- IP trust protection at the edge (packages/contract/src/routes/firewall-reputation.ts,
-- packages/contract/src/edge/reputation.ts; docs/decisions.md "IP trust protection (abuse IPs)"),
-- called by rampart.firewall after the blacklist and before the geo rules for a site whose firewall
-- entry carries `reputation = {threshold, action}`.
--
-- The list is the operator's: the agent keeps it as <reputation dir>/<sha256>.bin (the directory
-- comes from nginx.conf, the hash from the data plane's `abuseIPs`), and each worker reads the file
-- once, the first time a request of such a site meets a generation naming a hash it has not read: a
-- new list needs no reload. The file is the contract's "abuse IP file": the magic RPABUSE1, the
-- number of IPv4 and of IPv6 ranges (uint32, big-endian), then fixed-size records (first address,
-- last address, score: 9 bytes for IPv4, 33 for IPv6), sorted and not overlapping, each address with
-- the highest score of the operator's entries that contain it. A lookup is one binary search over
-- the records of the address's family, comparing the binary client address (binary_remote_addr,
-- IPv4-mapped IPv6 folded to IPv4, as every firewall kind) with memcmp: nothing is parsed or copied
-- per request. A node without the list (none named, the file missing or not an abuse IP file: tried
-- again every 5 s, logged once per worker and hash) gives every address the score 0: no client is
-- caught.
--
-- Cost: a site without the setting pays nothing (rampart.firewall checks one field); with it, one
-- binary search per request (~17 steps for 100,000 ranges) unless the address is in the worker's
-- LRU cache of recent addresses. Runs in set_by_lua: nothing here yields (the file is read with
-- io.open, once per worker and hash).
local ffi = require "ffi"
local lrucache = require "resty.lrucache"
local checks = require "rampart.checks"
local store = require "rampart.store"

local _M = {}

pcall(ffi.cdef, [[
  int memcmp(const void *s1, const void *s2, size_t n);
]])
local C = ffi.C
local byte = string.byte
local rshift = require("bit").rshift

local list_dir = nil

-- Called by rampart.init in the master with the directory the agent keeps the list in.
function _M.configure(dir)
  list_dir = dir
end

-- Validation (rampart.firewall_check): packages/contract/src/edge/reputation.ts edgeReputationSchema,
-- ABUSE_IP_SCORE_MIN/MAX and the actions of EDGE_RULE_ACTIONS.
local SCORE_MIN, SCORE_MAX = 1, 100
local ACTIONS = checks.RULE_ACTIONS
local is_int = checks.is_int

-- setting (decoded JSON, or nil / null for a site without it) → a clean copy, false for none, or
-- nil, field, reason.
function _M.check_setting(setting, path, null)
  if setting == nil or setting == null then return false end
  if type(setting) ~= "table" then return nil, path, "not an object" end
  if not is_int(setting.threshold, SCORE_MIN, SCORE_MAX) then
    return nil, path .. ".threshold", "not a whole number from " .. SCORE_MIN .. " to " .. SCORE_MAX
  end
  if not ACTIONS[setting.action] then return nil, path .. ".action", "not a firewall action" end
  return { threshold = setting.threshold, action = setting.action }
end

-- The file format (packages/contract/src/edge/reputation.ts ABUSE_IP_FILE_*).
local MAGIC = "RPABUSE1"
local HEADER_BYTES, V4_RECORD_BYTES, V6_RECORD_BYTES = 16, 9, 33

-- The list of this worker: its hash, its bytes (nil when none could be read), a pointer to them, where
-- each family's records start (0-based offsets) and how many there are, and a cache of lookups.
local list_hash, data, base, cache = nil, nil, nil, nil
local families = { [4] = { at = 0, n = 0, size = V4_RECORD_BYTES }, [16] = { at = 0, n = 0, size = V6_RECORD_BYTES } }

-- A list that could not be read (the agent may still be fetching it) is tried again at most every
-- RETRY_SECONDS; its failure is logged once per worker and hash.
local RETRY_SECONDS = 5
local retry_at, logged_hash = 0, nil

local function log_failure(hash, ...)
  if logged_hash == hash then return end
  logged_hash = hash
  ngx.log(ngx.ERR, ...)
end

local function uint32(s, i)
  local a, b, c, d = byte(s, i, i + 3)
  return ((a * 256 + b) * 256 + c) * 256 + d
end

local function load(hash)
  list_hash, data, base, cache = hash, nil, nil, lrucache.new(10000)
  retry_at = ngx.now() + RETRY_SECONDS
  if hash == nil then return end
  if list_dir == nil then
    log_failure(hash, "rampart reputation: no reputation directory configured, no address has a score")
    return
  end
  local path = list_dir .. "/" .. hash .. ".bin"
  local file, err = io.open(path, "rb")
  if not file then
    log_failure(hash, "rampart reputation: cannot read ", path, ": ", err, "; no address has a score until it reads")
    return
  end
  local bytes = file:read("*a")
  file:close()
  if type(bytes) ~= "string" or #bytes < HEADER_BYTES or bytes:sub(1, #MAGIC) ~= MAGIC then
    log_failure(hash, "rampart reputation: ", path, " is not an abuse IP file")
    return
  end
  local n4, n6 = uint32(bytes, 9), uint32(bytes, 13)
  if #bytes ~= HEADER_BYTES + n4 * V4_RECORD_BYTES + n6 * V6_RECORD_BYTES then
    log_failure(hash, "rampart reputation: ", path, " has the wrong length for its ", n4, " + ", n6, " ranges")
    return
  end
  families[4].at, families[4].n = HEADER_BYTES, n4
  families[16].at, families[16].n = HEADER_BYTES + n4 * V4_RECORD_BYTES, n6
  -- The pointer is good while `data` holds the string.
  data, base = bytes, ffi.cast("const uint8_t *", bytes)
end

-- The list's hash in generation `gen` (the data plane's `abuseIPs`, in its meta entry).
local function hash_of(gen)
  return store.meta_string(gen, "abuseIPs")
end

-- The score of `addr` (4 or 16 bytes) in the loaded list: the record that starts at or below it
-- must end at or above it.
local function search(addr)
  local f = families[#addr]
  if f == nil or f.n == 0 then return 0 end
  local len, size, at = #addr, f.size, f.at
  -- The last record whose first address is <= addr.
  local l, h = 0, f.n - 1
  if C.memcmp(base + at, addr, len) > 0 then return 0 end
  while l < h do
    local mid = rshift(l + h + 1, 1)
    if C.memcmp(base + at + mid * size, addr, len) <= 0 then l = mid else h = mid - 1 end
  end
  local record = at + l * size
  if C.memcmp(base + record + len, addr, len) < 0 then return 0 end
  return base[record + 2 * len]
end

-- The score of the client address `addr` (binary) in generation `gen`'s list; 0 when it is in no
-- entry or the node has no list.
function _M.score(gen, addr)
  local hash = hash_of(gen)
  if hash ~= list_hash or cache == nil or (data == nil and hash ~= nil and ngx.now() >= retry_at) then load(hash) end
  if data == nil then return 0 end
  local hit = cache:get(addr)
  if hit then return hit end
  local score = search(addr)
  cache:set(addr, score)
  return score
end

return _M
