-- Auth groups at the edge (packages/contract/src/routes/site-auth.ts, edge/auth.ts; docs/decisions.md
-- "Auth groups"). A domain whose entry carries `auth` runs check() in route() after the firewall:
-- the first rule (in the order sent: priority, higher first) whose path matches the decoded request
-- path names a group, and the request must carry a credential of that group:
--   basic  Authorization: Basic base64(user:password); HMAC-SHA-256(salt, password) = the stored hash
--   key    the key in its header or query parameter (compared in constant time)
--   jwt    Authorization: Bearer <JWS>; alg from the token's header must be the credential's
--          (HS256, RS256 or ES256: "none" and anything else is refused, and an HS256 token is never
--          checked against a public key); exp and nbf when present, with the leeway (a token
--          without exp refused when the credential requires it, the default); iss and aud
--          when the credential names them (aud: a string or a list holding it)
-- Without one: 401 with WWW-Authenticate (Basic realm="Restricted" when the group has basic
-- credentials, Bearer when it has JWT ones), logged as fw_kind auth, fw_rule the rule, fw_action deny.
-- Paths no rule matches are untouched. Compiled once per domain entry (worker and generation).
local cjson = require "cjson.safe"
local b64 = require "ngx.base64"
local crypto = require "rampart.auth_crypto"
local request_url = require "rampart.request_url"

local _M = {}

local sub, find, gsub = string.sub, string.find, string.gsub
local decode_base64, decode_base64url = ngx.decode_base64, b64.decode_base64url
local equal, hmac = crypto.equal, crypto.hmac_sha256
local warned = false

local function compile_group(g)
  local basic = {}
  for _, c in ipairs(g.basic) do basic[c.user] = { salt = crypto.from_hex(c.salt), hash = crypto.from_hex(c.hash) } end
  local keys = {}
  for i, c in ipairs(g.key) do
    keys[i] = {
      var = (c["in"] == "header" and "http_" .. gsub(c.name, "-", "_") or "arg_" .. c.name),
      key = c.key,
    }
  end
  local jwts = {}
  for _, c in ipairs(g.jwt) do
    local key = c.key
    if c.alg ~= "HS256" then key = crypto.public_key(c.key, c.alg) end
    if key then
      jwts[#jwts + 1] = {
        alg = c.alg, key = key, iss = c.iss, aud = c.aud, leeway = c.leeway, require_exp = c.requireExp,
      }
    elseif not warned then
      warned = true
      ngx.log(ngx.ERR, "rampart.auth: JWT credential ", c.id, " has a key that does not fit ", c.alg)
    end
  end
  local challenge = "a"
  if next(basic) then challenge = challenge .. "b" end
  if #jwts > 0 then challenge = challenge .. "j" end
  return { basic = basic, has_basic = next(basic) ~= nil, keys = keys, jwts = jwts, challenge = challenge }
end

local function compile(auth)
  local groups = {}
  for _, g in ipairs(auth.groups) do groups[g.id] = compile_group(g) end
  local rules = {}
  for i, r in ipairs(auth.rules) do rules[i] = { id = r.id, match = r.match, path = r.path, group = groups[r.group] } end
  return rules
end

-- `uri`: the request's path read in place (rampart.request_url), never made a Lua string.
local function path_matches(rule, uri)
  local m = rule.match
  if m == "exact" then return uri.equals(rule.path) end
  if m == "prefix" then return uri.starts(rule.path) end
  -- The contract allowed only the safe subset; a pattern that hits lua_regex_match_limit (an error,
  -- nil) does not match.
  return uri.find(rule.path, "jo") == true
end

local function basic_ok(group, value)
  local encoded = value:match("^[Bb]asic%s+(%S+)%s*$")
  local pair = encoded and decode_base64(encoded)
  if not pair then return false end
  local colon = find(pair, ":", 1, true)
  if not colon then return false end
  local cred = group.basic[sub(pair, 1, colon - 1)]
  if not cred then return false end
  local got = hmac(cred.salt, sub(pair, colon + 1))
  return got ~= nil and equal(got, cred.hash)
end

local function audience_ok(aud, want)
  if type(aud) == "string" then return aud == want end
  if type(aud) == "table" then
    for _, a in ipairs(aud) do if a == want then return true end end
  end
  return false
end

local function claims_ok(claims, cred, now)
  if type(claims) ~= "table" then return false end
  local exp, nbf = claims.exp, claims.nbf
  if exp == nil and cred.require_exp then return false end
  if exp ~= nil and (type(exp) ~= "number" or now >= exp + cred.leeway) then return false end
  if nbf ~= nil and (type(nbf) ~= "number" or now + cred.leeway < nbf) then return false end
  if cred.iss ~= "" and claims.iss ~= cred.iss then return false end
  if cred.aud ~= "" and not audience_ok(claims.aud, cred.aud) then return false end
  return true
end

local ALGS = { HS256 = true, RS256 = true, ES256 = true }

local function jwt_ok(group, value)
  local token = value:match("^[Bb]earer%s+([%w%-_]+%.[%w%-_]+%.[%w%-_]*)%s*$")
  if not token then return false end
  local h64, p64, s64 = token:match("^([^.]+)%.([^.]+)%.([^.]*)$")
  local header = cjson.decode(decode_base64url(h64) or "")
  if type(header) ~= "table" or not ALGS[header.alg] then return false end
  local sig = decode_base64url(s64)
  if not sig or sig == "" then return false end
  local signed = h64 .. "." .. p64
  local claims
  for _, cred in ipairs(group.jwts) do
    if cred.alg == header.alg then
      local ok
      if cred.alg == "HS256" then
        local mac = hmac(cred.key, signed)
        ok = mac ~= nil and equal(mac, sig)
      else
        ok = crypto.verify(cred.key, cred.alg, signed, sig)
      end
      if ok then
        if claims == nil then claims = cjson.decode(decode_base64url(p64) or "") or false end
        if claims_ok(claims, cred, ngx.time()) then return true end
      end
    end
  end
  return false
end

local function presented(group, var)
  for _, k in ipairs(group.keys) do
    local v = var[k.var]
    if v and equal(v, k.key) then return true end
  end
  local authorization = var.http_authorization
  if authorization then
    if group.has_basic and basic_ok(group, authorization) then return true end
    if #group.jwts > 0 and jwt_ok(group, authorization) then return true end
  end
  return false
end

-- nil: the request goes on; else the route ("a[b][j]": 401 with those challenges, rampart.router).
function _M.check(domain, var)
  local rules = domain._auth
  if rules == nil then
    rules = compile(domain.auth)
    domain._auth = rules
  end
  local uri = request_url.uri
  uri.read()
  for _, rule in ipairs(rules) do
    if path_matches(rule, uri) then
      if presented(rule.group, var) then return nil end
      var.rampart_fw_kind = "auth"
      var.rampart_fw_rule = rule.id
      var.rampart_fw_action = "deny"
      return rule.group.challenge
    end
  end
  return nil
end

_M.path_matches = path_matches -- for the tests

-- In rewrite_by_lua: the 401 of a refused request, with the challenges its group allows.
function _M.refuse(route, pages)
  local challenges = {}
  if find(route, "b", 2, true) then challenges[#challenges + 1] = 'Basic realm="Restricted", charset="UTF-8"' end
  if find(route, "j", 2, true) then challenges[#challenges + 1] = 'Bearer realm="Restricted"' end
  -- One header with both challenges (RFC 9110 §11.6.1 allows a list): clients that keep one header see both.
  if #challenges > 0 then ngx.header["WWW-Authenticate"] = table.concat(challenges, ", ") end
  return pages.send(401)
end

return _M
