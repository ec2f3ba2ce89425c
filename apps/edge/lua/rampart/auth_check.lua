-- Checks a domain's auth data of the data plane again (defence in depth, as rampart.acl_check does):
-- the allowlists of packages/contract/src/edge/auth.ts. Returns a clean record with only known
-- fields, nil when the domain has none, or nil, field, reason.
local checks = require "rampart.checks"

local _M = {}

local null = ngx.null
local re_find = ngx.re.find
local is_array, is_int = checks.is_array, checks.is_int

local MAX_RULES, MAX_GROUPS, MAX_CREDENTIALS = 200, 100, 500
local MATCHES = { exact = true, prefix = true, regex = true }
local ALGS = { HS256 = true, RS256 = true, ES256 = true }
local PATH_RE = [[^[\x20-\x7e]{1,512}\z]]
local USER_RE = [[^[\x21-\x39\x3b-\x7e]([\x20-\x39\x3b-\x7e]{0,62}[\x21-\x39\x3b-\x7e])?\z]]
local KEY_RE = [[^[A-Za-z0-9._~-]{16,256}\z]]
local HEADER_RE = [[^[a-z0-9][a-z0-9-]{0,63}\z]]
local QUERY_RE = [[^[A-Za-z0-9_.-]{1,64}\z]]
local PRINTABLE_RE = [[^[\x20-\x7e]{0,255}\z]]

local function matches(v, re) return type(v) == "string" and re_find(v, re, "jo") ~= nil end
local function hex(v, n) return matches(v, "^[0-9a-f]{" .. n .. "}\\z") end

local function group(g, path)
  if type(g) ~= "table" or not is_int(g.id, 1, 9007199254740991) then return nil, path .. ".id", "not an id" end
  local clean = { id = g.id, basic = {}, key = {}, jwt = {} }
  for _, kind in ipairs({ "basic", "key", "jwt" }) do
    if not is_array(g[kind], MAX_CREDENTIALS) then return nil, path .. "." .. kind, "not a list" end
  end
  for i, c in ipairs(g.basic) do
    local at = path .. ".basic[" .. (i - 1) .. "]"
    if type(c) ~= "table" or not is_int(c.id, 1, 9007199254740991) then return nil, at .. ".id", "not an id" end
    if not matches(c.user, USER_RE) then return nil, at .. ".user", "not a user name" end
    if not hex(c.salt, 32) or not hex(c.hash, 64) then return nil, at .. ".hash", "not a salt and hash" end
    clean.basic[i] = { id = c.id, user = c.user, salt = c.salt, hash = c.hash }
  end
  for i, c in ipairs(g.key) do
    local at = path .. ".key[" .. (i - 1) .. "]"
    if type(c) ~= "table" or not is_int(c.id, 1, 9007199254740991) then return nil, at .. ".id", "not an id" end
    local name_re = c["in"] == "header" and HEADER_RE or (c["in"] == "query" and QUERY_RE)
    if not name_re or not matches(c.name, name_re) then return nil, at .. ".name", "not a header or query name" end
    if not matches(c.key, KEY_RE) then return nil, at .. ".key", "not a key" end
    clean.key[i] = { id = c.id, ["in"] = c["in"], name = c.name, key = c.key }
  end
  for i, c in ipairs(g.jwt) do
    local at = path .. ".jwt[" .. (i - 1) .. "]"
    if type(c) ~= "table" or not is_int(c.id, 1, 9007199254740991) then return nil, at .. ".id", "not an id" end
    if not ALGS[c.alg] then return nil, at .. ".alg", "not HS256, RS256 or ES256" end
    if type(c.key) ~= "string" or #c.key == 0 or #c.key > 4096 then return nil, at .. ".key", "not a key" end
    if not matches(c.iss, PRINTABLE_RE) or not matches(c.aud, PRINTABLE_RE) then
      return nil, at .. ".iss", "not printable text"
    end
    if not is_int(c.leeway, 0, 300) then return nil, at .. ".leeway", "not 0 to 300" end
    if type(c.requireExp) ~= "boolean" then return nil, at .. ".requireExp", "not true or false" end
    clean.jwt[i] = {
      id = c.id, alg = c.alg, key = c.key, iss = c.iss, aud = c.aud, leeway = c.leeway, requireExp = c.requireExp,
    }
  end
  return clean
end

function _M.domain(auth, path)
  if auth == nil or auth == null then return nil end
  if type(auth) ~= "table" then return nil, path, "not an object" end
  if not is_array(auth.groups, MAX_GROUPS) or #auth.groups == 0 then return nil, path .. ".groups", "not a list" end
  if not is_array(auth.rules, MAX_RULES) or #auth.rules == 0 then return nil, path .. ".rules", "not a list" end
  local groups, ids = {}, {}
  for i, g in ipairs(auth.groups) do
    local clean, field, reason = group(g, path .. ".groups[" .. (i - 1) .. "]")
    if not clean then return nil, field, reason end
    groups[i] = clean
    ids[clean.id] = true
  end
  local rules = {}
  for i, r in ipairs(auth.rules) do
    local at = path .. ".rules[" .. (i - 1) .. "]"
    if type(r) ~= "table" or not is_int(r.id, 1, 9007199254740991) then return nil, at .. ".id", "not an id" end
    if not MATCHES[r.match] then return nil, at .. ".match", "not exact, prefix or regex" end
    if not matches(r.path, PATH_RE) then return nil, at .. ".path", "not a path" end
    if r.match == "regex" then
      local _, _, err = re_find("", r.path, "jo")
      if err then return nil, at .. ".path", "not a regular expression" end
    end
    if not ids[r.group] then return nil, at .. ".group", "not a group of the entry" end
    rules[i] = { id = r.id, match = r.match, path = r.path, group = r.group }
  end
  return { rules = rules, groups = groups }
end

return _M
