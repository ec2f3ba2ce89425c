-- Refusals without a log line each (packages/contract/src/edge/refusal-tally.ts). A deny or drop the
-- router answers in its own phase (public-server.ts: the `return 403` / `return 444` blocks of the hot
-- path) runs log() in the log phase, before the access log (ngx_lua puts its log handler first). Of
-- the refusals one address gets from one domain in one minute for one decision (kind, rule, action),
-- the first is logged whole ($rampart_log_refusal = "1", the blocks' `access_log ... if=`); the
-- rest are only counted here, and the agent drains them (admin.lua, GET /refusals → drain()).
--
-- One tally is four dict entries under the key "<minute s>|<domain id>|<address>|<kind>|<rule>|<action>":
-- the key itself (requests counted since the last drain), key.."|i" and key.."|o" (bytes read and
-- sent) and key.."|m" (the last one's time in ms * 1000 + its status). A tally with a count is in
-- the queue QUEUE once. Only safe_* writes: a full dict evicts nothing; a refusal it cannot count
-- is logged whole instead (so `dropped` stays 0: no refused request goes unrecorded). The entries
-- live TTL seconds from the minute's first refusal: a tally the agent has not drained by then is
-- gone.
local _M = {}

local REFUSAL_DRAIN_MAX = 5000 -- packages/contract/src/edge/refusal-tally.ts
local QUEUE = "queue"
local TTL = 300

local dict = ngx.shared.rampart_refusals
local floor, tonumber, format, concat = math.floor, tonumber, string.format, table.concat
local now = ngx.now

-- Logs the refusal whole.
local function log_whole(var)
  var.rampart_log_refusal = "1"
end

-- log_by_lua in the router's refusal blocks.
function _M.log()
  local var = ngx.var
  if dict == nil then return log_whole(var) end
  local t = now()
  local key = floor(t / 60) * 60 .. "|" .. var.rampart_domain_id .. "|" .. var.remote_addr .. "|"
    .. var.rampart_fw_kind .. "|" .. var.rampart_fw_rule .. "|" .. var.rampart_fw_action
  local first, err = dict:safe_add(key, 0, TTL)
  if first then
    -- The minute's first: logged whole, and the tally's other entries made (none: logged whole
    -- the next time too, when the dict is full).
    if not (dict:safe_add(key .. "|i", 0, TTL) and dict:safe_add(key .. "|o", 0, TTL)
        and dict:safe_add(key .. "|m", 0, TTL)) then
      dict:delete(key)
    end
    return log_whole(var)
  end
  if err ~= "exists" then return log_whole(var) end
  -- A repeat: the bytes first, then the count (drain() reads the count first, so bytes it sees
  -- without their count are reported a drain early, never lost).
  local bytes_in = tonumber(var.request_length) or 0
  local bytes_out = tonumber(var.bytes_sent) or 0
  if not dict:incr(key .. "|i", bytes_in) then return log_whole(var) end
  dict:incr(key .. "|o", bytes_out)
  dict:safe_set(key .. "|m", floor(t * 1000) * 1000 + ngx.status, TTL)
  local count = dict:incr(key, 1)
  if count == 1 and not dict:rpush(QUEUE, key) then
    -- Not queued (no memory): taken back and logged whole.
    dict:incr(key, -1)
    dict:incr(key .. "|i", -bytes_in)
    dict:incr(key .. "|o", -bytes_out)
    return log_whole(var)
  end
  if count == nil then return log_whole(var) end
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
      -- Counted while this drain read: queued again (a refusal queues a tally only from 0 to 1).
      if rest and rest > 0 then dict:rpush(QUEUE, key) end
      local json = tally_json(key, count, bytes_in, bytes_out, m)
      if json then
        n = n + 1
        out[n] = json
      end
    end
  end
  local more = (dict:llen(QUEUE) or 0) > 0
  return '{"tallies":[' .. concat(out, ",") .. '],"more":' .. (more and "true" or "false") .. ',"dropped":0}'
end

return _M
