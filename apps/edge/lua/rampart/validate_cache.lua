-- The cache policies of a data-plane document (rampart.validate), checked again as the agent
-- checked them: clean policies holding only known fields, or nil, field, reason.
local checks = require "rampart.checks"

local _M = {}

local re_find = ngx.re.find
local is_array, is_int = checks.is_array, checks.is_int

-- Rules per policy and values per rule (packages/contract CACHE_RULES_PER_SITE, CACHE_RULE_VALUES_MAX * 8).
local LIMITS = { cache_rules = 100, cache_values = 400 }
-- The same patterns as the contract (packages/contract/src/routes/site-cache.ts).
local CACHE_PATH_RE = [[^/[A-Za-z0-9._~!$&'()*+,;=:@%/-]{0,255}\z]]
local CACHE_SUFFIX_RE = [[^[a-z0-9]{1,16}\z]]
local CACHE_SCOPES = { all = true, directory = true, path = true, suffix = true }
local CACHE_TTLS = {}
for _, ttl in ipairs({ 60, 300, 600, 1800, 3600, 7200, 21600, 43200, 86400, 259200, 604800, 2592000 }) do
  CACHE_TTLS[ttl] = true
end

local function cache_rule(r, path)
  if type(r) ~= "table" then return nil, path, "not an object" end
  if not CACHE_SCOPES[r.scope] then return nil, path .. ".scope", "not a cache scope" end
  if not is_array(r.values, LIMITS.cache_values) then return nil, path .. ".values", "not a list" end
  local pattern = (r.scope == "suffix") and CACHE_SUFFIX_RE or CACHE_PATH_RE
  if (r.scope == "all") ~= (#r.values == 0) then return nil, path .. ".values", "wrong number of values" end
  local values = {}
  for i, v in ipairs(r.values) do
    if type(v) ~= "string" or not re_find(v, pattern, "jo") then
      return nil, path .. ".values[" .. (i - 1) .. "]", "not a valid value"
    end
    values[i] = v
  end
  if not CACHE_TTLS[r.ttl] then return nil, path .. ".ttl", "not a cache lifetime" end
  if r.queryString ~= "ignore" and r.queryString ~= "include" then
    return nil, path .. ".queryString", "not ignore or include"
  end
  if type(r.bypass) ~= "boolean" then return nil, path .. ".bypass", "not a boolean" end
  if type(r.respectOrigin) ~= "boolean" then return nil, path .. ".respectOrigin", "not a boolean" end
  return {
    scope = r.scope, values = values, ttl = r.ttl, queryString = r.queryString, bypass = r.bypass,
    respectOrigin = r.respectOrigin,
  }
end

function _M.policy(p, path)
  if type(p) ~= "table" then return nil, path, "not an object" end
  if not is_int(p.id, 1, 2147483647) then return nil, path .. ".id", "not an id" end
  if not is_int(p.generation, 1, 2147483647) then return nil, path .. ".generation", "not a generation" end
  if not is_array(p.rules, LIMITS.cache_rules) or #p.rules == 0 then
    return nil, path .. ".rules", "not a list of 1 to " .. LIMITS.cache_rules
  end
  local rules = {}
  for i, r in ipairs(p.rules) do
    local clean, field, reason = cache_rule(r, path .. ".rules[" .. (i - 1) .. "]")
    if clean == nil then return nil, field, reason end
    rules[i] = clean
  end
  return { id = p.id, generation = p.generation, rules = rules }
end

return _M
