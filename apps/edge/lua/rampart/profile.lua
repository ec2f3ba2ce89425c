-- Bench only (bench/edge): the CPU time the edge's Lua takes per nginx phase. Off unless the master
-- ran `RAMPART_PROFILE = true` before rampart.init (the bench's init hook; the agent never sets it):
-- then rampart.init replaces the per-request entry points with wrappers that read the thread's CPU
-- clock (clock_gettime(CLOCK_THREAD_CPUTIME_ID)) before and after, so a node pays nothing for this
-- file. Per worker, each phase's nanoseconds and calls add up in a Lua table, flushed into the
-- `rampart_limits` shared dict (keys "profile|<phase>|ns", "…|n") every FLUSH calls; the bench
-- reads them (read()) before and after a load run and takes the difference.
--
-- A phase's Lua may end the request from inside (ngx.exit, ngx.exec, ngx.redirect yield the
-- coroutine and never return to the wrapper): those are wrapped too, and close the open phase
-- before nginx goes on. What nginx does itself afterwards (the access log line, sending) is not
-- Lua time and is not counted. Nested measures (the firewall and the WAF inside the router) count
-- apart and are included in their phase's time.
local ffi = require "ffi"

local _M = {}

pcall(ffi.cdef, [[
  typedef struct { long tv_sec; long tv_nsec; } rampart_timespec;
  int clock_gettime(int clk_id, rampart_timespec *tp);
]])
local C = ffi.C
local CLOCK_THREAD_CPUTIME_ID = 3
local ts = ffi.new("rampart_timespec")

local function now_ns()
  C.clock_gettime(CLOCK_THREAD_CPUTIME_ID, ts)
  return tonumber(ts.tv_sec) * 1e9 + tonumber(ts.tv_nsec)
end

local FLUSH = 256
local PREFIX = "profile|"
local totals = {}
local phases = {}

local function account(phase, ns)
  local t = totals[phase]
  if t == nil then
    t = { ns = 0, n = 0 }
    totals[phase] = t
  end
  t.ns = t.ns + ns
  t.n = t.n + 1
  if t.n >= FLUSH then
    local dict = ngx.shared.rampart_limits
    if dict then
      dict:incr(PREFIX .. phase .. "|ns", t.ns, 0)
      dict:incr(PREFIX .. phase .. "|n", t.n, 0)
    end
    t.ns, t.n = 0, 0
  end
end

-- The top-level phase running now (its start), closed by the wrapper or by an exit from inside.
local open_phase, open_t0 = nil, 0

local function close()
  if open_phase then
    account(open_phase, now_ns() - open_t0)
    open_phase = nil
  end
end

local function finish(phase, t0, ...)
  if open_phase == phase then
    account(phase, now_ns() - t0)
    open_phase = nil
  end
  return ...
end

-- `fn` measured as the top-level phase `phase`.
function _M.wrap(phase, fn)
  phases[#phases + 1] = phase
  return function(...)
    close()
    local t0 = now_ns()
    open_phase, open_t0 = phase, t0
    return finish(phase, t0, fn(...))
  end
end

local function finish_nested(name, t0, ...)
  account(name, now_ns() - t0)
  return ...
end

-- `fn` measured apart inside a phase (it must return normally: no exit from inside).
function _M.nested(name, fn)
  phases[#phases + 1] = name
  return function(...)
    return finish_nested(name, now_ns(), fn(...))
  end
end

-- Installs the wrappers of ngx's request-ending calls (they close the open phase first).
function _M.wrap_exits()
  for _, name in ipairs({ "exit", "exec", "redirect" }) do
    local real = ngx[name]
    ngx[name] = function(...)
      close()
      return real(...)
    end
  end
end

-- The cost of one measure (two clock reads), taken once per worker.
local overhead_ns = nil
local function overhead()
  if overhead_ns == nil then
    local t0 = now_ns()
    for _ = 1, 1000 do now_ns() end
    overhead_ns = (now_ns() - t0) / 1000
  end
  return overhead_ns
end

-- For the bench's read location: {"overhead_ns": …, "<phase>": {"ns": …, "n": …}, …} (the shared
-- dict's sums, this worker's unflushed remainder added).
function _M.read()
  local dict = ngx.shared.rampart_limits
  local out = { '{"overhead_ns":', string.format("%.1f", overhead()) }
  for _, phase in ipairs(phases) do
    local t = totals[phase] or { ns = 0, n = 0 }
    local ns = (dict and dict:get(PREFIX .. phase .. "|ns") or 0) + t.ns
    local n = (dict and dict:get(PREFIX .. phase .. "|n") or 0) + t.n
    out[#out + 1] = string.format(',"%s":{"ns":%d,"n":%d}', phase, ns, n)
  end
  out[#out + 1] = "}"
  ngx.header.content_type = "application/json"
  ngx.print(table.concat(out))
end

return _M
