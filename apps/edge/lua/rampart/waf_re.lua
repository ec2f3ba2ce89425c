-- ngx.re.find, match and gmatch for the WAF (every waf_*.lua module uses these, never ngx.re). A pattern that fails
-- on a value (PCRE's backtracking bound, lua_regex_match_limit, or any other error) cannot say
-- whether the value holds what it looks for. It answers "no match" to its caller, as ngx.re.find
-- does, but the failure is remembered for the request: rampart.waf then counts the request as not
-- fully inspected, as past its budget, and the module's fail mode decides (docs/decisions.md "The
-- WAF"). So a value crafted to make a rule's pattern give up is never read as clean by a module
-- that fails closed, and is logged either way.
local ngx_re_find, ngx_re_match, ngx_re_gmatch, ngx_re_gsub = ngx.re.find, ngx.re.match, ngx.re.gmatch, ngx.re.gsub
local core_re = require "resty.core.regex"
local ffi = require "ffi"

local _M = {}

-- One request at a time per worker (nothing in the WAF yields): module state, reset per request.
local failed_err = nil

-- find's compiled patterns, by options then pattern: the same compiled regex and flags ngx.re.find
-- uses (resty.core.regex's re_match_compile, which also keeps it in ngx.re's cache) run by the same
-- C function, without what ngx.re.find does again on every call (its cache key: the pattern, often
-- a kilobyte, copied and hashed; an LRU list moved; the options parsed). The WAF's patterns are its
-- own constants (and those compiled from a module's rules): a bounded set, kept for the worker's
-- life, FIND_MAX at most (past that ngx.re.find as before).
-- (only while ngx.re.find is resty.core's own: one replaced, as a test's fault injection or an
-- instrumentation does, gets every call)
local FIND_MAX = 4096
local info = debug.getinfo(ngx_re_find, "S")
if not (info and info.source and info.source:find("resty/core/regex.lua", 1, true)) then FIND_MAX = 0 end
local found, n_found = {}, 0
local exec = ffi.C.ngx_http_lua_ffi_exec_regex
local NOMATCH, FLAG_DFA = -1, 0x02
local band = require("bit").band

local function compiled_for(re, opts)
  local by = found[opts]
  local c = by and by[re]
  if c ~= nil or n_found >= FIND_MAX then return c end
  local compiled, once, flags = core_re.re_match_compile(re, opts)
  -- (a pattern that does not compile, or an ngx.re without a cache: ngx.re.find's own path)
  if compiled == nil or not once then return nil end
  if not by then
    by = {}
    found[opts] = by
  end
  c = { compiled, flags }
  by[re] = c
  n_found = n_found + 1
  return c
end

function _M.find(s, re, opts)
  if type(s) ~= "string" then s = tostring(s) end
  local c = compiled_for(re, opts)
  if c == nil then
    local from, to, err = ngx_re_find(s, re, opts)
    if err and not failed_err then failed_err = err end
    return from, to, err
  end
  local compiled = c[1]
  local rc = exec(compiled, c[2], s, #s, 0)
  if rc == NOMATCH then return nil end
  if rc < 0 then
    local err = "pcre_exec() failed: " .. rc
    if not failed_err then failed_err = err end
    return nil, nil, err
  end
  if rc == 0 and band(c[2], FLAG_DFA) ~= 0 then rc = 1 end
  if rc == 0 then
    -- (the ovector too small: as ngx.re.find)
    local err = "capture size too small"
    if not failed_err then failed_err = err end
    return nil, nil, err
  end
  local caps = compiled.captures
  local from, to = caps[0] + 1, caps[1]
  if from < 0 or to < 0 then return nil end
  return from, to
end

function _M.match(s, re, opts, ctx)
  local m, err = ngx_re_match(s, re, opts, ctx)
  if err and not failed_err then failed_err = err end
  return m, err
end

local function no_more() return nil end

-- An iterator over the matches; a failure (at the start or at any step) ends it and is remembered.
function _M.gmatch(s, re, opts)
  local it, err = ngx_re_gmatch(s, re, opts)
  if not it then
    if not failed_err then failed_err = err end
    return no_more
  end
  return function()
    local m, e = it()
    if e and not failed_err then failed_err = e end
    return m
  end
end

-- ngx.re.gsub (PCRE skips to a class's bytes where a Lua class gsub tries every byte); on a failure
-- the value unchanged, the failure remembered.
function _M.gsub(s, re, rep, opts)
  local r, _, err = ngx_re_gsub(s, re, rep, opts)
  if not r then
    if not failed_err then failed_err = err end
    return s
  end
  return r
end

-- string.gmatch(s, lit_pattern .. rest) for a Lua pattern that begins with the plain text lit (given
-- apart, with `rest` the pattern after it): the same matches in the same order, the pattern tried
-- only where a plain search finds lit (gmatch tries it at every byte, a call each). At most three
-- captures.
local str_find = string.find
function _M.gmatch_from(s, lit, pat)
  local find, anchored, pos = str_find, "^" .. pat, 1
  return function()
    while true do
      local a = find(s, lit, pos, true)
      if not a then return nil end
      local _, e, c1, c2, c3 = find(s, anchored, a)
      if e then
        pos = e + 1
        return c1, c2, c3
      end
      pos = a + 1
    end
  end
end

-- How many patterns find runs directly (0: every call goes through ngx.re.find).
function _M.direct() return n_found, FIND_MAX end

-- The first error of this request's patterns, or nil.
function _M.failure() return failed_err end

function _M.reset() failed_err = nil end

-- Checks as a table: a list of { id, score (8), re, opts ("jo"), need, like, at, subject, shows } run
-- in order over one value v. `need`: plain strings found in v before the pattern runs (a string, or
-- a list of them each of which must be there, an inner list meaning one of its strings); `like`: a
-- Lua pattern v must match too. The pattern runs on `subject(v)` (v itself without one). A match
-- calls where(part, name, subject when `shows` is "subject", else v) when `where` is given, then
-- hit(id, score, at or where it starts).
local plain_find = string.find
local function ready(c, v)
  local need = c.need
  for i = 1, #need do
    local t = need[i]
    if type(t) == "string" then
      if not plain_find(v, t, 1, true) then return false end
    else
      local one = false
      for j = 1, #t do
        if plain_find(v, t[j], 1, true) then
          one = true
          break
        end
      end
      if not one then return false end
    end
  end
  return c.like == nil or plain_find(v, c.like) ~= nil
end

function _M.checks(list)
  for _, c in ipairs(list) do
    assert(c.id and c.re, "a check needs its id and pattern")
    c.score, c.opts = c.score or 8, c.opts or "jo"
    if type(c.need) ~= "table" then c.need = { c.need } end
  end
  return list
end

-- A check list's patterns ({ id, group, re }, as a module's PATTERNS for test/waf-patterns.test.ts),
-- added to `into` when given.
function _M.patterns(group, list, into)
  local out = into or {}
  for _, c in ipairs(list) do out[#out + 1] = { id = c.id, group = group, re = c.re } end
  return out
end

-- Runs checks (made by checks()) over v; `first`: only the first match, and true when there was one.
function _M.run(checks, v, hit, first, where, part, name)
  local matched = false
  for i = 1, #checks do
    local c = checks[i]
    if ready(c, v) then
      local s = c.subject and c.subject(v) or v
      local from = _M.find(s, c.re, c.opts)
      if from then
        if where then where(part, name, c.shows == "subject" and s or v) end
        hit(c.id, c.score, c.at or from)
        if first then return true end
        matched = true
      end
    end
  end
  return matched
end

-- An alternation of words ("a|b|c", a word may hold groups of its own) grouped by their first
-- letter: PCRE tries the alternatives one after the other at each place a match may start, and a
-- group whose letter differs fails at once.
function _M.by_first_letter(words)
  local groups, order, list, depth, from = {}, {}, {}, 0, 1
  for i = 1, #words + 1 do
    local b = words:sub(i, i)
    if b == "(" then depth = depth + 1 elseif b == ")" then depth = depth - 1 end
    if (b == "|" and depth == 0) or b == "" then
      list[#list + 1] = words:sub(from, i - 1)
      from = i + 1
    end
  end
  for _, w in ipairs(list) do
    local c = w:sub(1, 1)
    if c == "(" then c = "" end
    if not groups[c] then groups[c] = {} order[#order + 1] = c end
    local g = groups[c]
    g[#g + 1] = c == "" and w or w:sub(2)
  end
  local out = {}
  for _, c in ipairs(order) do
    out[#out + 1] = c .. "(?:" .. table.concat(groups[c], "|") .. ")"
  end
  return table.concat(out, "|")
end

return _M
