-- The inspection state of rampart.waf, shared by its modules (rampart.waf_detect, waf_inspect,
-- waf_body and waf itself): one request at a time per worker (nothing in the engine yields), so one
-- table. S.m is the module applied; S.part, S.name, S.value and S.lname what is being read (the
-- part, the argument/cookie/header/field name, its lower-cased form for headers, the value a hit
-- is excerpted from); S.best and the fields beside it the best hit so far; S.done once a hit is
-- strong enough to decide, S.over once a budget ran out (the request is then not fully inspected).
local waf_re = require "rampart.waf_re"

local S = {}

local monotonic = require "rampart.monotonic"

local sub, gsub = string.sub, string.gsub
-- The budget counts the worker's CPU time (os.clock), not the wall clock: a busy machine must not
-- make the engine give up on requests it would have finished. But the CPU clock is a system call
-- (CLOCK_PROCESS_CPUTIME_ID has no vDSO path: ~6 us a read on the bench machine), the monotonic
-- clock is not: a worker runs one thread, so the CPU time a request took is never more than the
-- wall time it took, and while the wall clock says the budget is not spent, neither is the CPU's.
-- The CPU clock is read when the budget starts and then only once the wall clock says it may be
-- spent (the same decisions at the same checks, without a system call at most of them).
local cpu_clock = os.clock
-- (nil when another library declared clock_gettime differently: no gate, the CPU clock at every
-- check as before)
local wall_clock = monotonic.now
local EXCERPT = 128
S.EXCERPT = EXCERPT
S.BYTES_BUDGET = 512 * 1024
S.TIME_BUDGET = 0.008

S.RULE = { body_limit = 113001, budget = 113002, smuggling = 113003, crlf = 113004, bad_encoding = 113005,
  nul = 113006, method = 113007, get_body = 113008, charset = 113009, multipart = 113010, content_type = 113011,
  undecodable = 113012, session = 113013, cookie_attribute = 113014,
  accept_charset = 113015, misplaced_header = 113016 } -- (113013: rampart.waf_session)

-- The group of a rule id (rampart.waf's, set once by it).
local group_of
function S.configure(f) group_of = f end

local function reset(m, uri)
  S.m, S.uri = m, uri
  S.seen = {}
  S.best, S.best_rule, S.best_part, S.best_excerpt, S.rules_hit, S.second = 0, nil, nil, nil, nil, false
  S.bytes, S.values, S.over, S.done = 0, 0, false, false
  S.source_doc = false
  -- (the budget's clock starts at its first check: see over_budget)
  S.started, S.wall_started = nil, nil
  S.clock_bytes, S.clock_values = 0, 0
  waf_re.reset()
  -- the exclusions whose path covers this request
  local ex = nil
  for _, e in ipairs(m.exclusions) do
    if e.path == "" or sub(uri, 1, #e.path) == e.path then
      ex = ex or {}
      ex[#ex + 1] = e
    end
  end
  S.ex = ex
end

local function excluded(id, group)
  local ex = S.ex
  if ex == nil then return false end
  for i = 1, #ex do
    local e = ex[i]
    if (e.rule == id or e.group == group) and (e.part == "any" or e.part == S.part) then
      if e.name == "" or e.part == "any" or e.part == "path" then return true end
      if S.part == "header" then
        if e.name == S.lname then return true end
      elseif e.name == S.name then
        return true
      end
    end
  end
  return false
end

local function excerpt(value, offset)
  local from = offset and offset > 40 and offset - 40 or 1
  local s = sub(value, from, from + EXCERPT * 2)
  s = gsub(s, "[%z\1-\31\127]", "")
  return sub(s, 1, EXCERPT)
end

-- A detector found something in S.value.
-- (S.source_doc: the value being read is a posted document's source, an HTML page or a
-- JavaScript module from an editor, rampart.waf_inspect: its markup is its content, not an
-- injection, and the xss group's hits in it do not count)
local function hit(id, score, offset)
  local group = group_of(id)
  if not S.m.groups[group] then return end
  if S.source_doc and group == "xss" then return end
  if excluded(id, group) then return end
  if S.rules_hit and S.rules_hit ~= id then S.second = true end
  S.rules_hit = S.rules_hit or id
  if score > S.best then
    S.best, S.best_rule, S.best_part, S.best_name = score, id, S.part, S.name
    S.best_excerpt = excerpt(S.value, offset)
  end
  if S.best >= 8 then S.done = true end
end

-- The CPU clock is a system call (os.clock: CLOCK_PROCESS_CPUTIME_ID has no vDSO path): it is
-- read only once CLOCK_EVERY_BYTES bytes or CLOCK_EVERY_VALUES values were inspected since it was
-- last read (or when `now`), which bounds how far past the budget a request can run to the cost
-- of that much inspection. The budget starts at the first check, not at the request's start: a
-- request smaller than that (nearly all of them) never pays the system call, and a larger one
-- runs at most that much inspection more before its budget starts counting.
local CLOCK_EVERY_BYTES, CLOCK_EVERY_VALUES = 8192, 64
local function over_budget(now)
  if S.over then return true end
  if not now and S.bytes - S.clock_bytes < CLOCK_EVERY_BYTES and S.values - S.clock_values < CLOCK_EVERY_VALUES then
    return false
  end
  S.clock_bytes, S.clock_values = S.bytes, S.values
  local started = S.started
  if started ~= nil and wall_clock and wall_clock() - S.wall_started <= S.TIME_BUDGET then return false end
  local now_cpu = cpu_clock()
  if started == nil then
    S.started = now_cpu
    S.wall_started = wall_clock and wall_clock()
  elseif now_cpu - started > S.TIME_BUDGET then
    S.over = true
  end
  return S.over
end

S.reset, S.excluded, S.hit, S.over_budget = reset, excluded, hit, over_budget

-- Decides the request now (a body the engine will not read: fail closed).
function S.decide(rule, part, text)
  S.part, S.name, S.value = part, "", text
  S.best, S.best_rule, S.best_part, S.best_excerpt = 8, rule, part, text
  S.done = true
end

return S
