-- Refusals without a log line each (packages/contract/src/edge/refusal-tally.ts). A deny or drop the
-- router answers in its own phase (public-server.ts: the `return 403` / `return 444` blocks of the hot
-- path) runs log() in the log phase, before the access log (ngx_lua puts its log handler first). Of
-- the refusals one address gets from one domain in one minute for one decision (kind, rule, action),
-- the first is logged whole ($rampart_log_refusal = "1", the blocks' `access_log ... if=`); the
-- rest are only counted, and the agent drains them (admin.lua, GET /refusals → drain()).
--
-- A tally in the shared dict is four entries under the key
-- "<minute s>|<domain id>|<address>|<kind>|<rule>|<action>": the key itself (requests counted since
-- the last drain), key.."|i" and key.."|o" (bytes read and sent) and key.."|m" (the last one's time
-- in ms * 1000 + its status); a tally with a count is in the queue QUEUE. The first refusal makes
-- the entries (safe_add: whichever worker adds the key logs). A repeat costs no shared-dict write:
-- each worker adds its repeats up in a table and a timer moves them into the dict every FLUSH_S
-- seconds (and when the worker exits). Only safe_* writes: a full dict evicts nothing. A first
-- refusal the dict cannot take is logged whole; repeats it cannot take (the tally's entries expired
-- or the queue is full) are counted in DROPPED, which the drain reports. The entries live TTL
-- seconds from the minute's first refusal: a tally the agent has not drained by then is gone.
local _M = {}

local REFUSAL_DRAIN_MAX = 5000 -- packages/contract/src/edge/refusal-tally.ts
local QUEUE = "queue"
local DROPPED = "dropped"
local TTL = 300
local FLUSH_S = 0.25
-- Tallies one worker holds between two flushes; past it a refusal is logged whole.
local PENDING_MAX = 10000

local dict = ngx.shared.rampart_refusals
local floor, tonumber, format, concat = math.floor, tonumber, string.format, table.concat
local now = ngx.now

-- This worker's repeats since its last flush: key → { count, bytes in, bytes out, last ms * 1000 + status }.
local pending, pending_n = {}, 0
-- The keys whose first refusal was logged (by any worker), for the current minute only.
local seen, seen_minute, minute_prefix = {}, nil, nil

-- Moves this worker's repeats into the dict (a timer FLUSH_S after the first; nginx runs it
-- early when the worker exits).
local function flush()
  local batch = pending
  pending, pending_n = {}, 0
  local lost = 0
  for key, p in pairs(batch) do
    local count = p[1]
    if dict:incr(key .. "|i", p[2]) then
      dict:incr(key .. "|o", p[3])
      dict:safe_set(key .. "|m", p[4], TTL)
      local total = dict:incr(key, count)
      -- Queued when the count leaves 0 (drain() queues a tally again that it left a count in).
      if total == count and not dict:rpush(QUEUE, key) then
        dict:incr(key, -count)
        dict:incr(key .. "|i", -p[2])
        dict:incr(key .. "|o", -p[3])
        lost = lost + count
      end
    else
      lost = lost + count
    end
  end
  if lost > 0 then dict:incr(DROPPED, lost, 0) end
end

-- log_by_lua in the router's refusal blocks (the global rampart.refusal).
function _M.log()
  local var = ngx.var
  if dict == nil then
    var.rampart_log_refusal = "1"
    return
  end
  local t = now()
  local minute = floor(t / 60)
  if minute ~= seen_minute then
    seen, seen_minute, minute_prefix = {}, minute, minute * 60 .. "|"
  end
  local key = minute_prefix .. var.rampart_domain_id .. "|" .. var.remote_addr .. "|" .. var.rampart_fw_kind
    .. "|" .. var.rampart_fw_rule .. "|" .. var.rampart_fw_action
  local p = pending[key]
  if p == nil then
    if not seen[key] then
      local first, err = dict:safe_add(key, 0, TTL)
      if first then
        -- The minute's first: logged whole, and the tally's other entries made (when the dict
        -- cannot, none: the next refusal is a first again).
        if dict:safe_add(key .. "|i", 0, TTL) and dict:safe_add(key .. "|o", 0, TTL)
            and dict:safe_add(key .. "|m", 0, TTL) then
          seen[key] = true
        else
          dict:delete(key)
        end
        var.rampart_log_refusal = "1"
        return
      end
      if err ~= "exists" or pending_n >= PENDING_MAX then
        var.rampart_log_refusal = "1"
        return
      end
      seen[key] = true
    elseif pending_n >= PENDING_MAX then
      var.rampart_log_refusal = "1"
      return
    end
    p = { 0, 0, 0, 0 }
    pending[key] = p
    pending_n = pending_n + 1
  end
  p[1] = p[1] + 1
  p[2] = p[2] + (tonumber(var.request_length) or 0)
  p[3] = p[3] + (tonumber(var.bytes_sent) or 0)
  p[4] = floor(t * 1000) * 1000 + ngx.status
  -- The first repeat since the last flush schedules the next (now, when no timer can be made).
  if pending_n == 1 and p[1] == 1 and not ngx.timer.at(FLUSH_S, flush) then flush() end
end

local KEY_RE = [[^(\d+)\|(\d*)\|([0-9a-fA-F.:]+)\|([a-zA-Z]*)\|(\d*)\|([a-zA-Z]*)\z]]

-- One tally as refusalTallySchema's JSON, or nil for a key that is not one.
local function tally_json(key, count, bytes_in, bytes_out, m)
  local f = ngx.re.match(key, KEY_RE, "jo")
  if f == nil then return nil end
  return format('{"minute":%d,"domainId":%d,"ip":"%s","fwKind":"%s","fwRule":%d,"fwAction":"%s",'
      .. '"status":%d,"count":%d,"bytesIn":%d,"bytesOut":%d,"last":%d}',
    tonumber(f[1]) * 1000, tonumber(f[2]) or 0, f[3], f[4], tonumber(f[5]) or 0, f[6],
    m % 1000, count, bytes_in, bytes_out, floor(m / 1000))
end

-- GET /refusals: pops up to REFUSAL_DRAIN_MAX tallies → refusalDrainSchema's JSON.
function _M.drain()
  if dict == nil then return '{"tallies":[],"more":false,"dropped":0}' end
  local out, n = {}, 0
  while n < REFUSAL_DRAIN_MAX do
    local key = dict:lpop(QUEUE)
    if key == nil then break end
    local count = dict:get(key)
    if count and count > 0 then
      local bytes_in = dict:get(key .. "|i") or 0
      local bytes_out = dict:get(key .. "|o") or 0
      local m = dict:get(key .. "|m") or 0
      dict:incr(key .. "|i", -bytes_in)
      dict:incr(key .. "|o", -bytes_out)
      local rest = dict:incr(key, -count)
      -- Counted while this drain read: queued again (a flush queues a tally only when its count leaves 0).
      if rest and rest > 0 then dict:rpush(QUEUE, key) end
      local json = tally_json(key, count, bytes_in, bytes_out, m)
      if json then
        n = n + 1
        out[n] = json
      end
    end
  end
  local more = (dict:llen(QUEUE) or 0) > 0
  local dropped = dict:get(DROPPED) or 0
  if dropped > 0 then dict:incr(DROPPED, -dropped) end
  return '{"tallies":[' .. concat(out, ",") .. '],"more":' .. (more and "true" or "false") .. ',"dropped":'
    .. format("%d", dropped) .. "}"
end

return _M
