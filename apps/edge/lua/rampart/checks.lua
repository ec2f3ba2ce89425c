-- The shape checks every data-plane check uses (rampart.validate, modules_check, settings_check).
local _M = {}

local floor = math.floor

-- What a rule that blocks or challenges may do: the blacklist, user-agent, geo rules and the IP
-- trust setting (packages/contract/src/edge/challenge.ts EDGE_RULE_ACTIONS, rampart.contract_limits).
local RULE_ACTIONS = require("rampart.contract_limits").EDGE_RULE_ACTIONS
_M.RULE_ACTIONS = RULE_ACTIONS
-- 64 hex digits: a SHA-256 (the geo database's, the reputation list's) or a 32-byte key.
local HEX64_RE = [[^[0-9a-f]{64}\z]]
_M.HEX64_RE = HEX64_RE

-- A list (keys 1..n, nothing else) of at most `max` items.
function _M.is_array(t, max)
  if type(t) ~= "table" then return false end
  local n = #t
  if n > max then return false end
  local count = 0
  for _ in pairs(t) do count = count + 1 end
  return count == n
end

-- An integer within min..max.
function _M.is_int(v, min, max)
  return type(v) == "number" and v == floor(v) and v >= min and v <= max
end

return _M
