-- Checks the header rules of a site-firewall entry and a domain's anti-referer and anti-header
-- lists again (the agent checked them with the contract's zod schema: packages/contract/src/edge/
-- data-plane.ts edgeFirewallSchema.headers and edgeDomainAccessSchema), with the same allowlists
-- and limits, and returns clean copies holding only known fields. On failure: nil, field, reason.
local checks = require "rampart.checks"
local firewall_check = require "rampart.firewall_check"
local cjson = require "cjson.safe"

local _M = {}

-- packages/contract/src/routes/firewall-headers.ts HEADER_NAME_RE (lower case at the edge) and the
-- value patterns' characters and length (USER_AGENT_REGEX_RE, USER_AGENT_REGEX_MAX);
-- routes/domain-access.ts DOMAIN_ACCESS_RULES_MAX, REFERER_HOSTS_MAX; FIREWALL_LIST_RULES_PER_SITE.
local NAME_RE = [[^[a-z0-9-]{1,64}\z]]
local VALUE_RE = [[^[\x20-\x7e]+\z]]
local MAX_VALUE = 256
local MAX_SITE_RULES, MAX_DOMAIN_RULES, MAX_HOSTS = 100, 20, 100
-- A referer host pattern: a lower-case host name of two labels or more, optionally after "*.".
local HOST_RE = [[^(\*\.)?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+\z]]
local ACTIONS = { deny = true, drop = true }
local MODES = { allow = true, deny = true }

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
    if type(r.name) ~= "string" or not re_find(r.name, NAME_RE, "jo") then
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
      if type(h) ~= "string" or #h > 253 or not re_find(h, HOST_RE, "jo") then
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
