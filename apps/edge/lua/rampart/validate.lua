-- Defence in depth: the agent validated the document (src/data-plane/schema.ts); this checks its
-- shape again and returns clean records holding only known fields. On failure: nil, field, reason.
local cjson = require "cjson.safe"

local _M = {}

local null = cjson.null
local re_find = ngx.re.find

local HOST_RE = [[^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$]]
local IPV4_RE = [[^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$]]
local IPV6_RE = [[^[0-9a-fA-F:.]{2,45}$]]
local VERSION_RE = [[^[A-Za-z0-9._:-]{1,128}$]]
local REDIRECT_CODES = { [301] = true, [302] = true, [307] = true, [308] = true }
local LIMITS = { domains = 50000, certificates = 10000, upstreams = 64 }

local function is_array(t, max)
  if type(t) ~= "table" then return false end
  local n = #t
  if n > max then return false end
  local count = 0
  for _ in pairs(t) do count = count + 1 end
  return count == n
end

local function is_int(v, min, max)
  return type(v) == "number" and v == math.floor(v) and v >= min and v <= max
end

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
  if not is_array(o.upstreams, LIMITS.upstreams) or #o.upstreams == 0 then
    return nil, path .. ".upstreams", "not a list of 1.." .. LIMITS.upstreams .. " upstreams"
  end
  local upstreams, primaries = {}, 0
  for i, u in ipairs(o.upstreams) do
    local clean, field, reason = upstream(u, path .. ".upstreams[" .. (i - 1) .. "]")
    if clean == nil then return nil, field, reason end
    if not clean.backup then primaries = primaries + 1 end
    upstreams[i] = clean
  end
  if primaries == 0 then return nil, path .. ".upstreams", "no upstream that is not a backup" end
  local host = o.host ~= null and o.host or nil
  return { scheme = o.scheme, host = host, balance = o.balance, upstreams = upstreams }
end

local function domain(d, path, certificate_ids)
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
  local clean_origin, field, reason = origin(d.origin, path .. ".origin")
  if clean_origin == nil then return nil, field, reason end
  return {
    id = d.id, name = d.name, enabled = d.enabled, forceSSL = d.forceSSL, forceSSLCode = d.forceSSLCode,
    certificateId = certificate_id, origin = clean_origin,
  }
end

-- doc (decoded JSON) → { version, domains = {...}, certificates = {...} } or nil, field, reason.
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

  local domains, names = {}, {}
  for i, d in ipairs(doc.domains) do
    local path = "domains[" .. (i - 1) .. "]"
    local clean, field, reason = domain(d, path, certificate_ids)
    if clean == nil then return nil, field, reason end
    if names[clean.name] then return nil, path .. ".name", "duplicate domain name" end
    names[clean.name] = true
    domains[i] = clean
  end

  return { version = doc.version, domains = domains, certificates = certificates }
end

return _M
