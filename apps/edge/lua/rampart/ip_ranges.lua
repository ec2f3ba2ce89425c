-- Client-address sets as the firewall and the Lua ACL match them: the data plane's sorted,
-- disjoint [first, last] ranges in hex become binary strings, searched by bisection against the
-- folded binary client address (strings of one length compare byte by byte).
local challenge = require "rampart.challenge"
local rshift = require("bit").rshift

local _M = {}

-- Hex → bytes (the address ranges travel as hex).
local binary = challenge.unhex

-- [[first, last], ...] in hex → { lo = {...}, hi = {...}, n } in binary, or nil when empty.
function _M.compile(list)
  local n = #list
  if n == 0 then return nil end
  local lo, hi = {}, {}
  for i = 1, n do
    local r = list[i]
    lo[i], hi[i] = binary(r[1]), binary(r[2])
  end
  return { lo = lo, hi = hi, n = n }
end

-- Whether `addr` is in one of the sorted, disjoint ranges: the last range that starts at or
-- below it must end at or above it.
function _M.contains(set, addr)
  local lo = set.lo
  if addr < lo[1] then return false end
  local l, h = 1, set.n
  while l < h do
    local mid = rshift(l + h + 1, 1)
    if lo[mid] <= addr then l = mid else h = mid - 1 end
  end
  return addr <= set.hi[l]
end

return _M
