-- Token auth modules at the edge (時間戳防盜鏈; packages/contract/src/routes/site-module-token-auth.ts,
-- docs/decisions.md "Token auth"): rampart.router calls check() in route() (set_by_lua: nothing
-- here yields) after the firewall and the Lua ACL let the request through, before the forceSSL
-- redirect and everything else.
--
-- The auths covering the request (by scope over $uri, the decoded and normalised path without the
-- query) each try the query's `token` and `timestamp`: md5(key .. uri .. timestamp) in hex must be
-- the token (either case), and with `expire` > 0 the timestamp must be at most `expire` seconds old
-- and at most SKEW seconds ahead of the node's clock. Any covering auth that accepts lets the
-- request through (several keys for rotation); otherwise the first covering auth refuses it: deny
-- "4030" (403, "Access denied"), drop "444". The access event names it (fw_kind tokenAuth). The
-- keys never reach a log: only the auth's id does.
--
-- Cost: a domain without token auth pays one field check in route(). A module is compiled once per
-- worker and generation; per request, one scope test per auth until one covers it, then for a
-- covering auth a comparison of the timestamp and one MD5 of key, path and timestamp.
local compiled_modules = require "rampart.compiled_modules"
local paths = require "rampart.paths"

local _M = {}

local md5, now, re_find, lower, find, gmatch = ngx.md5, ngx.time, ngx.re.find, string.lower, string.find, string.gmatch
local unescape = ngx.unescape_uri
local directory, in_directory, extension = paths.directory, paths.in_directory, paths.extension

-- How far ahead of the node's clock a timestamp may be (TOKEN_AUTH_CLOCK_SKEW).
local SKEW = 300
-- What route() answers for a refused request (rampart.router).
local ROUTE = { deny = "4030", drop = "444" }

local function compile(raw)
  local auths = {}
  for i, a in ipairs(raw.auths) do
    local c = { id = tostring(a.id), scope = a.scope, key = a.key, expire = a.expire, action = a.action,
      route = ROUTE[a.action] }
    local scope = a.scope
    if scope == "path" then
      c.path = unescape(a.value)
    elseif scope == "directory" then
      c.dir = directory(a.value)
    elseif scope == "fileTypes" then
      local set = {}
      for ext in gmatch(a.value, "%S+") do set[ext] = true end
      c.types = set
    elseif scope == "regex" then
      c.pattern = a.value
    end
    auths[i] = c
  end
  return auths
end

local compiled_auths = compiled_modules.cache("tokenAuth", compile)

local function covers(a, uri)
  local scope = a.scope
  if scope == "all" then return true end
  if scope == "path" then return uri == a.path end
  if scope == "directory" then return in_directory(a.dir, uri) end
  if scope == "fileTypes" then
    local ext = extension(uri)
    return ext ~= nil and a.types[ext] == true
  end
  -- A pattern that fails (lua_regex_match_limit) covers the request: the path is the client's to
  -- choose, and one built to exhaust the limit must not walk past the check (fails closed).
  local from, _, err = re_find(uri, a.pattern, "jo")
  if err then
    ngx.log(ngx.WARN, "rampart token auth: pattern of auth ", a.id, " failed: ", err)
    return true
  end
  return from ~= nil
end

-- `token` is lower-case hex, `stamp` the timestamp as sent (the signer hashed that text), `at` its value.
local function accepts(a, uri, token, stamp, at)
  local expire = a.expire
  if expire > 0 then
    local t = now()
    if at > t + SKEW or t - at > expire then return false end
  end
  return md5(a.key .. uri .. stamp) == token
end

-- For route(): nil when the request passes (no auth covers it, or one accepts its token), else the
-- route of the first covering auth ("4030" deny, "444" drop), the decision logged.
function _M.check(domain, gen, var)
  local auths = domain._token_auth
  if auths == nil then
    auths = compiled_auths(gen, domain.tokenAuthId)
    domain._token_auth = auths
  end
  if not auths then return nil end
  local uri = var.uri
  local first, token, stamp, at
  for i = 1, #auths do
    local a = auths[i]
    if covers(a, uri) then
      if first == nil then
        first = a
        token, stamp = var.arg_token, var.arg_timestamp
        -- Anything but 32 hex digits and 1–12 decimal digits cannot pass: no auth is asked.
        if token == nil or #token ~= 32 or find(token, "[^%x]") or stamp == nil or #stamp > 12
          or not find(stamp, "^%d+$") then
          break
        end
        token, at = lower(token), tonumber(stamp)
      end
      if accepts(a, uri, token, stamp, at) then return nil end
    end
  end
  if first == nil then return nil end
  var.rampart_fw_kind = "tokenAuth"
  var.rampart_fw_rule = first.id
  var.rampart_fw_action = first.action
  return first.route
end

return _M
