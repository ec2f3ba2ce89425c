-- The block list at the edge (packages/contract/src/routes/block-list.ts; docs/decisions.md "The
-- block list at the edge"): the client addresses that a rule with the DROP + Blacklist mode (edge
-- action dropBlacklist) caught, per site, on this node. rampart.firewall asks it first, before every
-- other firewall check: a blocked address gets nothing from the site (444) until its block expires.
--
--   rampart_blocklist     one key per block, "<site id>|<binary client address>" (4 or 16 bytes, an
--                         IPv4-mapped IPv6 address folded to IPv4 as rampart.challenge.client_address
--                         does), value the block's expiry (Unix seconds), TTL the block's seconds: the
--                         rule's blockSeconds where it has one above 0 (per-second limits), else
--                         BLOCK_LIST_DEFAULT_SECONDS. Written with `safe_add`: the request that creates
--                         a block is the only one that reports it, and a full dict refuses a new block
--                         (the request is still dropped; counted as `full`) instead of evicting blocks
--                         that the control plane lists.
--   rampart_block_events  the report queue: one list (key "q") of JSON events
--                         {siteId, ip, cause, ruleId, blockedAt, expiresAt} that the agent pops through
--                         the admin endpoint (GET /blocklist/events) and sends to the control plane.
--                         Bounded to QUEUE_MAX events: when full, the new event is dropped and counted
--                         (`dropped`; the length check and the push are two operations, so workers
--                         racing at the bound may add a few more).
--
-- Cost: for a site with a firewall entry, one string concatenation and one shared-dict `get` per
-- request; a block adds a `safe_add`, a JSON encode and an `rpush` (once per address and block).
-- Runs in set_by_lua (block, blocked): nothing here yields. Without the dicts (an nginx.conf rendered
-- before them) nothing is blocked or reported and dropBlacklist acts as drop (one warning per worker).
local cjson = require "cjson.safe"
local ffi = require "ffi"

local _M = {}

local blocks = ngx.shared.rampart_blocklist
local events = ngx.shared.rampart_block_events

-- packages/contract/src/routes/block-list.ts BLOCK_LIST_DEFAULT_SECONDS, BLOCK_REPORT_MAX, BLOCK_IDS_MAX.
local BLOCK_LIST_DEFAULT_SECONDS = 3600
local BLOCK_REPORT_MAX = 1000
local BLOCK_IDS_MAX = 1000
-- Events kept for the agent (~110 bytes of JSON, 256 with the dict's list node and slab rounding:
-- ~2.5 MB of the 4 MB dict).
local QUEUE_MAX = 10000
local QUEUE, DROPPED, FULL = "q", "dropped", "full"

-- The firewall's decision kinds (rampart.firewall's fw_kind) → the contract's BLOCK_CAUSES.
local CAUSE_OF = {
  blacklist = "blacklist", geo = "geo", userAgent = "userAgent", intervalLimit = "intervalLimit",
  secondLimit = "secondLimit", antiCC = "antiCc", reputation = "reputation", acl = "acl",
}
_M.CAUSE_OF = CAUSE_OF

local warned = false
local function missing()
  if blocks ~= nil and events ~= nil then return false end
  if not warned then
    ngx.log(ngx.WARN, "rampart blocklist: this nginx.conf lacks the rampart_blocklist and rampart_block_events ",
      "shared dicts: DROP + Blacklist drops without blocking until nginx is started with a newer one")
    warned = true
  end
  return true
end

-- The key prefix of a site's blocks (rampart.firewall keeps it with the compiled site).
function _M.prefix(site)
  return site .. "|"
end

-- Whether `addr` (binary, folded) is blocked for the site of `prefix`.
function _M.blocked(prefix, addr)
  return blocks ~= nil and blocks:get(prefix .. addr) ~= nil
end

-- The client address as text for the report: nginx's (after realip), IPv4-mapped IPv6 folded as `addr` is.
local function text_of(var, addr)
  local text = var.remote_addr
  if #addr == 4 and text:find(":", 1, true) then text = text:match("([^:]+)$") end
  return text
end

-- A rule with the action dropBlacklist decided the request (rampart.firewall `decided`): blocks the
-- client address `addr` for the site and queues a report, unless it is blocked already. `kind` is
-- the decision's fw_kind, `rule` the compiled rule (its `block`: a per-second limit's blockSeconds).
function _M.block(site, prefix, addr, var, kind, rule)
  if missing() then return end
  local cause = CAUSE_OF[kind]
  if cause == nil then return end
  local seconds = rule.block or BLOCK_LIST_DEFAULT_SECONDS
  local now = ngx.time()
  local expires = now + seconds
  local ok, err = blocks:safe_add(prefix .. addr, expires, seconds)
  if not ok then
    -- "exists": another worker's request created the block first (and reported it).
    if err == "no memory" then events:incr(FULL, 1, 0) end
    return
  end
  if events:llen(QUEUE) >= QUEUE_MAX then
    events:incr(DROPPED, 1, 0)
    return
  end
  local event = cjson.encode({
    siteId = site, ip = text_of(var, addr), cause = cause, ruleId = tonumber(rule.id), blockedAt = now,
    expiresAt = expires,
  })
  if not events:rpush(QUEUE, event) then events:incr(DROPPED, 1, 0) end
end

-- For the admin endpoint: pops up to BLOCK_REPORT_MAX queued events; answers the JSON body
-- {"events":[...],"dropped":n,"full":n} (the counters count since nginx started).
function _M.pop()
  if missing() then return '{"events":[],"dropped":0,"full":0}' end
  local out = {}
  for i = 1, BLOCK_REPORT_MAX do
    local event = events:lpop(QUEUE)
    if event == nil then break end
    out[i] = event
  end
  return '{"events":[' .. table.concat(out, ",") .. '],"dropped":' .. (events:get(DROPPED) or 0)
    .. ',"full":' .. (events:get(FULL) or 0) .. "}"
end

pcall(ffi.cdef, [[
  int inet_pton(int af, const char *src, void *dst);
]])
local AF_INET, AF_INET6 = 2, 10
local pton_buffer = ffi.new("unsigned char[16]")
local V4_MAPPED = "\0\0\0\0\0\0\0\0\0\0\255\255"

-- An IPv4 or IPv6 address in text → binary as the firewall keys it (IPv4-mapped IPv6 folded), or nil.
local function binary_of(text)
  if type(text) ~= "string" or #text > 45 then return nil end
  if ffi.C.inet_pton(AF_INET, text, pton_buffer) == 1 then return ffi.string(pton_buffer, 4) end
  if ffi.C.inet_pton(AF_INET6, text, pton_buffer) == 1 then
    local addr = ffi.string(pton_buffer, 16)
    if addr:sub(1, 12) == V4_MAPPED then return addr:sub(13) end
    return addr
  end
  return nil
end
_M.binary_of = binary_of

-- For the admin endpoint: {entries = [{siteId, ip}]} → the number of blocks removed; or nil, field,
-- reason (nothing removed when any entry is bad).
function _M.unblock(body)
  if type(body) ~= "table" then return nil, "(body)", "not an object" end
  local entries = body.entries
  if type(entries) ~= "table" or #entries == 0 or #entries > BLOCK_IDS_MAX then
    return nil, "entries", "not a list of 1 to " .. BLOCK_IDS_MAX
  end
  local keys = {}
  for i, e in ipairs(entries) do
    local at = "entries[" .. (i - 1) .. "]"
    if type(e) ~= "table" then return nil, at, "not an object" end
    local site = e.siteId
    if type(site) ~= "number" or site ~= math.floor(site) or site < 1 or site > 2147483647 then
      return nil, at .. ".siteId", "not an id"
    end
    local addr = binary_of(e.ip)
    if addr == nil then return nil, at .. ".ip", "not an IPv4 or IPv6 address" end
    keys[i] = _M.prefix(string.format("%d", site)) .. addr
  end
  if #keys ~= #entries then return nil, "entries", "not a list" end
  if missing() then return 0 end
  local removed = 0
  for _, key in ipairs(keys) do
    if blocks:get(key) ~= nil then removed = removed + 1 end
    blocks:delete(key)
  end
  return removed
end

return _M
