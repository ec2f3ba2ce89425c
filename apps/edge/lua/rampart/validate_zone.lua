-- The zone-wide parts of a data-plane document (rampart.validate): its limits and its challenge
-- keys, checked again as the agent checked them; clean values, or nil, field, reason.
local checks = require "rampart.checks"
local escalate = require "rampart.escalate"

local _M = {}

local re_find = ngx.re.find
local is_array, is_int = checks.is_array, checks.is_int
local HEX64_RE = checks.HEX64_RE

-- Zone limits (rampart.limits, packages/contract/src/edge/data-plane.ts edgeZoneLimitsSchema):
-- absent in an older document means off; with them the zone's challenge work (rampart.challenge;
-- contract edge/challenge.ts CHALLENGE_WORK_BITS_*), absent: the default.
local ZONE_LIMIT_MAX = 100000
local WORK_BITS_MIN, WORK_BITS_MAX, WORK_BITS_DEFAULT = 16, 24, 21
function _M.limits(l)
  if l == nil then
    return { invalidDomainPerMinute = 0, tlsHandshakesPerMinute = 0, challengeWorkBits = WORK_BITS_DEFAULT }
  end
  if type(l) ~= "table" or #l > 0 then return nil, "limits", "not an object" end
  if not is_int(l.invalidDomainPerMinute, 0, ZONE_LIMIT_MAX) then
    return nil, "limits.invalidDomainPerMinute", "not an integer 0.." .. ZONE_LIMIT_MAX
  end
  if not is_int(l.tlsHandshakesPerMinute, 0, ZONE_LIMIT_MAX) then
    return nil, "limits.tlsHandshakesPerMinute", "not an integer 0.." .. ZONE_LIMIT_MAX
  end
  local bits = l.challengeWorkBits
  if bits == nil then
    bits = WORK_BITS_DEFAULT
  elseif not is_int(bits, WORK_BITS_MIN, WORK_BITS_MAX) then
    return nil, "limits.challengeWorkBits", "not an integer " .. WORK_BITS_MIN .. ".." .. WORK_BITS_MAX
  end
  return escalate.checked(l, {
    invalidDomainPerMinute = l.invalidDomainPerMinute,
    tlsHandshakesPerMinute = l.tlsHandshakesPerMinute,
    challengeWorkBits = bits,
  })
end

-- Challenge keys (rampart.challenge, packages/contract/src/edge/challenge.ts edgeChallengeSchema):
-- absent in an older document means none.
local PERIOD_SECONDS = 21600
function _M.challenge(c)
  if c == nil then return { keys = {}, passSeconds = 1800 } end
  if type(c) ~= "table" or #c > 0 then return nil, "challenge", "not an object" end
  if not is_array(c.keys, 3) then return nil, "challenge.keys", "not a list of at most 3" end
  local keys = {}
  for i, k in ipairs(c.keys) do
    local path = "challenge.keys[" .. (i - 1) .. "]"
    if type(k) ~= "table" or not is_int(k.id, 0, 2147483647) then return nil, path .. ".id", "not a key id" end
    if type(k.secret) ~= "string" or not re_find(k.secret, HEX64_RE, "jo") then
      return nil, path .. ".secret", "not a 32-byte hex key"
    end
    keys[i] = { id = k.id, secret = k.secret }
  end
  if not is_int(c.passSeconds, 60, PERIOD_SECONDS) then
    return nil, "challenge.passSeconds", "not a whole number from 60 to " .. PERIOD_SECONDS
  end
  return { keys = keys, passSeconds = c.passSeconds }
end

return _M
