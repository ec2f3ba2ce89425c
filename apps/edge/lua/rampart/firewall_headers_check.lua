-- Checks the header rules of a site-firewall entry and a domain's anti-referer and anti-header
-- lists again (the agent checked them with the contract's zod schema: packages/contract/src/edge/
-- data-plane.ts edgeFirewallSchema.headers and edgeDomainAccessSchema), with the same allowlists
-- and limits, and returns clean copies holding only known fields. On failure: nil, field, reason.
local checks = require "rampart.checks"
local firewall_check = require "rampart.firewall_check"
local cjson = require "cjson.safe"
local limits = require "rampart.contract_limits"

local _M = {}

-- The contract's (rampart.contract_limits, generated from packages/contract):
-- routes/firewall-headers.ts HEADER_NAME_RE (in lower case at the edge) and the value patterns'
-- characters and length (USER_AGENT_REGEX_RE, USER_AGENT_REGEX_MAX); routes/domain-access.ts
-- DOMAIN_ACCESS_RULES_MAX, REFERER_HOSTS_MAX, REFERER_MODES; FIREWALL_LIST_RULES_PER_SITE;
-- edge/data-plane-firewall.ts REFERER_HOST_RE and REFERER_HOST_MAX (a lower-case host name of two
-- labels or more, optionally after "*."); edge/challenge.ts EDGE_HEADER_ACTIONS.
local NAME_RE = limits.HEADER_NAME_RE
local VALUE_RE = limits.USER_AGENT_REGEX_RE
local MAX_VALUE = limits.USER_AGENT_REGEX_MAX
local MAX_SITE_RULES, MAX_DOMAIN_RULES, MAX_HOSTS =
  limits.FIREWALL_LIST_RULES_PER_SITE, limits.DOMAIN_ACCESS_RULES_MAX, limits.REFERER_HOSTS_MAX
local HOST_RE, MAX_HOST = limits.REFERER_HOST_RE, limits.REFERER_HOST_MAX
local ACTIONS = limits.EDGE_HEADER_ACTIONS
local MODES = limits.REFERER_MODES

local re_find, null = ngx.re.find, cjson.null
local is_int, is_list = checks.is_int, checks.is_array
local url_problem, pattern_problem = firewall_check.url_problem, firewall_check.pattern_problem

local function base(r, at)
  if type(r) ~= "table" then return nil, at, "not an object" end
  if not is_int(r.id, 1, 2147483647) then return nil, at .. ".id", "not an id" end
  local problem = url_problem(r.url)
  if problem then return nil, at .. ".url", problem end
  if not ACTIONS[r.action] then return nil, at .. ".action", "not deny or drop" end
  return { id = r.id, url = r.url, action = r.action }
end

-- Header rules: `value` null (or missing) is "the header is absent", kept as null.
local function headers(rules, path, max)
  if rules == nil then return {} end
  if not is_list(rules, max) then return nil, path, "not a list of at most " .. max end
  local clean = {}
  for i, r in ipairs(rules) do
    local at = path .. "[" .. (i - 1) .. "]"
    local c, field, reason = base(r, at)
    if c == nil then return nil, field, reason end
    if type(r.name) ~= "string" or not re_find(r.name, NAME_RE, "jo") or r.name ~= r.name:lower() then
      return nil, at .. ".name", "not a lower-case header name"
    end
    c.name = r.name
    if r.value == nil or r.value == null then
      c.value = null
    else
      -- Value patterns are matched case-insensitively.
      local problem = pattern_problem(r.value, MAX_VALUE, VALUE_RE, "ij", "header value")
      if problem then return nil, at .. ".value", problem end
      c.value = r.value
    end
    clean[i] = c
  end
  return clean
end

-- The header rules of a site-firewall entry (a missing list reads as empty).
function _M.site(rules, path)
  return headers(rules, path, MAX_SITE_RULES)
end

local function referers(rules, path)
  if not is_list(rules, MAX_DOMAIN_RULES) then return nil, path, "not a list of at most " .. MAX_DOMAIN_RULES end
  local clean = {}
  for i, r in ipairs(rules) do
    local at = path .. "[" .. (i - 1) .. "]"
    local c, field, reason = base(r, at)
    if c == nil then return nil, field, reason end
    if not MODES[r.mode] then return nil, at .. ".mode", "not allow or deny" end
    if type(r.allowEmpty) ~= "boolean" then return nil, at .. ".allowEmpty", "not a boolean" end
    if not is_list(r.hosts, MAX_HOSTS) or #r.hosts == 0 then
      return nil, at .. ".hosts", "not a list of 1 to " .. MAX_HOSTS
    end
    local hosts = {}
    for j, h in ipairs(r.hosts) do
      if type(h) ~= "string" or #h > MAX_HOST or not re_find(h, HOST_RE, "jo") then
        return nil, at .. ".hosts[" .. (j - 1) .. "]", "not a host name or *.host name"
      end
      hosts[j] = h
    end
    c.mode, c.allowEmpty, c.hosts = r.mode, r.allowEmpty, hosts
    clean[i] = c
  end
  return clean
end

-- A domain's `access` (absent: nil, the domain has no lists).
function _M.domain(a, path)
  if a == nil or a == null then return nil end
  if type(a) ~= "table" then return nil, path, "not an object" end
  local refs, field, reason = referers(a.referers, path .. ".referers")
  if refs == nil then return nil, field, reason end
  if a.headers == nil then return nil, path .. ".headers", "not a list of at most " .. MAX_DOMAIN_RULES end
  local hs
  hs, field, reason = headers(a.headers, path .. ".headers", MAX_DOMAIN_RULES)
  if hs == nil then return nil, field, reason end
  return { referers = refs, headers = hs }
end

return _M
