-- The machine's monotonic clock, in seconds (clock_gettime(CLOCK_MONOTONIC) through the FFI: a
-- vDSO read, no system call, one clock for every worker and process of the machine; not nginx's
-- cached time, which lags by as long as the worker's event-loop iteration took). Read by the site
-- firewall's per-second limits (rampart.firewall_frequency) and the WAF's time budget
-- (rampart.waf_state). `now` is nil when another library declared clock_gettime differently in
-- this Lua state: each caller then keeps its own fallback.
local ffi = require "ffi"

local _M = {}

-- (pcall: declared once per Lua state, as rampart.profile declares the same struct)
pcall(ffi.cdef, [[
  typedef struct { long tv_sec; long tv_nsec; } rampart_timespec;
  int clock_gettime(int clock_id, rampart_timespec *tp);
]])
local C, CLOCK_MONOTONIC = ffi.C, 1
local timespec = ffi.new("rampart_timespec")
local tonumber = tonumber

local function now()
  C.clock_gettime(CLOCK_MONOTONIC, timespec)
  return tonumber(timespec.tv_sec) + tonumber(timespec.tv_nsec) * 1e-9
end
if pcall(now) then _M.now = now end

return _M
