-- Floods escalated to the kernel (packages/contract/src/routes/firewall-l4.ts l4EscalationSchema;
-- docs/decisions.md "Floods escalated to the kernel"). Every request the node refuses at layer 7
-- (the router's "444" drop, "4030" deny, "929" frequency limit, whatever decided it: a block, a rule,
-- a limit, the WAF) counts against its client address; an address refused `refusals` times within
-- `seconds` (the zone's setting, in the generation's meta entry with the zone limits) is escalated:
--
--   * blocked at layer 7 for the site of the request (rampart_blocklist, as a DROP + Blacklist block),
--     so a node without a kernel firewall still answers it with nothing;
--   * reported through the block list's queue (rampart_block_events) with the cause `escalated` and
--     the site as its rule: the agent pops it, drops the address in its nftables blocked set, and
--     sends it to the control plane, which lists it and hands it to the other nodes of the site.
--
-- The block lasts FIRST_SECONDS, doubled for each earlier escalation of the address the node still
-- remembers (for DECAY_MEMORY_SECONDS from its first escalation), at most MAX_SECONDS.
--
-- Never escalated: an address a whitelist rule of the site names (whatever its method or URL
-- pattern), and a request whose connection came from one of the zone's trusted proxies (the realip
-- sources: $rampart_trusted_peer, a geo map render.ts writes beside set_real_ip_from), be it the
-- proxy itself or a visitor behind it (whose packets the kernel never sees anyway). A request for
-- a host the node does not serve, or for a domain that names no site (no firewall, settings or
-- cache), counts but is not escalated: no site to show the block on.
--
-- Counting: a sliding window of two fixed windows in rampart_limits (the zone limits' dict, which
-- evicts its oldest counters when full): "e<window>|<binary address>" per window, the previous
-- window weighted by how much of it the sliding window still covers; "e!|<address>" (one window)
-- keeps a crossing from escalating twice while the agent takes it down; "e#|<address>" the number of
-- escalations remembered for the decay. Cost per refusal: one `incr` (and a `get` once the
-- current window alone is not enough); nothing for a request that is not refused. Past the
-- threshold, each worker remembers until when the address's "e!" mark lasts, and each compiled
-- firewall (per worker and generation) the addresses its whitelist spares, so a flood that
-- goes on costs a table lookup more, not a host lookup, a whitelist scan and a shared-dict `add`
-- per refusal. Runs in set_by_lua (rampart.router): nothing here yields.
local cjson = require "cjson.safe"
local store = require "rampart.store"
local challenge = require "rampart.challenge"
local ip_ranges = require "rampart.ip_ranges"

local _M = {}

-- Required on the first escalation: rampart.limits and rampart.validate require this module, and
-- the firewall (which requires much of the edge) need not load with them.
local firewall

local dict = ngx.shared.rampart_limits
local blocks = ngx.shared.rampart_blocklist
local events = ngx.shared.rampart_block_events

local FIRST_SECONDS = 60
local MAX_SECONDS = 86400
local DECAY_MEMORY_SECONDS = 86400
-- rampart.blocklist's queue bound and names.
local QUEUE_MAX = 10000
local QUEUE, DROPPED = "q", "dropped"

local REFUSED = { ["444"] = true, ["4030"] = true, ["929"] = true }

local refusals, seconds = 0, 10
local floor, min = math.floor, math.min
local client_address, contains = challenge.client_address, ip_ranges.contains

-- The zone limits of a new generation (rampart.limits.load): the escalation's two numbers.
function _M.configure(limits)
  refusals = tonumber(limits.escalationRefusals) or 0
  seconds = tonumber(limits.escalationSeconds) or 10
  if dict == nil or blocks == nil or events == nil or seconds < 1 then refusals = 0 end
end

-- For rampart.validate (the admin endpoint's meta): the escalation's fields of the zone limits `l`,
-- added to the checked `out`; or nil, field, reason.
function _M.checked(l, out)
  local r, s = l.escalationRefusals, l.escalationSeconds
  if r ~= nil and (type(r) ~= "number" or r ~= floor(r) or r < 0 or r > 100000) then
    return nil, "limits.escalationRefusals", "not an integer 0..100000"
  end
  if s ~= nil and (type(s) ~= "number" or s ~= floor(s) or s < 1 or s > 600) then
    return nil, "limits.escalationSeconds", "not an integer 1..600"
  end
  out.escalationRefusals, out.escalationSeconds = r or 0, s or 10
  return out
end

-- The client address as text (nginx's, after realip; an IPv4-mapped IPv6 address folded as `addr` is).
local function text_of(var, addr)
  local text = var.remote_addr
  if #addr == 4 and text:find(":", 1, true) then text = text:match("([^:]+)$") end
  return text
end

-- Whether a whitelist rule of the compiled firewall `fw` names `addr`.
local function whitelisted(fw, addr)
  local size = #addr
  for _, rule in ipairs(fw.whitelist) do
    local set = rule[size]
    if set and contains(set, addr) then return true end
  end
  return false
end

-- Per worker: address → the time its "e!" mark ends (escalated, by this worker or another).
-- Emptied when it grows past MARKS_MAX (then each address costs one `add` again).
local marks, mark_count = {}, 0
local MARKS_MAX = 10000
-- Per compiled firewall: at most SPARED_MAX addresses it was asked about (see the top).
local SPARED_MAX = 1024

local function remember(addr, ends)
  if type(ends) ~= "number" then return end
  if mark_count >= MARKS_MAX then marks, mark_count = {}, 0 end
  if marks[addr] == nil then mark_count = mark_count + 1 end
  marks[addr] = ends
end

-- Whether the domain's whitelist spares `addr`, remembered on its compiled firewall (which the
-- domain entry keeps for its worker and generation).
local function spared(domain, gen, addr)
  if firewall == nil then firewall = require "rampart.firewall" end
  local fw = firewall.of(domain, gen)
  if not fw then return false end
  local known = fw.escalation_spared
  if known == nil then
    known = { n = 0 }
    fw.escalation_spared = known
  end
  local answer = known[addr]
  if answer ~= nil then return answer end
  answer = whitelisted(fw, addr)
  if known.n < SPARED_MAX then
    known.n = known.n + 1
    known[addr] = answer
  end
  return answer
end

local function escalate(var, addr, now)
  if var.rampart_trusted_peer == "1" then return end
  local domain, gen = store.lookup(var.host)
  if domain == nil or gen == nil then return end
  local site = domain.firewallId or domain.settingsId or domain.cacheId
  if site == nil then return end
  if domain.firewallId and spared(domain, gen, addr) then return end
  -- One escalation per crossing: the next refusals of this window are the agent's to stop. The
  -- mark holds when it ends, for the workers that find it there.
  local mark = "e!|" .. addr
  if not dict:add(mark, now + seconds, seconds) then
    remember(addr, dict:get(mark))
    return
  end
  remember(addr, now + seconds)
  local n = dict:incr("e#|" .. addr, 1, 0, DECAY_MEMORY_SECONDS) or 1
  local lasts = min(MAX_SECONDS, FIRST_SECONDS * 2 ^ (n - 1))
  local site_text = string.format("%d", site)
  local at = floor(now)
  blocks:set(site_text .. "|" .. addr, at + lasts, lasts)
  if events:llen(QUEUE) >= QUEUE_MAX then
    events:incr(DROPPED, 1, 0)
    return
  end
  local event = cjson.encode({
    siteId = site, ip = text_of(var, addr), cause = "escalated", ruleId = site, blockedAt = at,
    expiresAt = at + lasts,
  })
  if not events:rpush(QUEUE, event) then events:incr(DROPPED, 1, 0) end
end

-- The router's route for this request was decided (rampart.router.route): a refusal counts.
function _M.note(var, route)
  if refusals == 0 or not REFUSED[route] then return end
  local addr = client_address(var)
  local now = ngx.now()
  local window = floor(now / seconds)
  local count = dict:incr("e" .. window .. "|" .. addr, 1, 0, 2 * seconds)
  if count == nil then return end
  if count < refusals then
    local previous = dict:get("e" .. (window - 1) .. "|" .. addr)
    if previous == nil then return end
    count = count + previous * (1 - (now - window * seconds) / seconds)
    if count < refusals then return end
  end
  local ends = marks[addr]
  if ends ~= nil and ends > now then return end
  escalate(var, addr, now)
end

return _M
