-- A WAF module compiled for rampart.waf: its groups, threshold, fail mode and exclusions, and the
-- pattern rules of its groups (rampart.waf_rules) arranged so that one PCRE call stands for many.
local rules = require "rampart.waf_rules"
local I = require "rampart.waf_inspect"
local waf_guard = require "rampart.waf_guard"

local _M = {}

local byte, lower = string.byte, string.lower
local PREFILTER, ARGS_PREFILTER, WORDS_RE, WORDS_AT_START = I.PREFILTER, I.ARGS_PREFILTER, I.WORDS_RE, I.WORDS_AT_START

-- Is every top-level alternative of a pattern anchored at the value's start ("^...|^...")?
local function anchored(re)
  if byte(re, 1) ~= 94 then return false end
  local depth, class, i, n = 0, false, 1, #re
  while i <= n do
    local c = byte(re, i)
    if c == 92 then
      i = i + 1
    elseif class then
      if c == 93 then class = false end
    elseif c == 91 then
      class = true
    elseif c == 40 then
      depth = depth + 1
    elseif c == 41 then
      depth = depth - 1
    elseif c == 124 and depth == 0 and byte(re, i + 1) ~= 94 then
      return false
    end
    i = i + 1
  end
  return true
end

-- A list of value rules: those with a literal guard, those without, and the rules anchored at the
-- value's start joined in one pattern, so that one PCRE call (failing at the first byte, as they
-- all do on most values) stands for all of them. A combined pattern matches where one of its rules
-- does, so it never hides a match.
local function rule_list(list)
  local guarded_rules, open, starts, res, open_res = {}, {}, {}, {}, {}
  for _, r in ipairs(list) do
    if r.guard then
      guarded_rules[#guarded_rules + 1] = r
    elseif anchored(r.re) then
      starts[#starts + 1] = r
      res[#res + 1] = "(?:" .. r.re .. ")"
    else
      open[#open + 1] = r
      open_res[#open_res + 1] = "(?:" .. r.re .. ")"
    end
  end
  local guards = {}
  for i, r in ipairs(guarded_rules) do guards[i] = r.guard end
  -- the others without a guard behind one pattern too, when there are several; the guarded ones
  -- found by their guard strings (rampart.waf_guard rules_marked)
  return { guarded = guarded_rules, guard_index = waf_guard.rule_index(guards), open = open, starts = starts,
    any_start = #res > 0 and table.concat(res, "|") or nil, any_open = #open_res > 1 and table.concat(open_res, "|") or nil }
end
_M.rule_list = rule_list

local prefilters_checked = false
-- `GROUPS` in rule id order, `THRESHOLD` the score of each sensitivity (rampart.waf).
local function compile(raw, GROUPS, THRESHOLD)
  -- a prefilter that does not compile would pass every value unread: fail loudly instead
  if not prefilters_checked then
    for _, re in ipairs({ PREFILTER, ARGS_PREFILTER, WORDS_RE, WORDS_AT_START }) do
      local _, _, err = ngx.re.find("", re, "jo")
      if err then error("rampart waf: a prefilter does not compile: " .. err) end
    end
    prefilters_checked = true
  end
  local groups = {}
  for _, g in ipairs(raw.groups) do groups[g] = true end
  local exclusions = {}
  for i, e in ipairs(raw.exclusions) do
    exclusions[i] = {
      rule = e.ruleId ~= ngx.null and e.ruleId or nil,
      group = e.group ~= ngx.null and e.group or nil,
      part = e.part,
      -- headers compare case-insensitively; argument, cookie and field names exactly
      name = e.part == "header" and lower(e.name) or e.name,
      path = e.path,
    }
  end
  -- The rules of the groups that are on, flattened once.
  local value_rules = {}
  for _, g in ipairs(GROUPS) do
    if groups[g] and rules.RULES[g] then
      for _, r in ipairs(rules.RULES[g]) do
        value_rules[#value_rules + 1] = { id = r.id, score = r.score, re = r.re, group = g, guard = rules.GUARDS[r.id] }
      end
    end
  end
  -- the rules that judge a URL as a whole (rampart.waf inspect_url), and those read again over a
  -- value with its shell quoting folded away
  local url_rules, shell_rules, path_rules = {}, {}, {}
  for _, r in ipairs(value_rules) do
    if r.group == "rfi" or r.group == "ssrf" or r.group == "traversal" then url_rules[#url_rules + 1] = r end
    if r.group == "rce" or r.group == "traversal" then shell_rules[#shell_rules + 1] = r end
    if r.group == "traversal" then path_rules[#path_rules + 1] = r end
  end
  local special = {}
  for kind, list in pairs(rules.SPECIAL) do
    local on = {}
    for _, r in ipairs(list) do
      if groups[r.group] then on[#on + 1] = r end
    end
    special[kind] = on
  end
  local special_path = rule_list(special.path)
  return {
    id = tostring(raw.id), block = raw.mode == "block", groups = groups, threshold = THRESHOLD[raw.sensitivity] or 5,
    fail_closed = raw.failMode == "closed", exclusions = exclusions, value_rules = rule_list(value_rules), url_rules = rule_list(url_rules),
    shell_rules = rule_list(shell_rules), path_rules = rule_list(path_rules), special = special, special_path = special_path,
  }
end

_M.compile = compile

return _M
