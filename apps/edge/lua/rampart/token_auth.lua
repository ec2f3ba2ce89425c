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
-- covering auth a comparison of the timestamp and one MD5 of key, path and timestamp. The path is
-- read and matched in nginx's memory (rampart.request_url), never made a Lua string.
local compiled_modules = require "rampart.compiled_modules"
local paths = require "rampart.paths"
local request_url = require "rampart.request_url"
local md5_hex = require("rampart.auth_crypto").md5_hex

local _M = {}

local now, lower, find, gmatch = ngx.time, string.lower, string.find, string.gmatch
local unescape = ngx.unescape_uri
local directory = paths.directory

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

-- One longer than a fileTypes value (TOKEN_AUTH_VALUE_MAX) names no type (paths.extension_at).
local EXTENSION_MAX = 1024

-- `uri`: the request's path read in place (rampart.request_url), `len` its length.
local function covers(a, uri, len)
  local scope = a.scope
  if scope == "all" then return true end
  if scope == "path" then return uri.equals(a.path) end
  if scope == "directory" then return paths.in_directory_at(a.dir, uri) end
  if scope == "fileTypes" then
    local ext = paths.extension_at(uri, len, EXTENSION_MAX)
    return ext ~= nil and a.types[ext] == true
  end
  -- A pattern that fails (lua_regex_match_limit) covers the request: the path is the client's to
  -- choose, and one built to exhaust the limit must not walk past the check (fails closed).
  local found, err = uri.find(a.pattern, "jo")
  if err then
    ngx.log(ngx.WARN, "rampart token auth: pattern of auth ", a.id, " failed: ", err)
    return true
  end
  return found == true
end

-- `token` is lower-case hex, `stamp` the timestamp as sent (the signer hashed that text), `at` its value.
local function accepts(a, uri, len, token, stamp, at)
  local expire = a.expire
  if expire > 0 then
    local t = now()
    if at > t + SKEW or t - at > expire then return false end
  end
  return md5_hex(a.key, uri.pointer(), len, stamp) == token
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
  local uri = request_url.uri
  local len = uri.read() or 0
  local first, token, stamp, at
  for i = 1, #auths do
    local a = auths[i]
    if covers(a, uri, len) then
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
      if accepts(a, uri, len, token, stamp, at) then return nil end
    end
  end
  if first == nil then return nil end
  var.rampart_fw_kind = "tokenAuth"
  var.rampart_fw_rule = first.id
  var.rampart_fw_action = first.action
  return first.route
end

_M.covers, _M.accepts = covers, accepts -- for the tests

return _M
