-- Checks the data plane's site modules again (defence in depth, as rampart.validate does for the
-- rest): the same allowlists as packages/contract/src/edge/modules.ts. Returns clean records with
-- only known fields, or nil, field, reason.
local cjson = require "cjson.safe"
local checks = require "rampart.checks"
local contract_limits = require "rampart.contract_limits"
local acl_check = require "rampart.acl_check"
local waf_check = require "rampart.waf_check"

local _M = {}

local null = cjson.null
local re_find = ngx.re.find
local lower = string.lower

local LIMITS = { modules = 50000, headers = 50, redirects = 3000, rewrites = 100, cors = 50 }
local HEADER_NAME_RE = [[^[A-Za-z0-9][A-Za-z0-9-]{0,63}\z]]
local HEADER_VALUE_RE = [[^[\x20-\x7e]{0,1024}\z]]
local PATH_RE = [[^/[A-Za-z0-9._~!$&'()*+,;=:@%/-]{0,255}\z]]
local REGEX_CHARS_RE = [[^[A-Za-z0-9._~!$&'()*+,;=:@%/^|?\[\]{}\\-]{1,256}\z]]
local REDIRECT_TARGET_RE =
  [[^(https?://[a-z0-9.-]{1,253}(?::(?:6553[0-5]|655[0-2]\d|65[0-4]\d\d|6[0-4]\d{3}|[1-5]\d{4}|[1-9]\d{0,3}))?)?/[A-Za-z0-9._~!$&'()*+,;=:@%/?#-]{0,1023}\z]]
local REWRITE_TARGET_RE = [[^/[A-Za-z0-9._~!$&'()*+,;=:@%/-]{0,1023}\z]]
local CORS_ORIGIN_RE =
  [[^(\*|https?://(\*\.)?[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?(?::(?:6553[0-5]|655[0-2]\d|65[0-4]\d\d|6[0-4]\d{3}|[1-5]\d{4}|[1-9]\d{0,3}))?)\z]]
local HOST_RE = [[^([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})\z]]
local DENIED = {}
for _, h in ipairs({ "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding",
  "upgrade", "proxy-authenticate", "proxy-authorization", "host", "content-length" }) do
  DENIED[h] = "both"
end
for _, h in ipairs({ "x-request-id", "x-real-ip", "x-forwarded-for", "x-forwarded-proto" }) do
  DENIED[h] = "request"
end
local METHODS = contract_limits.CORS_METHODS
local REDIRECT_CODES = { [301] = true, [302] = true, [307] = true, [308] = true }
local MATCHES = { exact = true, prefix = true, regex = true }
local TYPES = {
  customHeader = true, urlRedirect = true, cors = true, proxyRewrite = true, luaAcl = true, tokenAuth = true,
  waf = true,
}
local TOKEN_AUTHS_MAX, TOKEN_AUTH_VALUE_MAX, TOKEN_AUTH_EXPIRE_MAX, FILE_TYPES_MAX = 100, 1024, 31536000, 50
local TOKEN_AUTH_KEY_RE = [[^[\x21-\x7e]{6,128}\z]]
local SUFFIX_RE = [[^[a-z0-9]{1,16}\z]]
local TOKEN_AUTH_ACTIONS = { deny = true, drop = true }

local is_array = checks.is_array

local function matches(v, re) return type(v) == "string" and re_find(v, re, "jo") ~= nil end

local function header_name_ok(name, direction)
  if not matches(name, HEADER_NAME_RE) then return false end
  local denied = DENIED[lower(name)]
  return denied == nil or (denied == "request" and direction == "response")
end

-- The regex subset of isSafeModuleRegex: no "(?", a backslash only before a class letter or
-- punctuation, and it must compile here (PCRE).
local function regex_ok(source)
  if not matches(source, REGEX_CHARS_RE) or source:find("(?", 1, true) then return false end
  local i = 1
  while true do
    local at = source:find("\\", i, true)
    if at == nil then break end
    local next = source:sub(at + 1, at + 1)
    if next == "" or not next:find("^[dDwWsS%./\\%-%^%$|%?%*%+%(%)%[%]{}]$") then return false end
    i = at + 2
  end
  -- ngx.re.find answers from, to, err: a pattern PCRE cannot compile gives nil, nil, err.
  local _, _, err = ngx.re.find("", source, "jo")
  return err == nil
end

local function headers(list, path, direction)
  if not is_array(list, LIMITS.headers) then return nil, path, "not a list of at most " .. LIMITS.headers end
  local clean = {}
  for i, h in ipairs(list) do
    local at = path .. "[" .. (i - 1) .. "]"
    if type(h) ~= "table" then return nil, at, "not an object" end
    if not header_name_ok(h.name, direction) then return nil, at .. ".name", "header name not allowed" end
    if not matches(h.value, HEADER_VALUE_RE) then return nil, at .. ".value", "not printable ASCII" end
    clean[i] = { name = h.name, value = h.value }
  end
  return clean
end

local function path_rules(list, path, max, target_re, redirect)
  if not is_array(list, max) then return nil, path, "not a list of at most " .. max end
  local clean = {}
  for i, r in ipairs(list) do
    local at = path .. "[" .. (i - 1) .. "]"
    if type(r) ~= "table" then return nil, at, "not an object" end
    if not MATCHES[r.match] then return nil, at .. ".match", "not exact, prefix or regex" end
    local ok = r.match == "regex" and type(r.source) == "string" and regex_ok(r.source)
      or r.match ~= "regex" and matches(r.source, PATH_RE)
    if not ok then return nil, at .. ".source", "not a valid source" end
    if not matches(r.target, target_re) then return nil, at .. ".target", "not a valid target" end
    local rule = { match = r.match, source = r.source, target = r.target }
    if redirect then
      if not REDIRECT_CODES[r.code] then return nil, at .. ".code", "not 301, 302, 307 or 308" end
      if type(r.keepQuery) ~= "boolean" then return nil, at .. ".keepQuery", "not a boolean" end
      rule.code, rule.keepQuery = r.code, r.keepQuery
    end
    clean[i] = rule
  end
  return clean
end

local function header_names(list, path, allow_star)
  if not is_array(list, LIMITS.cors) then return nil, path, "not a list of at most " .. LIMITS.cors end
  for i, h in ipairs(list) do
    if not (allow_star and h == "*") and not matches(h, HEADER_NAME_RE) then
      return nil, path .. "[" .. (i - 1) .. "]", "not a header name"
    end
  end
  return list
end

-- The value of a token auth's scope (tokenAuthValueOk): a path, a directory, extensions (lower
-- case, one space between), a pattern, or '' for every request.
local function token_auth_value_ok(scope, value)
  if type(value) ~= "string" or #value > TOKEN_AUTH_VALUE_MAX then return false end
  if scope == "all" then return value == "" end
  if scope == "path" or scope == "directory" then return matches(value, PATH_RE) end
  if scope == "regex" then return regex_ok(value) end
  if scope ~= "fileTypes" then return false end
  local n = 0
  for ext in value:gmatch("[^ ]+") do
    n = n + 1
    if n > FILE_TYPES_MAX or not matches(ext, SUFFIX_RE) then return false end
  end
  return n > 0 and not value:find("  ", 1, true) and value:sub(1, 1) ~= " " and value:sub(-1) ~= " "
end

local function token_auths(list, path)
  if not is_array(list, TOKEN_AUTHS_MAX) then return nil, path, "not a list of at most " .. TOKEN_AUTHS_MAX end
  local clean = {}
  for i, a in ipairs(list) do
    local at = path .. "[" .. (i - 1) .. "]"
    if type(a) ~= "table" then return nil, at, "not an object" end
    if not checks.is_int(a.id, 1, 2147483647) then return nil, at .. ".id", "not an id" end
    if not token_auth_value_ok(a.scope, a.value) then return nil, at .. ".value", "not a value of its scope" end
    if not matches(a.key, TOKEN_AUTH_KEY_RE) then return nil, at .. ".key", "not a key" end
    if not checks.is_int(a.expire, 0, TOKEN_AUTH_EXPIRE_MAX) then return nil, at .. ".expire", "not 0..1 year" end
    if not TOKEN_AUTH_ACTIONS[a.action] then return nil, at .. ".action", "not deny or drop" end
    clean[i] = { id = a.id, scope = a.scope, value = a.value, key = a.key, expire = a.expire, action = a.action }
  end
  return clean
end

local function module(m, path)
  if type(m) ~= "table" then return nil, path, "not an object" end
  if type(m.id) ~= "number" or m.id ~= math.floor(m.id) or m.id < 1 or m.id > 2147483647 then
    return nil, path .. ".id", "not an id"
  end
  if not TYPES[m.type] then return nil, path .. ".type", "not a module type" end
  local err_field, reason
  if m.type == "customHeader" then
    local request, response
    request, err_field, reason = headers(m.request, path .. ".request", "request")
    if request == nil then return nil, err_field, reason end
    response, err_field, reason = headers(m.response, path .. ".response", "response")
    if response == nil then return nil, err_field, reason end
    return { id = m.id, type = m.type, request = request, response = response }
  elseif m.type == "urlRedirect" then
    local rules
    rules, err_field, reason = path_rules(m.rules, path .. ".rules", LIMITS.redirects, REDIRECT_TARGET_RE, true)
    if rules == nil then return nil, err_field, reason end
    return { id = m.id, type = m.type, rules = rules }
  elseif m.type == "cors" then
    if not is_array(m.origins, LIMITS.cors) or #m.origins == 0 then return nil, path .. ".origins", "not 1..50 origins" end
    for i, o in ipairs(m.origins) do
      if not matches(o, CORS_ORIGIN_RE) then return nil, path .. ".origins[" .. (i - 1) .. "]", "not an origin" end
    end
    if not is_array(m.methods, 7) or #m.methods == 0 then return nil, path .. ".methods", "not a list of methods" end
    for i, v in ipairs(m.methods) do
      if not METHODS[v] then return nil, path .. ".methods[" .. (i - 1) .. "]", "not a method" end
    end
    local allow, expose
    allow, err_field, reason = header_names(m.allowHeaders, path .. ".allowHeaders", true)
    if allow == nil then return nil, err_field, reason end
    expose, err_field, reason = header_names(m.exposeHeaders, path .. ".exposeHeaders", true)
    if expose == nil then return nil, err_field, reason end
    if type(m.credentials) ~= "boolean" then return nil, path .. ".credentials", "not a boolean" end
    if type(m.maxAge) ~= "number" or m.maxAge ~= math.floor(m.maxAge) or m.maxAge < 0 or m.maxAge > 86400 then
      return nil, path .. ".maxAge", "not 0..86400"
    end
    return {
      id = m.id, type = m.type, origins = m.origins, methods = m.methods, allowHeaders = allow,
      exposeHeaders = expose, credentials = m.credentials, maxAge = m.maxAge,
    }
  elseif m.type == "luaAcl" then
    return acl_check.module(m, path)
  elseif m.type == "waf" then
    return waf_check.module(m, path)
  elseif m.type == "tokenAuth" then
    local auths
    auths, err_field, reason = token_auths(m.auths, path .. ".auths")
    if auths == nil then return nil, err_field, reason end
    return { id = m.id, type = m.type, auths = auths }
  end
  local host = nil
  if m.host ~= null then
    if not matches(m.host, HOST_RE) or #m.host > 253 then return nil, path .. ".host", "not a host name or null" end
    host = m.host
  end
  local set, rules
  set, err_field, reason = headers(m.setHeaders, path .. ".setHeaders", "request")
  if set == nil then return nil, err_field, reason end
  if not is_array(m.removeHeaders, LIMITS.headers) then return nil, path .. ".removeHeaders", "not a list" end
  for i, name in ipairs(m.removeHeaders) do
    if not header_name_ok(name, "request") then
      return nil, path .. ".removeHeaders[" .. (i - 1) .. "]", "header name not allowed"
    end
  end
  rules, err_field, reason = path_rules(m.rules, path .. ".rules", LIMITS.rewrites, REWRITE_TARGET_RE, false)
  if rules == nil then return nil, err_field, reason end
  return { id = m.id, type = m.type, host = host, setHeaders = set, removeHeaders = m.removeHeaders, rules = rules }
end

-- The document's `modules` (absent = none) → clean list and a map id → type, or nil, field, reason.
function _M.modules(raw)
  if raw == nil then raw = {} end
  if not is_array(raw, LIMITS.modules) then return nil, "modules", "not a list of at most " .. LIMITS.modules end
  local clean, types = {}, {}
  for i, m in ipairs(raw) do
    local path = "modules[" .. (i - 1) .. "]"
    local c, field, reason = module(m, path)
    if c == nil then return nil, field, reason end
    if types[c.id] then return nil, path .. ".id", "duplicate module id" end
    types[c.id] = c.type
    clean[i] = c
  end
  return clean, types
end

-- A domain's `modules` (absent or null = none) → clean refs or false for none, or nil, field, reason.
function _M.domain_refs(refs, path, types)
  if refs == nil or refs == null then return false end
  if type(refs) ~= "table" then return nil, path, "not an object or null" end
  local clean, any = {}, false
  for t in pairs(TYPES) do
    local id = refs[t]
    if id ~= nil and id ~= null then
      if types[id] ~= t then return nil, path .. "." .. t, "not the id of a " .. t .. " module in the document" end
      clean[t] = id
      any = true
    end
  end
  return any and clean or false
end

return _M
