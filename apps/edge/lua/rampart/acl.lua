-- Lua ACL modules at the edge (packages/contract/src/routes/site-module-acl.ts; docs/decisions.md
-- "Lua ACL modules"): the rules of the module bound to a domain, as data. rampart.firewall calls
-- check() in route() (set_by_lua: nothing here yields) after the site's block list, whitelist,
-- blacklist, IP trust, geo, header and user-agent rules and before its frequency limits; a domain
-- with an ACL and no firewall entry goes through firewall.check too, which then only asks the block
-- list (a DROP + Blacklist rule's blocks) and this module.
--
-- The control plane sends the enabled rules in the order they are tried (priority, higher first);
-- the first whose conditions all match decides: allow ends the ACL, deny answers "4030" (403,
-- "Access denied"), drop "444", dropBlacklist "444" and blocks the address (rampart.firewall's
-- `decided`, rampart.blocklist), redirect ">"<target> (301, rampart.router). Nothing from the rules
-- becomes Lua source or nginx configuration: values are compared as strings, looked up in sets or
-- tried as PCRE patterns checked twice (the contract, rampart.acl_check), compiled once per worker
-- ("jo") and bounded by lua_regex_match_limit (a pattern that hits it does not match).
--
-- Frequency conditions count, per rule and client address, the requests that met the rule's other
-- conditions (they are tried last) in a fixed window of `seconds` from the first (`incr` with an
-- init TTL in the rampart_firewall dict, as the interval limits count), and compare that count.
--
-- Cost: a domain without an ACL pays one field check in route(). Each module is compiled once per
-- worker and generation (memoized on the domain entry); per request, per rule tried: a variable
-- read and a comparison per condition until one fails. String fields (Referer, Cookie, path, URI,
-- User-Agent, a header) are compared and matched in nginx's memory (rampart.request_url): a client
-- that sends long values made to share one LuaJIT string bucket cannot slow the check down
-- (docs/decisions/0123-edge-request-strings-in-place.md).
local compiled_modules = require "rampart.compiled_modules"
local ip_ranges = require "rampart.ip_ranges"
local geo = require "rampart.firewall_geo"
local blocklist = require "rampart.blocklist"
local request_url = require "rampart.request_url"

local _M = {}

local lower, gsub = string.lower, string.gsub
local contains = ip_ranges.contains
local get_method = ngx.req.get_method
local dict = ngx.shared.rampart_firewall
local warned = false

-- The nginx variable each string field reads.
local VARIABLE = {
  cookie = "http_cookie", referer = "http_referer", uriPath = "uri", uriString = "request_uri",
  userAgent = "http_user_agent",
}

-- What route() answers for a rule that blocks (rampart.router); nil for allow.
local ROUTE = { deny = "4030", drop = "444", dropBlacklist = "444" }

local function set_of(values)
  local set = {}
  for _, v in ipairs(values) do set[v] = true end
  return set
end

local function compile_condition(c, rule_id)
  local f = c.field
  if f == "ip" then
    return { kind = "ip", negate = c.negate, [4] = ip_ranges.compile(c.v4), [16] = ip_ranges.compile(c.v6) }
  elseif f == "country" or f == "method" then
    return { kind = f, negate = c.negate, set = set_of(c.values) }
  elseif f == "frequency" then
    return {
      kind = "frequency", op = c.op, count = c.count, seconds = c.seconds,
      key = "a" .. rule_id .. "/" .. c.seconds .. ":",
    }
  end
  -- $http_<name>: nginx's variable for a request header, "-" read as "_" (names hold no "_").
  local variable = f == "header" and "http_" .. gsub(lower(c.name), "-", "_") or VARIABLE[f]
  return { kind = "string", reader = request_url.reader_of(variable), op = c.op, value = c.value, negate = c.negate }
end

local function compile(raw)
  local rules = {}
  for i, r in ipairs(raw.rules) do
    local id = tostring(r.id)
    local conditions, frequency = {}, nil
    for _, c in ipairs(r.conditions) do
      local compiled = compile_condition(c, id)
      if compiled.kind == "frequency" then frequency = compiled else conditions[#conditions + 1] = compiled end
    end
    -- Counting is the last test: only requests that met every other condition count.
    if frequency then conditions[#conditions + 1] = frequency end
    rules[i] = {
      id = id, action = r.action, conditions = conditions,
      route = r.action == "redirect" and ">" .. r.target or ROUTE[r.action],
    }
  end
  return { site = raw.siteId, block_prefix = blocklist.prefix(raw.siteId), rules = rules }
end

local compiled_acl = compiled_modules.cache("luaAcl", compile)

-- The compiled ACL of `domain` (which has an aclId) in generation `gen`, or false.
function _M.of(domain, gen)
  local acl = compiled_acl(gen, domain.aclId)
  domain._acl = acl
  return acl
end

-- A missing value compares as "" (the reader's value when nginx has none).
local function string_matches(c)
  local s = c.reader
  s.read()
  local op, value = c.op, c.value
  if op == "exact" then return s.equals(value) end
  if op == "prefix" then return s.starts(value) end
  if op == "contains" then return s.contains(value) end
  local found, err = s.find(value, "jo")
  if err then ngx.log(ngx.WARN, "rampart acl: pattern failed: ", err) end
  return found == true
end

local function counted(c, addr)
  if dict == nil then
    if not warned then
      ngx.log(ngx.WARN, "rampart acl: frequency conditions need the rampart_firewall shared dict: none matches")
      warned = true
    end
    return false
  end
  -- A dict that cannot count (no memory even after eviction) answers nil: the condition does not match.
  local n = dict:incr(c.key .. addr, 1, 0, c.seconds)
  if n == nil then return false end
  local op, count = c.op, c.count
  if op == "gt" then return n > count end
  if op == "gte" then return n >= count end
  if op == "lt" then return n < count end
  return n <= count
end

-- For the tests (request-strings.test.ts): a condition compiled and matched as check() does.
_M.compile_condition, _M.string_matches = compile_condition, string_matches

local function holds(c, gen, var, addr)
  local kind = c.kind
  local hit
  if kind == "string" then
    hit = string_matches(c)
  elseif kind == "ip" then
    local set = c[#addr]
    hit = set ~= nil and contains(set, addr)
  elseif kind == "method" then
    -- From the request itself (ngx.req, no variable lookup), as $request_method has it.
    hit = c.set[get_method()] == true
  elseif kind == "country" then
    local country = geo.country(gen, addr)
    hit = country and c.set[country] == true or false
  else
    return counted(c, addr)
  end
  if c.negate then return not hit end
  return hit
end

-- The first rule of the compiled `acl` whose conditions all hold for the request, or nil. `addr`
-- is the folded binary client address (rampart.challenge.client_address).
function _M.check(acl, gen, var, addr)
  local rules = acl.rules
  for i = 1, #rules do
    local r = rules[i]
    local conditions, all = r.conditions, true
    for j = 1, #conditions do
      if not holds(conditions[j], gen, var, addr) then
        all = false
        break
      end
    end
    if all then return r end
  end
  return nil
end

return _M
