-- Header blocking and a domain's anti-referer and anti-header lists at the edge
-- (packages/contract/src/routes/firewall-headers.ts, domain-access.ts; docs/decisions.md "Header
-- blocking, anti-referer and anti-header lists"). rampart.firewall calls check() once per request
-- of a domain with a firewall, after the whitelist (a whitelisted client never gets here) and the
-- blacklist, before the user-agent rules. In this order, the first rule that refuses decides:
--
--   the site's header rules   a rule matches when its URL pattern finds a match in the request's
--                             absolute URL and its header is present with a value its pattern
--                             (case-insensitive, unanchored) finds a match in — or, for a rule
--                             with no value pattern, when the request has no such header;
--   the domain's anti-referer a rule covers the requests its URL pattern matches; it refuses one
--                             without a Referer (or with an empty one) unless it allows empty ones,
--                             one whose Referer host none of its hosts names (allow mode), or one
--                             whose Referer host one of its hosts names (deny mode);
--   the domain's anti-header  as the site's header rules.
--
-- Hosts are compared in lower case, without user info and port; `*.example.com` names every host
-- under example.com (not example.com itself). A Referer that is not an absolute URL has a host no
-- pattern names. No pattern is built from request data: hosts are looked up in sets, one lookup
-- per label of the Referer's host.
--
-- Cost: a site without header rules and a domain without lists pay one field check each. The
-- site's rules are compiled with its firewall (once per worker and generation, compile() from
-- rampart.firewall), a domain's lists once per cached domain entry (memoized on it). Runs in
-- set_by_lua: nothing here yields.
local _M = {}

local request_url = require "rampart.request_url"
local ffi_string = require("ffi").string
local lower, sub, find = string.lower, string.sub, string.find
local null = ngx.null
-- Only the start of a Referer is read: a host is in its first bytes.
local REFERER_MAX = 2048

local EVERY_URL = { [".*"] = true, ["/*"] = true }

local function compile_header(r)
  return {
    id = tostring(r.id),
    url = not EVERY_URL[r.url] and r.url or nil,
    -- $http_<name>: nginx's variable for a request header, "-" read as "_" (names hold no "_").
    var = "http_" .. (r.name:gsub("-", "_")),
    -- Its value read and matched in nginx's memory (rampart.request_url): a client makes it as long as it likes.
    reader = request_url.reader_of("http_" .. (r.name:gsub("-", "_"))),
    -- No value pattern: the rule matches a request without the header; ".*" any value (no regex).
    value = r.value ~= null and r.value or nil,
    absent = r.value == null or r.value == nil,
    action = r.action,
  }
end

local function compile_headers(list)
  local out = {}
  for i, r in ipairs(list or {}) do out[i] = compile_header(r) end
  return out
end

-- The site's header rules for rampart.firewall's compile(): a list, or nil when there are none.
function _M.compile(list)
  if list == nil or #list == 0 then return nil end
  return compile_headers(list)
end

local function compile_referer(r)
  local exact, parents = {}, {}
  for _, host in ipairs(r.hosts) do
    if sub(host, 1, 2) == "*." then parents[sub(host, 3)] = true else exact[host] = true end
  end
  return {
    id = tostring(r.id),
    url = not EVERY_URL[r.url] and r.url or nil,
    allow = r.mode == "allow",
    allow_empty = r.allowEmpty,
    exact = exact,
    parents = parents,
    action = r.action,
  }
end

-- A domain's compiled lists, or false (memoized on the cached domain entry).
local function access_of(domain)
  local access = domain._access
  if access ~= nil then return access end
  local raw = domain.access
  if raw == nil or raw == ngx.null then
    access = false
  else
    local referers = {}
    for i, r in ipairs(raw.referers) do referers[i] = compile_referer(r) end
    access = { referers = referers, headers = compile_headers(raw.headers) }
  end
  domain._access = access
  return access
end

-- The host of the absolute URL at `p` (`n` bytes, read in place from nginx's memory) in lower
-- case, without user info, port or a trailing dot; "" when the text is not one (no pattern names
-- ""). Only the host becomes a Lua string, and only its last HOST_KEEP bytes: no host pattern is
-- longer than 253 bytes, so a longer host is named by none exactly, and its parents that a pattern
-- can name (253 bytes at most, each after a dot) all lie in those last bytes.
local HOST_KEEP = 256
local function host_at(p, n)
  if n > REFERER_MAX then n = REFERER_MAX end
  -- the first "://", which must start within the first 32 bytes and not at the first
  local i, last = 0, n - 3
  if last > 31 then last = 31 end
  while i <= last and not (p[i] == 58 and p[i + 1] == 47 and p[i + 2] == 47) do i = i + 1 end
  if i == 0 or i > last then return "" end
  local s, e = i + 3, i + 3
  while e < n do -- the authority ends at "/", "?" or "#"
    local c = p[e]
    if c == 47 or c == 63 or c == 35 then break end
    e = e + 1
  end
  for k = e - 1, s, -1 do -- the last "@" ends the user info
    if p[k] == 64 then
      s = k + 1
      break
    end
  end
  if s < e and p[s] == 91 then return "" end -- "[": an IPv6 literal, which no host pattern names
  for k = s, e - 1 do
    if p[k] == 58 then
      e = k
      break
    end
  end
  if e > s and p[e - 1] == 46 then e = e - 1 end
  if e - s > HOST_KEEP then s = e - HOST_KEEP end
  return lower(ffi_string(p + s, e - s))
end

-- The request's Referer, read in place.
local referer = request_url.reader("http_referer")

-- Whether one of the rule's hosts names `host`: the host itself, or a parent of it for `*.`.
local function names(rule, host)
  if rule.exact[host] then return true end
  local parents = rule.parents
  local dot = find(host, ".", 1, true)
  while dot do
    if parents[sub(host, dot + 1)] then return true end
    dot = find(host, ".", dot + 1, true)
  end
  return false
end

-- The URL (read once, when a rule with a pattern first needs it) and whether `rule` covers it.
local function covers(rule, var, url)
  local pattern = rule.url
  if pattern == nil then return true, url end
  -- The URL stays in nginx's memory (rampart.request_url): `url` is its length once read.
  if url == nil then url = request_url.read() end
  local from, err = request_url.find(pattern)
  if err then ngx.log(ngx.WARN, "rampart firewall: rule ", rule.id, " pattern failed: ", err) end
  return from == true, url
end

local function first_header_hit(rules, var, url)
  for i = 1, #rules do
    local r = rules[i]
    local hit
    hit, url = covers(r, var, url)
    if hit then
      local value = r.reader
      local len = value.read()
      if r.absent then
        hit = len == nil
      else
        -- "ijo": case-insensitive, compiled once per worker, as the user-agent rules.
        hit = len ~= nil and (r.value == ".*" or value.find(r.value, "ijo") == true)
      end
      if hit then return r, url end
    end
  end
  return nil, url
end

local function first_referer_refusal(rules, var, url)
  local host
  for i = 1, #rules do
    local r = rules[i]
    local hit
    hit, url = covers(r, var, url)
    if hit then
      if host == nil then
        local len = referer.read()
        if len == nil or len == 0 then host = false else host = host_at(referer.pointer(), len) end
      end
      local refuse
      if host == false then
        refuse = not r.allow_empty
      else
        refuse = r.allow ~= names(r, host)
      end
      if refuse then return r, url end
    end
  end
  return nil, url
end

-- The rule that refuses the request and its kind for the access log ("header", "antiReferer",
-- "antiHeader"), or nil; and the URL if a rule read it (handed on to the later checks).
function _M.check(fw, domain, var, url)
  local rule
  local site = fw.headers
  if site then
    rule, url = first_header_hit(site, var, url)
    if rule then return rule, "header", url end
  end
  local access = domain._access
  if access == nil then access = access_of(domain) end
  if not access then return nil, nil, url end
  rule, url = first_referer_refusal(access.referers, var, url)
  if rule then return rule, "antiReferer", url end
  rule, url = first_header_hit(access.headers, var, url)
  if rule then return rule, "antiHeader", url end
  return nil, nil, url
end

-- For the tests (rampart.firewall_headers is required by firewall.lua only).
_M.host_at = host_at

return _M
