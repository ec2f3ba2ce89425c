-- Checks a WAF module of the data plane again (defence in depth, as rampart.acl_check does for the
-- Lua ACL): the allowlists of packages/contract/src/edge/waf.ts (edgeWafModuleSchema). Returns a
-- clean record with only known fields, or nil, field, reason.
local checks = require "rampart.checks"

local _M = {}

local null = ngx.null
local re_find = ngx.re.find
local is_array, is_int = checks.is_array, checks.is_int

local GROUPS = {}
for _, g in ipairs({ "sqli", "xss", "rce", "traversal", "rfi", "php", "java", "ssti", "ssrf", "xxe", "upload",
  "sensitiveFiles", "scanner", "protocol", "nosql", "ldap", "redirect", "graphql", "cve" }) do
  GROUPS[g] = true
end
local MODES = { block = true, detect = true }
local SENSITIVITIES = { low = true, medium = true, high = true }
local FAIL_MODES = { open = true, closed = true }
local PARTS = { any = true, path = true, query = true, body = true, cookie = true, header = true, file = true }
local RULE_ID_MIN, RULE_ID_MAX = 100000, 118999
local EXCLUSIONS_MAX, NAME_MAX, PATH_MAX = 200, 128, 512
local NAME_RE = [[^[\x21-\x7e]*\z]]
local PATH_RE = [[^/[\x21-\x7e]*\z]]

local function exclusion(e, path)
  if type(e) ~= "table" then return nil, path, "not an object" end
  local rule, group = e.ruleId, e.group
  if rule == nil then rule = null end
  if group == nil then group = null end
  if (rule == null) == (group == null) then return nil, path .. ".ruleId", "an exclusion names one rule or one group" end
  if rule ~= null and not is_int(rule, RULE_ID_MIN, RULE_ID_MAX) then return nil, path .. ".ruleId", "not a WAF rule id" end
  if group ~= null and not GROUPS[group] then return nil, path .. ".group", "not a WAF group" end
  if not PARTS[e.part] then return nil, path .. ".part", "not a WAF part" end
  if type(e.name) ~= "string" or #e.name > NAME_MAX or not re_find(e.name, NAME_RE, "jo") then
    return nil, path .. ".name", "not a name"
  end
  if type(e.path) ~= "string" or #e.path > PATH_MAX or (e.path ~= "" and not re_find(e.path, PATH_RE, "jo")) then
    return nil, path .. ".path", "not a path prefix"
  end
  return { ruleId = rule, group = group, part = e.part, name = e.name, path = e.path }
end

-- A waf module (id and type checked by the caller) → clean record, or nil, field, reason.
function _M.module(m, path)
  if not is_int(m.siteId, 1, 2147483647) then return nil, path .. ".siteId", "not an id" end
  if not MODES[m.mode] then return nil, path .. ".mode", "not block or detect" end
  if not SENSITIVITIES[m.sensitivity] then return nil, path .. ".sensitivity", "not low, medium or high" end
  if not FAIL_MODES[m.failMode] then return nil, path .. ".failMode", "not open or closed" end
  if not is_array(m.groups, 19) then return nil, path .. ".groups", "not a list of WAF groups" end
  local groups = {}
  for i, g in ipairs(m.groups) do
    if not GROUPS[g] then return nil, path .. ".groups[" .. (i - 1) .. "]", "not a WAF group" end
    groups[i] = g
  end
  if not is_array(m.exclusions, EXCLUSIONS_MAX) then
    return nil, path .. ".exclusions", "not a list of at most " .. EXCLUSIONS_MAX
  end
  local exclusions = {}
  for i, e in ipairs(m.exclusions) do
    local clean, field, reason = exclusion(e, path .. ".exclusions[" .. (i - 1) .. "]")
    if clean == nil then return nil, field, reason end
    exclusions[i] = clean
  end
  return {
    id = m.id, type = m.type, siteId = m.siteId, mode = m.mode, groups = groups, sensitivity = m.sensitivity,
    failMode = m.failMode, exclusions = exclusions,
  }
end

return _M
