-- Checks a site-firewall entry of the data plane again (the agent checked it with the contract's
-- zod schema: packages/contract/src/edge/data-plane.ts edgeFirewallSchema), with the same
-- allowlists and limits, and returns a clean copy holding only known fields. On failure: nil,
-- field, reason. The URL pattern is compiled here with ngx.re, as the edge will run it: a pattern
-- PCRE refuses refuses the whole document.
local checks = require "rampart.checks"
local limits = require "rampart.contract_limits"
local geo = require "rampart.firewall_geo"
local reputation = require "rampart.firewall_reputation"

local _M = {}

-- The contract's lists and limits (rampart.contract_limits, generated from packages/contract):
-- routes/firewall-lists.ts FIREWALL_METHODS, FIREWALL_LIST_RULES_PER_SITE, FIREWALL_URL_MAX,
-- FIREWALL_URL_RE and MAX_IPS (constants.ts).
local METHODS = limits.FIREWALL_METHODS
-- What a frequency limit or an anti-CC rule's error action may do (edge/challenge.ts
-- EDGE_BLOCK_ACTIONS; header rules and a domain's lists keep deny and drop: rampart.firewall_headers_check).
local ACTIONS = limits.EDGE_BLOCK_ACTIONS
-- What a blacklist or user-agent rule may do (rampart.checks).
local RULE_ACTIONS = checks.RULE_ACTIONS
local MAX_RULES, MAX_RANGES, MAX_URL = limits.FIREWALL_LIST_RULES_PER_SITE, limits.MAX_IPS, limits.FIREWALL_URL_MAX
local URL_RE = limits.FIREWALL_URL_RE
-- routes/firewall-user-agents.ts USER_AGENT_REGEX_RE and USER_AGENT_REGEX_MAX.
local UA_RE = limits.USER_AGENT_REGEX_RE
local MAX_UA = limits.USER_AGENT_REGEX_MAX
-- routes/firewall-frequency.ts FREQUENCY_SECONDS_MAX, FREQUENCY_TIMES_MAX, SECOND_RATE_MAX,
-- SECOND_BURST_MAX and BLOCK_SECONDS_MAX.
local MAX_SECONDS, MAX_TIMES, MAX_RATE, MAX_BURST, MAX_BLOCK = limits.FREQUENCY_SECONDS_MAX,
  limits.FREQUENCY_TIMES_MAX, limits.SECOND_RATE_MAX, limits.SECOND_BURST_MAX, limits.BLOCK_SECONDS_MAX
local HEX4_RE = [[^[0-9a-f]{8}\z]]
local HEX6_RE = [[^[0-9a-f]{32}\z]]

local re_find = ngx.re.find
local is_int, is_list = checks.is_int, checks.is_array

local ESCAPES = {}
for c in ("dDwWsS./\\-^$|?*+()[]{}"):gmatch(".") do ESCAPES[c] = true end

-- Index just past the POSIX class "[:name:]" that starts at s[i] == "[", or nil (PCRE2's
-- check_posix_syntax as the contract's posixItemEnd reads it).
local function posix_end(s, i)
  if s:sub(i + 1, i + 1) ~= ":" then return nil end
  local j = i + 2
  while j <= #s do
    local c, d = s:sub(j, j), s:sub(j + 1, j + 1)
    if c == "\\" and (d == "]" or d == "\\") then
      j = j + 2
    elseif (c == "[" and (d == ":" or d == "." or d == "=")) or c == "]" then
      return nil
    elseif c == ":" and d == "]" then
      return j + 2
    else
      j = j + 1
    end
  end
  return nil
end

-- The regex subset of the contract's pcreRegexProblem (validators/regex.ts), never stricter: a
-- backslash only before a class letter or punctuation, no "(?" or "(*" construct outside a class.
local function subset_ok(s)
  local i, n = 1, #s
  while i <= n do
    local c = s:sub(i, i)
    if c == "\\" then
      if not ESCAPES[s:sub(i + 1, i + 1)] then return false end
      i = i + 2
    elseif c == "[" then
      -- A "]" right after "[" or "[^" is a literal; the class ends at the next unescaped "]".
      local j = i + 1
      if s:sub(j, j) == "^" then j = j + 1 end
      if s:sub(j, j) == "]" then j = j + 1 end
      while j <= n and s:sub(j, j) ~= "]" do
        local d = s:sub(j, j)
        if d == "\\" then
          if not ESCAPES[s:sub(j + 1, j + 1)] then return false end
          j = j + 2
        else
          j = (d == "[" and posix_end(s, j)) or j + 1
        end
      end
      i = j + 1
    elseif c == "(" and (s:sub(i + 1, i + 1) == "?" or s:sub(i + 1, i + 1) == "*") then
      return false
    else
      i = i + 1
    end
  end
  return true
end

-- Why a pattern is refused, or nil: `chars_re` and `max` (the contract's characters and length),
-- its regex subset, and PCRE must compile it with `options` as the firewall runs it ("j" without
-- "o": the check does not fill the worker's cache of compiled patterns).
local function pattern_problem(source, max, chars_re, options, what)
  if type(source) ~= "string" or #source > max or not re_find(source, chars_re, "jo") then
    return "not a " .. what .. " pattern"
  end
  if not subset_ok(source) then return "a regex construct outside the allowed subset" end
  -- ngx.re.find answers from, to, err: a pattern PCRE cannot compile gives nil, nil, err.
  local _, _, err = re_find("", source, options)
  if err then return "the regex does not compile: " .. err end
  return nil
end

local function url_problem(url)
  return pattern_problem(url, MAX_URL, URL_RE, "j", "firewall URL")
end

-- User-agent patterns are matched case-insensitively.
local function user_agent_problem(ua)
  return pattern_problem(ua, MAX_UA, UA_RE, "ij", "user-agent")
end

-- The hex number after `h` (same width), or nil for the last address (all f).
local function successor(h)
  local i = #h
  while i > 0 and h:sub(i, i) == "f" do i = i - 1 end
  if i == 0 then return nil end
  local digit = tonumber(h:sub(i, i), 16) + 1
  return h:sub(1, i - 1) .. string.format("%x", digit) .. string.rep("0", #h - i)
end

-- Sorted, non-overlapping, non-adjacent [first, last] ranges of lower-case hex addresses of one
-- width (lower-case hex of one width sorts as the numbers do).
local function ranges(list, path, hex_re)
  if not is_list(list, MAX_RANGES) then return nil, path, "not a list of at most " .. MAX_RANGES end
  local clean, next_free = {}, nil
  for i, r in ipairs(list) do
    local at = path .. "[" .. (i - 1) .. "]"
    if not is_list(r, 2) or #r ~= 2 then return nil, at, "not a [first, last] pair" end
    local first, last = r[1], r[2]
    if type(first) ~= "string" or not re_find(first, hex_re, "jo") then return nil, at .. "[0]", "not an address in hex" end
    if type(last) ~= "string" or not re_find(last, hex_re, "jo") then return nil, at .. "[1]", "not an address in hex" end
    if first > last then return nil, at, "range ends before it starts" end
    if i > 1 and (next_free == nil or first <= next_free) then
      return nil, at, "ranges not sorted, overlapping or adjacent"
    end
    next_free = successor(last)
    clean[i] = { first, last }
  end
  return clean
end

local function rule(r, path, blacklist)
  if type(r) ~= "table" then return nil, path, "not an object" end
  if not is_int(r.id, 1, 2147483647) then return nil, path .. ".id", "not an id" end
  local problem = url_problem(r.url)
  if problem then return nil, path .. ".url", problem end
  if not is_list(r.methods, 7) or #r.methods == 0 then return nil, path .. ".methods", "not a list of 1 to 7" end
  local methods = {}
  for i, m in ipairs(r.methods) do
    if not METHODS[m] then return nil, path .. ".methods[" .. (i - 1) .. "]", "not a method" end
    methods[i] = m
  end
  local v4, field, reason = ranges(r.v4, path .. ".v4", HEX4_RE)
  if v4 == nil then return nil, field, reason end
  local v6
  v6, field, reason = ranges(r.v6, path .. ".v6", HEX6_RE)
  if v6 == nil then return nil, field, reason end
  local clean = { id = r.id, url = r.url, methods = methods, v4 = v4, v6 = v6 }
  if blacklist then
    if not RULE_ACTIONS[r.action] then return nil, path .. ".action", "not an action" end
    clean.action = r.action
  end
  return clean
end

local function list(rules, path, blacklist)
  if not is_list(rules, MAX_RULES) then return nil, path, "not a list of at most " .. MAX_RULES end
  local clean = {}
  for i, r in ipairs(rules) do
    local c, field, reason = rule(r, path .. "[" .. (i - 1) .. "]", blacklist)
    if c == nil then return nil, field, reason end
    clean[i] = c
  end
  return clean
end

local function user_agents(rules, path)
  if rules == nil then return {} end
  if not is_list(rules, MAX_RULES) then return nil, path, "not a list of at most " .. MAX_RULES end
  local clean = {}
  for i, r in ipairs(rules) do
    local at = path .. "[" .. (i - 1) .. "]"
    if type(r) ~= "table" then return nil, at, "not an object" end
    if not is_int(r.id, 1, 2147483647) then return nil, at .. ".id", "not an id" end
    local problem = url_problem(r.url)
    if problem then return nil, at .. ".url", problem end
    problem = user_agent_problem(r.userAgent)
    if problem then return nil, at .. ".userAgent", problem end
    if not RULE_ACTIONS[r.action] then return nil, at .. ".action", "not an action" end
    clean[i] = { id = r.id, url = r.url, userAgent = r.userAgent, action = r.action }
  end
  return clean
end

-- The whole-number fields of each kind of frequency limit: name, least and greatest value.
local INTERVAL_FIELDS = { { "seconds", 1, MAX_SECONDS }, { "times", 1, MAX_TIMES } }
local RATE_FIELDS = { { "rate", 1, MAX_RATE }, { "burst", 0, MAX_BURST }, { "blockSeconds", 0, MAX_BLOCK } }

-- The named-value fields of each kind of limit: name, the allowed values, the reason for another.
local ACTION_FIELD = { { "action", ACTIONS, "not deny, drop or dropBlacklist" } }

-- Interval or per-second limits or anti-CC rules (`fields` and `choices` say which): id, URL
-- pattern, the numbers, the named values. A list that is missing (a document from before them)
-- reads as empty.
local function frequency(rules, path, fields, choices)
  if rules == nil then return {} end
  if not is_list(rules, MAX_RULES) then return nil, path, "not a list of at most " .. MAX_RULES end
  local clean = {}
  for i, r in ipairs(rules) do
    local at = path .. "[" .. (i - 1) .. "]"
    if type(r) ~= "table" then return nil, at, "not an object" end
    if not is_int(r.id, 1, 2147483647) then return nil, at .. ".id", "not an id" end
    local problem = url_problem(r.url)
    if problem then return nil, at .. ".url", problem end
    local c = { id = r.id, url = r.url }
    for _, f in ipairs(fields) do
      local name, least, most = f[1], f[2], f[3]
      if not is_int(r[name], least, most) then
        return nil, at .. "." .. name, "not a whole number from " .. least .. " to " .. most
      end
      c[name] = r[name]
    end
    for _, f in ipairs(choices) do
      local name, allowed, reason = f[1], f[2], f[3]
      if not allowed[r[name]] then return nil, at .. "." .. name, reason end
      c[name] = r[name]
    end
    clean[i] = c
  end
  return clean
end

-- Anti-CC rules (packages/contract/src/routes/firewall-anti-cc.ts): the URL pattern, the window
-- and count (times 0: every request), the challenge, the error limit and its action.
local CHALLENGES = limits.EDGE_CHALLENGES
local ANTI_CC_FIELDS = {
  { "seconds", 1, MAX_SECONDS }, { "times", 0, MAX_TIMES }, { "errorSeconds", 1, MAX_SECONDS },
  { "errorTimes", 1, MAX_TIMES },
}
local ANTI_CC_CHOICES = {
  { "challenge", CHALLENGES, "not a challenge" }, { "errorAction", ACTIONS, "not deny, drop or dropBlacklist" },
}

function _M.entry(f, path)
  if type(f) ~= "table" then return nil, path, "not an object" end
  if not is_int(f.id, 1, 2147483647) then return nil, path .. ".id", "not an id" end
  local whitelist, field, reason = list(f.whitelist, path .. ".whitelist", false)
  if whitelist == nil then return nil, field, reason end
  local blacklist
  blacklist, field, reason = list(f.blacklist, path .. ".blacklist", true)
  if blacklist == nil then return nil, field, reason end
  local agents
  agents, field, reason = user_agents(f.userAgents, path .. ".userAgents")
  if agents == nil then return nil, field, reason end
  local intervals
  intervals, field, reason = frequency(f.intervals, path .. ".intervals", INTERVAL_FIELDS, ACTION_FIELD)
  if intervals == nil then return nil, field, reason end
  local rates
  rates, field, reason = frequency(f.rates, path .. ".rates", RATE_FIELDS, ACTION_FIELD)
  if rates == nil then return nil, field, reason end
  local cc
  cc, field, reason = frequency(f.antiCC, path .. ".antiCC", ANTI_CC_FIELDS, ANTI_CC_CHOICES)
  if cc == nil then return nil, field, reason end
  -- Header rules (rampart.firewall_headers_check, which reads the pattern checks below).
  local headers
  headers, field, reason = require("rampart.firewall_headers_check").site(f.headers, path .. ".headers")
  if headers == nil then return nil, field, reason end
  local geos
  geos, field, reason = geo.check_rules(f.geos, path .. ".geos", url_problem)
  if geos == nil then return nil, field, reason end
  -- IP trust protection (rampart.firewall_reputation): absent or null for a site without it.
  local trust
  trust, field, reason = reputation.check_setting(f.reputation, path .. ".reputation", require("cjson.safe").null)
  if trust == nil then return nil, field, reason end
  return {
    id = f.id, whitelist = whitelist, blacklist = blacklist, userAgents = agents, intervals = intervals, rates = rates,
    antiCC = cc, headers = headers, geos = geos, reputation = trust or nil,
  }
end

-- For rampart.firewall_headers_check.
_M.url_problem = url_problem
_M.pattern_problem = pattern_problem
-- For rampart.acl_check: address ranges as the lists carry them.
_M.ranges = ranges
_M.HEX4_RE, _M.HEX6_RE = HEX4_RE, HEX6_RE

return _M
