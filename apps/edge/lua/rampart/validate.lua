-- Defence in depth: the agent validated the document (src/data-plane/schema.ts); this checks its
-- shape again and returns clean records holding only known fields. On failure: nil, field, reason.
local cjson = require "cjson.safe"
local checks = require "rampart.checks"
local modules_check = require "rampart.modules_check"
local settings_check = require "rampart.settings_check"
local firewall_check = require "rampart.firewall_check"
local firewall_headers_check = require "rampart.firewall_headers_check"
local auth_check = require "rampart.auth_check"
local validate_zone = require "rampart.validate_zone"
local validate_cache = require "rampart.validate_cache"

local _M = {}

local null = cjson.null
local re_find = ngx.re.find

local HOST_RE = [[^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})\z]]
local IPV4_RE = [[^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\z]]
local IPV6_RE = [[^[0-9a-fA-F:.]{2,45}\z]]
local VERSION_RE = [[^[A-Za-z0-9._:-]{1,128}\z]]
local HEX64_RE = checks.HEX64_RE
local REDIRECT_CODES = { [301] = true, [302] = true, [307] = true, [308] = true }
local LIMITS = { domains = 50000, certificates = 10000, upstreams = 64 }

local is_array, is_int = checks.is_array, checks.is_int

local function is_host(v)
  return type(v) == "string" and #v <= 253 and re_find(v, HOST_RE, "jo") ~= nil
end

local function is_ip(v)
  if type(v) ~= "string" then return false end
  if re_find(v, IPV4_RE, "jo") then return true end
  return v:find(":", 1, true) ~= nil and re_find(v, IPV6_RE, "jo") ~= nil
end

local function is_pem(v, max)
  return type(v) == "string" and #v <= max and v:find("-----BEGIN ", 1, true) == 1
end

local function upstream(u, path)
  if type(u) ~= "table" then return nil, path, "not an object" end
  if not is_ip(u.ip) then return nil, path .. ".ip", "not an IP literal" end
  if not is_int(u.port, 1, 65535) then return nil, path .. ".port", "not a port" end
  if not is_int(u.weight, 1, 100) then return nil, path .. ".weight", "not a weight 1..100" end
  if type(u.backup) ~= "boolean" then return nil, path .. ".backup", "not a boolean" end
  return { ip = u.ip, port = u.port, weight = u.weight, backup = u.backup }
end

local function origin(o, path)
  if type(o) ~= "table" then return nil, path, "not an object" end
  if o.scheme ~= "http" and o.scheme ~= "https" then return nil, path .. ".scheme", "not http or https" end
  if o.host ~= null and (not is_host(o.host) or o.host:sub(1, 1) == "*") then
    return nil, path .. ".host", "not a host name or null"
  end
  if o.balance ~= "round_robin" and o.balance ~= "ip_hash" then
    return nil, path .. ".balance", "not round_robin or ip_hash"
  end
  local unresolved = o.unresolved == true -- no allowed address for its host names: the balancer refuses it
  if not is_array(o.upstreams, LIMITS.upstreams) or (#o.upstreams == 0 and not unresolved) then
    return nil, path .. ".upstreams", "not a list of 1.." .. LIMITS.upstreams .. " upstreams"
  end
  local upstreams, primaries = {}, 0
  for i, u in ipairs(o.upstreams) do
    local clean, field, reason = upstream(u, path .. ".upstreams[" .. (i - 1) .. "]")
    if clean == nil then return nil, field, reason end
    if not clean.backup then primaries = primaries + 1 end
    upstreams[i] = clean
  end
  if primaries == 0 and not unresolved then return nil, path .. ".upstreams", "no upstream that is not a backup" end
  local port_map = o.portMap == nil and false or o.portMap
  if type(port_map) ~= "boolean" then return nil, path .. ".portMap", "not a boolean" end
  local host = o.host ~= null and o.host or nil
  -- portMap stays nil when off: the balancer pays one field check for domains without it.
  -- unresolved is kept for the balancer's log line, which names the cause.
  return { scheme = o.scheme, host = host, balance = o.balance, upstreams = upstreams,
    portMap = port_map or nil, unresolved = unresolved or nil }
end


local function domain(d, path, certificate_ids, cache_ids, module_types, settings_ids, firewall_ids)
  if type(d) ~= "table" then return nil, path, "not an object" end
  if not is_int(d.id, 1, 2147483647) then return nil, path .. ".id", "not an id" end
  if not is_host(d.name) then return nil, path .. ".name", "not a host name" end
  if type(d.enabled) ~= "boolean" then return nil, path .. ".enabled", "not a boolean" end
  if type(d.forceSSL) ~= "boolean" then return nil, path .. ".forceSSL", "not a boolean" end
  if not REDIRECT_CODES[d.forceSSLCode] then return nil, path .. ".forceSSLCode", "not 301, 302, 307 or 308" end
  local certificate_id = nil
  if d.certificateId ~= null then
    if not is_int(d.certificateId, 1, 2147483647) or not certificate_ids[d.certificateId] then
      return nil, path .. ".certificateId", "not the id of a certificate in the document"
    end
    certificate_id = d.certificateId
  end
  local cache_id = nil
  if d.cacheId ~= nil and d.cacheId ~= null then
    if not is_int(d.cacheId, 1, 2147483647) or not cache_ids[d.cacheId] then
      return nil, path .. ".cacheId", "not the id of a cache policy in the document"
    end
    cache_id = d.cacheId
  end
  local modules, modules_field, modules_reason = modules_check.domain_refs(d.modules, path .. ".modules", module_types)
  if modules == nil then return nil, modules_field, modules_reason end
  -- The Lua ACL, the WAF and token auth run in route() (rampart.acl with the firewall, rampart.waf,
  -- rampart.token_auth), not in @rampart_modules: their ids travel on their own, and a domain with
  -- no other module does not go through @rampart_modules.
  local acl_id, token_auth_id, waf_id = nil, nil, nil
  if modules then
    acl_id, token_auth_id, waf_id = modules.luaAcl, modules.tokenAuth, modules.waf
    modules.luaAcl, modules.tokenAuth, modules.waf = nil, nil, nil
    if next(modules) == nil then modules = false end
  end
  local settings_id = nil
  if d.settingsId ~= nil and d.settingsId ~= null then
    if not is_int(d.settingsId, 1, 2147483647) or not settings_ids[d.settingsId] then
      return nil, path .. ".settingsId", "not the id of site settings in the document"
    end
    settings_id = d.settingsId
  end
  local firewall_id = nil
  if d.firewallId ~= nil and d.firewallId ~= null then
    if not is_int(d.firewallId, 1, 2147483647) or not firewall_ids[d.firewallId] then
      return nil, path .. ".firewallId", "not the id of a firewall in the document"
    end
    firewall_id = d.firewallId
  end
  -- The domain's anti-referer and anti-header lists (rampart.firewall_headers_check): only with a firewall.
  local access, access_field, access_reason = firewall_headers_check.domain(d.access, path .. ".access")
  if access_field then return nil, access_field, access_reason end
  if access and firewall_id == nil then return nil, path .. ".access", "access lists need a firewallId" end
  -- The domain's auth rules and groups (rampart.auth_check), checked in route() by rampart.auth.
  local auth, auth_field, auth_reason = auth_check.domain(d.auth, path .. ".auth")
  if auth_field then return nil, auth_field, auth_reason end
  -- A disabled domain travels without its origin (it is answered with the "disabled" page).
  local clean_origin = nil
  if d.enabled or (d.origin ~= nil and d.origin ~= null) then
    local field, reason
    clean_origin, field, reason = origin(d.origin, path .. ".origin")
    if clean_origin == nil then return nil, field, reason end
  end
  return {
    id = d.id, name = d.name, enabled = d.enabled, forceSSL = d.forceSSL, forceSSLCode = d.forceSSLCode,
    certificateId = certificate_id, cacheId = cache_id, modules = modules or nil, settingsId = settings_id,
    firewallId = firewall_id, aclId = acl_id, tokenAuthId = token_auth_id, wafId = waf_id, access = access, auth = auth,
    origin = clean_origin,
  }
end

-- doc (decoded JSON) → { version, domains, certificates, caches, modules, settings, firewalls, cacheEpoch,
-- limits, challenge, geoDatabase, abuseIPs, acmeChallenges, errorPages }
-- or nil, field, reason.
function _M.document(doc)
  if type(doc) ~= "table" or #doc > 0 then return nil, "(document)", "not an object" end
  if type(doc.version) ~= "string" or not re_find(doc.version, VERSION_RE, "jo") then
    return nil, "version", "not a version token"
  end
  if not is_array(doc.certificates, LIMITS.certificates) then
    return nil, "certificates", "not a list of at most " .. LIMITS.certificates
  end
  if not is_array(doc.domains, LIMITS.domains) then
    return nil, "domains", "not a list of at most " .. LIMITS.domains
  end

  local certificates, certificate_ids = {}, {}
  for i, c in ipairs(doc.certificates) do
    local path = "certificates[" .. (i - 1) .. "]"
    if type(c) ~= "table" then return nil, path, "not an object" end
    if not is_int(c.id, 1, 2147483647) then return nil, path .. ".id", "not an id" end
    if certificate_ids[c.id] then return nil, path .. ".id", "duplicate certificate id" end
    if not is_pem(c.certPem, 65536) then return nil, path .. ".certPem", "not a PEM certificate" end
    if not is_pem(c.keyPem, 16384) then return nil, path .. ".keyPem", "not a PEM key" end
    certificate_ids[c.id] = true
    certificates[i] = { id = c.id, cert = c.certPem, key = c.keyPem }
  end

  local caches, cache_ids = {}, {}
  local raw_caches = doc.caches
  if raw_caches == nil then raw_caches = {} end
  if not is_array(raw_caches, LIMITS.domains) then
    return nil, "caches", "not a list of at most " .. LIMITS.domains
  end
  for i, p in ipairs(raw_caches) do
    local path = "caches[" .. (i - 1) .. "]"
    local clean, field, reason = validate_cache.policy(p, path)
    if clean == nil then return nil, field, reason end
    if cache_ids[clean.id] then return nil, path .. ".id", "duplicate cache policy id" end
    cache_ids[clean.id] = true
    caches[i] = clean
  end

  local modules, module_types, modules_reason = modules_check.modules(doc.modules)
  if modules == nil then return nil, module_types, modules_reason end
  local epoch = doc.cacheEpoch
  if epoch == nil or epoch == null then epoch = 0 end
  if not is_int(epoch, 0, 2147483647) then return nil, "cacheEpoch", "not a cache epoch" end

  local settings, settings_ids = {}, {}
  local raw_settings = doc.settings
  if raw_settings == nil then raw_settings = {} end
  if not is_array(raw_settings, LIMITS.domains) then
    return nil, "settings", "not a list of at most " .. LIMITS.domains
  end
  for i, s in ipairs(raw_settings) do
    local path = "settings[" .. (i - 1) .. "]"
    local clean, field, reason = settings_check.entry(s, path)
    if clean == nil then return nil, field, reason end
    if settings_ids[clean.id] then return nil, path .. ".id", "duplicate site settings id" end
    settings_ids[clean.id] = true
    settings[i] = clean
  end

  local firewalls, firewall_ids = {}, {}
  local raw_firewalls = doc.firewalls
  if raw_firewalls == nil then raw_firewalls = {} end
  if not is_array(raw_firewalls, LIMITS.domains) then
    return nil, "firewalls", "not a list of at most " .. LIMITS.domains
  end
  for i, f in ipairs(raw_firewalls) do
    local path = "firewalls[" .. (i - 1) .. "]"
    local clean, field, reason = firewall_check.entry(f, path)
    if clean == nil then return nil, field, reason end
    if firewall_ids[clean.id] then return nil, path .. ".id", "duplicate firewall id" end
    firewall_ids[clean.id] = true
    firewalls[i] = clean
  end

  local limits, limits_field, limits_reason = validate_zone.limits(doc.limits)
  if limits == nil then return nil, limits_field, limits_reason end
  local keys, keys_field, keys_reason = validate_zone.challenge(doc.challenge)
  if keys == nil then return nil, keys_field, keys_reason end
  -- The operator's geo database (rampart.firewall_geo): its SHA-256 in hex, or none.
  local geo_database = doc.geoDatabase
  if geo_database == null then geo_database = nil end
  if geo_database ~= nil and (type(geo_database) ~= "string" or not re_find(geo_database, HEX64_RE, "jo")) then
    return nil, "geoDatabase", "not a SHA-256 in hex"
  end
  -- The operator's reputation list (rampart.firewall_reputation): its file's SHA-256 in hex, or none.
  local abuse_ips = doc.abuseIPs
  if abuse_ips == null then abuse_ips = nil end
  if abuse_ips ~= nil and (type(abuse_ips) ~= "string" or not re_find(abuse_ips, HEX64_RE, "jo")) then
    return nil, "abuseIPs", "not a SHA-256 in hex"
  end

  -- ACME HTTP-01 challenges of the node's domains being issued (rampart.acme answers them).
  local acme_challenges = {}
  local raw_acme = doc.acmeChallenges
  if raw_acme == nil or raw_acme == null then raw_acme = {} end
  if not is_array(raw_acme, 10000) then return nil, "acmeChallenges", "not a list of at most 10000" end
  for i, a in ipairs(raw_acme) do
    local path = "acmeChallenges[" .. (i - 1) .. "]"
    if type(a) ~= "table" then return nil, path, "not an object" end
    if not is_host(a.host) then return nil, path .. ".host", "not a host name" end
    if type(a.token) ~= "string" or not re_find(a.token, [[^[A-Za-z0-9_-]{16,128}\z]], "jo") then
      return nil, path .. ".token", "not an ACME token"
    end
    if type(a.keyAuthorization) ~= "string"
      or not re_find(a.keyAuthorization, [[^[A-Za-z0-9_-]{16,128}\.[A-Za-z0-9_-]{16,128}\z]], "jo") then
      return nil, path .. ".keyAuthorization", "not a key authorization"
    end
    acme_challenges[i] = { host = a.host, token = a.token, keyAuthorization = a.keyAuthorization }
  end

  -- The operator's default pages (rampart.pages), at most 256 KiB together.
  local raw_pages = doc.errorPages
  if raw_pages == nil or raw_pages == null then raw_pages = {} end
  local error_pages, pages_field, pages_reason = settings_check.pages(raw_pages, "errorPages", 262144)
  if error_pages == nil then return nil, pages_field, pages_reason end

  local domains, names = {}, {}
  for i, d in ipairs(doc.domains) do
    local path = "domains[" .. (i - 1) .. "]"
    local clean, field, reason = domain(d, path, certificate_ids, cache_ids, module_types, settings_ids, firewall_ids)
    if clean == nil then return nil, field, reason end
    if names[clean.name] then return nil, path .. ".name", "duplicate domain name" end
    names[clean.name] = true
    domains[i] = clean
  end

  return {
    version = doc.version, domains = domains, certificates = certificates, caches = caches, modules = modules,
    settings = settings, firewalls = firewalls, cacheEpoch = epoch, limits = limits, challenge = keys,
    geoDatabase = geo_database, abuseIPs = abuse_ips, acmeChallenges = acme_challenges, errorPages = error_pages,
  }
end

-- Entries of a delta (rampart.admin PATCH /config): one "<kind>:<id>" and its value → the clean
-- value stored for it, or nil, field, reason. A reference to another entry (a domain's certificate,
-- cache policy, settings or firewall) is not checked here: the entry may be in the node already, and
-- a request that meets a missing one serves without it, as it would without the reference. A
-- module reference's type is: `module_type(id)` answers the type the delta or the node holds.
local ANY = setmetatable({}, { __index = function() return true end })
local KEY_AUTH_RE = [[^[A-Za-z0-9_-]{16,128}\.[A-Za-z0-9_-]{16,128}\z]]
local TOKEN_RE = [[^[A-Za-z0-9_-]{16,128}\z]]

local function id_of(id_text, value, path)
  local id = tonumber(id_text)
  if id == nil or tostring(id) ~= id_text or type(value) ~= "table" or value.id ~= id then
    return nil, path .. ".id", "not the id of its key"
  end
  return id
end

function _M.entry(kk, value, module_type)
  local colon = kk:find(":", 1, true)
  if colon == nil then return nil, "key", "not <kind>:<id>" end
  local kind, id = kk:sub(1, colon - 1), kk:sub(colon + 1)
  local path = kk
  if kind == "d" then
    local types = setmetatable({}, { __index = function(_, mid) return module_type(mid) end })
    local clean, field, reason = domain(value, path, ANY, ANY, types, ANY, ANY)
    if clean == nil then return nil, field, reason end
    if clean.name ~= id then return nil, path .. ".name", "not the name of its key" end
    return clean
  elseif kind == "c" then
    if not id_of(id, value, path) then return nil, path .. ".id", "not the id of its key" end
    if not is_pem(value.certPem, 65536) then return nil, path .. ".certPem", "not a PEM certificate" end
    if not is_pem(value.keyPem, 16384) then return nil, path .. ".keyPem", "not a PEM key" end
    return { cert = value.certPem, key = value.keyPem }
  elseif kind == "p" then
    if not id_of(id, value, path) then return nil, path .. ".id", "not the id of its key" end
    return validate_cache.policy(value, path)
  elseif kind == "m" then
    if not id_of(id, value, path) then return nil, path .. ".id", "not the id of its key" end
    local clean, field, reason = modules_check.modules({ value })
    if clean == nil then return nil, path .. tostring(field):gsub("^modules%[0%]", ""), reason end
    return clean[1]
  elseif kind == "s" then
    if not id_of(id, value, path) then return nil, path .. ".id", "not the id of its key" end
    return settings_check.entry(value, path)
  elseif kind == "f" then
    if not id_of(id, value, path) then return nil, path .. ".id", "not the id of its key" end
    return firewall_check.entry(value, path)
  elseif kind == "a" then
    local host, token = id:match("^([^/]+)/(.+)$")
    if not is_host(host) then return nil, path, "not <host>/<token>" end
    if type(token) ~= "string" or not re_find(token, TOKEN_RE, "jo") then return nil, path, "not an ACME token" end
    if type(value) ~= "string" or not re_find(value, KEY_AUTH_RE, "jo") then
      return nil, path, "not a key authorization"
    end
    return value
  elseif kind == "x" and id == "" then
    return validate_zone.challenge(value)
  elseif kind == "pages" and id == "" then
    return settings_check.pages(value, path, 262144)
  elseif kind == "n" and id == "" then
    if type(value) ~= "table" or not is_int(value.cacheEpoch, 0, 2147483647) then
      return nil, path .. ".cacheEpoch", "not a cache epoch"
    end
    return { cacheEpoch = value.cacheEpoch }
  end
  return nil, path, "not an entry kind"
end

-- The values of a delta that are not entries (its meta): {limits, geoDatabase, abuseIPs}.
function _M.delta_meta(m)
  if type(m) ~= "table" then return nil, "meta", "not an object" end
  local limits, field, reason = validate_zone.limits(m.limits)
  if limits == nil then return nil, field, reason end
  local out = { limits = limits }
  for _, name in ipairs({ "geoDatabase", "abuseIPs" }) do
    local v = m[name]
    if v ~= nil and v ~= null then
      if type(v) ~= "string" or not re_find(v, HEX64_RE, "jo") then
        return nil, "meta." .. name, "not a SHA-256 in hex"
      end
      out[name] = v
    end
  end
  return out
end

function _M.version(v)
  return type(v) == "string" and re_find(v, VERSION_RE, "jo") ~= nil
end

return _M
