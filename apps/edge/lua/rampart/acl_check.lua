-- Checks a Lua ACL module of the data plane again (defence in depth, as rampart.modules_check does
-- for the other types): the allowlists of packages/contract/src/edge/modules.ts
-- (edgeLuaAclModuleSchema). Returns a clean record with only known fields, or nil, field, reason.
local checks = require "rampart.checks"
local firewall_check = require "rampart.firewall_check"
local limits = require "rampart.contract_limits"

local _M = {}

local null = ngx.null
local re_find = ngx.re.find
local is_array, is_int = checks.is_array, checks.is_int

-- The contract's limits and allowlists (rampart.contract_limits, generated from it).
local MAX_RULES, MAX_CONDITIONS = limits.ACL_RULES_PER_MODULE, limits.ACL_CONDITIONS_MAX
local MAX_VALUES, MAX_VALUE = limits.ACL_VALUES_MAX, limits.ACL_VALUE_MAX
local MAX_COUNT, MAX_SECONDS = limits.ACL_FREQUENCY_COUNT_MAX, limits.ACL_FREQUENCY_SECONDS_MAX
local STRING_FIELDS = limits.ACL_STRING_FIELDS
local STRING_OPS = limits.ACL_STRING_OPERATORS
local FREQUENCY_OPS = limits.ACL_FREQUENCY_OPERATORS
local METHODS = limits.ACL_METHODS
local ACTIONS = limits.ACL_ACTIONS
local VALUE_RE = limits.ACL_VALUE_RE
-- A regex condition's characters: printable ASCII, not empty (firewall_check.pattern_problem checks the rest).
local REGEX_RE = [[^[\x20-\x7e]+\z]]
local HEADER_NAME_RE = [[^[A-Za-z0-9][A-Za-z0-9-]{0,63}\z]]
local COUNTRY_RE = limits.GEO_COUNTRY_ID_RE
local REDIRECT_TARGET_RE =
  [[^(https?://[a-z0-9.-]{1,253}(?::(?:6553[0-5]|655[0-2]\d|65[0-4]\d\d|6[0-4]\d{3}|[1-5]\d{4}|[1-9]\d{0,3}))?)?/[A-Za-z0-9._~!$&'()*+,;=:@%/?#-]{0,1023}\z]]

local function matches(v, re) return type(v) == "string" and re_find(v, re, "jo") ~= nil end

local function condition(c, path)
  if type(c) ~= "table" then return nil, path, "not an object" end
  if type(c.negate) ~= "boolean" and c.field ~= "frequency" then return nil, path .. ".negate", "not a boolean" end
  local field = c.field
  if STRING_FIELDS[field] then
    if not STRING_OPS[c.op] then return nil, path .. ".op", "not exact, prefix, contains or regex" end
    if type(c.value) ~= "string" or #c.value > MAX_VALUE or not matches(c.value, VALUE_RE) then
      return nil, path .. ".value", "not printable ASCII"
    end
    if c.op == "regex" then
      local problem = firewall_check.pattern_problem(c.value, MAX_VALUE, REGEX_RE, "j", "ACL")
      if problem then return nil, path .. ".value", problem end
    end
    if field == "header" then
      if not matches(c.name, HEADER_NAME_RE) then return nil, path .. ".name", "not a header name" end
    elseif c.name ~= "" then
      return nil, path .. ".name", "only a header condition names a header"
    end
    return { field = field, op = c.op, negate = c.negate, name = c.name, value = c.value }
  elseif field == "ip" then
    local v4, err_field, reason = firewall_check.ranges(c.v4, path .. ".v4", firewall_check.HEX4_RE)
    if v4 == nil then return nil, err_field, reason end
    local v6
    v6, err_field, reason = firewall_check.ranges(c.v6, path .. ".v6", firewall_check.HEX6_RE)
    if v6 == nil then return nil, err_field, reason end
    return { field = field, negate = c.negate, v4 = v4, v6 = v6 }
  elseif field == "country" or field == "method" then
    if not is_array(c.values, MAX_VALUES) or #c.values == 0 then
      return nil, path .. ".values", "not a list of 1 to " .. MAX_VALUES
    end
    for i, v in ipairs(c.values) do
      local ok = field == "country" and matches(v, COUNTRY_RE) or field == "method" and METHODS[v] == true
      if not ok then return nil, path .. ".values[" .. (i - 1) .. "]", "not a " .. field end
    end
    return { field = field, negate = c.negate, values = c.values }
  elseif field == "frequency" then
    if not FREQUENCY_OPS[c.op] then return nil, path .. ".op", "not gt, lt, gte or lte" end
    if not is_int(c.count, 0, MAX_COUNT) then return nil, path .. ".count", "not 0.." .. MAX_COUNT end
    if not is_int(c.seconds, 1, MAX_SECONDS) then return nil, path .. ".seconds", "not 1.." .. MAX_SECONDS end
    return { field = field, op = c.op, count = c.count, seconds = c.seconds }
  end
  return nil, path .. ".field", "not a condition field"
end

local function rule(r, path)
  if type(r) ~= "table" then return nil, path, "not an object" end
  if not is_int(r.id, 1, 2147483647) then return nil, path .. ".id", "not an id" end
  if not ACTIONS[r.action] then return nil, path .. ".action", "not an ACL action" end
  local target = nil
  if r.action == "redirect" then
    if not matches(r.target, REDIRECT_TARGET_RE) then return nil, path .. ".target", "not a redirect target" end
    target = r.target
  elseif r.target ~= null and r.target ~= nil then
    return nil, path .. ".target", "only a redirect rule has a target"
  end
  if not is_array(r.conditions, MAX_CONDITIONS) or #r.conditions == 0 then
    return nil, path .. ".conditions", "not a list of 1 to " .. MAX_CONDITIONS
  end
  local conditions = {}
  for i, c in ipairs(r.conditions) do
    local clean, field, reason = condition(c, path .. ".conditions[" .. (i - 1) .. "]")
    if clean == nil then return nil, field, reason end
    conditions[i] = clean
  end
  return { id = r.id, action = r.action, target = target, conditions = conditions }
end

-- A luaAcl module (id and type checked by the caller) → clean record, or nil, field, reason.
function _M.module(m, path)
  if not is_int(m.siteId, 1, 2147483647) then return nil, path .. ".siteId", "not an id" end
  if not is_array(m.rules, MAX_RULES) then return nil, path .. ".rules", "not a list of at most " .. MAX_RULES end
  local rules = {}
  for i, r in ipairs(m.rules) do
    local clean, field, reason = rule(r, path .. ".rules[" .. (i - 1) .. "]")
    if clean == nil then return nil, field, reason end
    rules[i] = clean
  end
  return { id = m.id, type = m.type, siteId = m.siteId, rules = rules }
end

return _M
