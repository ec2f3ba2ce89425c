-- Host → domain, and what nginx does with the request. Two steps (see render.ts):
--
-- route() runs in set_by_lua for every request and answers
--   ""        proxy to the domain's HTTP origin: the hot path, one `if` and proxy_pass in nginx.conf
--   anything else: nginx hands the request to @rampart_route, where elsewhere() acts on it:
--   "https"   proxy to the domain's HTTPS origin
--   "404", "403", "503"          the edge's own page for that status
--   "4030"    403 with the edge's "Access denied" page (a firewall blacklist's deny, rampart.firewall;
--             a token auth's deny, rampart.token_auth)
--   "w"       the WAF must read the request's body: elsewhere() inspects it, then goes on (rampart.waf;
--             its block is "4030")
--   "444"     close the connection unanswered (a zone limit, rampart.limits; a firewall rule's or a
--             token auth's drop)
--   "929"     929 with the edge's "Too many requests" page (a frequency limit's deny)
--   ">"<url>  301 to <url> (a Lua ACL rule's redirect, rampart.acl)
--   "a[b][j]" 401 from an auth rule, with a Basic (b) and/or Bearer (j) challenge (rampart.auth)
--   "c<kind><site>"  a challenge page (kind s shield, c click, r redirect, k code, d slider) or, kind v, the check of
--                    an answer posted to the challenge path (rampart.challenge)
--   "~<seconds>~<route>"  a per-second frequency limit delays the request that long, then <route>
--                         ("" here: proxy to the HTTP origin, through @rampart_http)
--   "301", "302", "307", "308"   the forceSSL redirect
--   "@rampart_cache_<ttl>[_fixed][_site]"  the cache location of the first cache rule that matches
--                                (`_site`: with the site filters, for a site with compression or pages)
--   "@rampart_site_http", "@rampart_site_https"  a site with compression or error pages (rampart.settings)
--   "@rampart_modules"           the domain has site modules (rampart.modules does the rest)
--   "!"<key authorization>       the answer to an ACME HTTP-01 challenge the node was given
-- set_by_lua runs without a coroutine of its own, which is measurably cheaper per request than
-- rewrite_by_lua; nothing here yields. It writes as few nginx variables as it can (each write is a
-- hash lookup in nginx): the domain id for the access log, and the Host sent upstream only when the
-- domain overrides it ($rampart_host_header falls back to $host).
local store = require "rampart.store"
local pages = require "rampart.pages"
local settings = require "rampart.settings"
local limits = require "rampart.limits"
local firewall = require "rampart.firewall"
local challenge = require "rampart.challenge"
local paths = require "rampart.paths"
local token_auth = require "rampart.token_auth"
local auth = require "rampart.auth"
local waf = require "rampart.waf"
local escalate = require "rampart.escalate"
local request_url = require "rampart.request_url"

local _M = {}
local cached_location

-- Request ids: "<node>-<worker pid>-<worker start>-<serial>", unique on the node for ever: the
-- request events keep them (docs/decisions.md "Traffic analytics at the edge"), and a pid comes
-- back after nginx restarts, so the worker's start (hex unix seconds of its first request, taken
-- once) tells two workers with one pid apart. Instead of $request_id, whose per-request call into
-- OpenSSL's RNG cost ~13% of the edge's CPU per request, and of an nginx-side
-- "$pid-$connection-..." whose number formatting cost ~2,500 instructions (bench/README.md).
-- Written from a C buffer (rampart.request_id): no Lua string per request.
local request_id = require "rampart.request_id"

-- ACME HTTP-01 challenges (docs/decisions.md "Automatic certificates"): whether the generation
-- holds any is read once per worker and generation, so a node without one pays a number compare.
local ACME_PREFIX = "/.well-known/acme-challenge/"
local ACME_TOKEN_MAX = 128
local ffi_string = require("ffi").string
local acme_gen, acme_any = nil, false

-- The key authorization the node holds for the host and this request's challenge path, or nil.
local function acme_answer(var, gen)
  if gen ~= acme_gen then
    acme_gen = gen
    local meta = store.meta(gen)
    acme_any = meta ~= nil and meta.acme == true
  end
  if not acme_any then return nil end
  -- The path is read in place; only a token the node could hold (at most ACME_TOKEN_MAX bytes,
  -- rampart.validate) becomes a Lua string.
  local uri = request_url.uri
  local len = uri.read()
  if len == nil or len - #ACME_PREFIX > ACME_TOKEN_MAX or not uri.starts(ACME_PREFIX) then return nil end
  local answer = store.acme(gen, var.host, ffi_string(uri.pointer() + #ACME_PREFIX, len - #ACME_PREFIX))
  return type(answer) == "string" and answer or nil
end

-- Cache rules (packages/contract/src/routes/site-cache.ts), compiled once per cached domain entry
-- (worker and generation): each rule becomes a test on the request path and the name of the
-- nginx location that caches with its lifetime (render.ts cacheLocations).
local unescape = ngx.unescape_uri
local gmatch, match, concat = string.gmatch, string.match, table.concat
-- The cache key, joined in place (rampart.request_url writer): never a Lua string of the path.
local cache_key = request_url.writer("rampart_cache_key")

local function compile_rule(rule)
  local compiled = {
    scope = rule.scope,
    bypass = rule.bypass,
    include_query = rule.queryString == "include",
    location = "@rampart_cache_" .. rule.ttl .. (rule.respectOrigin and "" or "_fixed"),
  }
  if rule.scope == "directory" then
    local dirs = {}
    for i, v in ipairs(rule.values) do dirs[i] = paths.directory(v) end
    compiled.dirs = dirs
  elseif rule.scope == "path" then
    -- paths by length, each compared in place with the request's
    local by_length = {}
    for _, v in ipairs(rule.values) do
      local path = unescape(v)
      local list = by_length[#path]
      if list == nil then
        list = {}
        by_length[#path] = list
      end
      list[#list + 1] = path
    end
    compiled.by_length = by_length
  elseif rule.scope ~= "all" then
    local set, longest = {}, 0
    for _, v in ipairs(rule.values) do
      set[v] = true
      if #v > longest then longest = #v end
    end
    compiled.set, compiled.longest = set, longest
  end
  return compiled
end

-- Every cache key starts with "<node cache epoch>:<site cache generation>|" (see cache_key_prefix).
local function compile_policy(policy, gen)
  local rules = {}
  for i, rule in ipairs(policy.rules) do rules[i] = compile_rule(rule) end
  return { key_prefix = _M.cache_key_prefix(store.cache_epoch(gen), policy), rules = rules }
end

-- The start of every cache key of a site: raising either number clears the entries at once.
-- The purge (rampart.purge) builds the same keys.
function _M.cache_key_prefix(epoch, policy)
  return epoch .. ":" .. policy.generation .. "|"
end

-- `uri`: the request's path read in place (rampart.request_url), `len` its length.
local function rule_matches(rule, uri, len)
  local scope = rule.scope
  if scope == "all" then return true end
  if scope == "path" then
    local list = rule.by_length[len]
    if list == nil then return false end
    for i = 1, #list do
      if uri.equals(list[i]) then return true end
    end
    return false
  end
  if scope == "suffix" then
    local ext = paths.extension_at(uri, len, rule.longest)
    return ext ~= nil and rule.set[ext] == true
  end
  local dirs = rule.dirs
  for i = 1, #dirs do
    if paths.in_directory_at(dirs[i], uri) then return true end
  end
  return false
end
_M.compile_rule, _M.rule_matches = compile_rule, rule_matches -- for the tests

-- `args` (the raw query) without its `token` and `timestamp` parameters (rampart.token_auth's),
-- the others in their order.
local function without_auth_args(args)
  local kept, n = {}, 0
  for pair in gmatch(args, "[^&]+") do
    local name = match(pair, "^[^=]*")
    if name ~= "token" and name ~= "timestamp" then
      n = n + 1
      kept[n] = pair
    end
  end
  return concat(kept, "&")
end

-- The cache location for this request, or nil to proxy without the cache (no policy, no rule
-- matched, a bypass rule, or a method other than GET and HEAD). Sets the cache key (the site's
-- cache generation, the host, the path and, when the rule keeps it, the query) and the pool.
cached_location = function(domain, gen, var)
  local policy = domain._cache
  if policy == nil then
    local raw = store.cache_policy(gen, domain.cacheId)
    policy = raw and compile_policy(raw, gen) or false
    domain._cache = policy
  end
  if not policy then return nil end
  local method = var.request_method
  if method ~= "GET" and method ~= "HEAD" then return nil end
  local uri = request_url.uri
  local len = uri.read() or 0
  for _, rule in ipairs(policy.rules) do
    if rule_matches(rule, uri, len) then
      if rule.bypass then return nil end
      cache_key.reset()
      cache_key.add(policy.key_prefix)
      cache_key.add(var.host)
      cache_key.add_read(uri)
      if rule.include_query then
        -- A token-auth domain's token and timestamp differ per link, never per content: kept in
        -- the key, every signed link would be a miss of its own.
        local args = request_url.args
        if (args.read() or 0) > 0 then
          if domain.tokenAuthId and (args.contains("token=") or args.contains("timestamp=")) then
            local kept = without_auth_args(args.string())
            if kept ~= "" then
              cache_key.add("?")
              cache_key.add(kept)
            end
          else
            cache_key.add("?")
            cache_key.add_read(args)
          end
        end
      end
      local ok, err = cache_key.set()
      if not ok then error("rampart_cache_key: " .. err) end
      var.rampart_cache_pass = domain.origin.scheme == "http" and "http://rampart_http" or "https://rampart_https"
      return rule.location
    end
  end
  return nil
end

-- For rampart.modules: a domain with modules picks its cache location after its own work.
_M.cached_location = cached_location

-- Where a routed, enabled domain's request goes once the firewall let it through (see the top).
local function onward(domain, gen, var)
  if domain.forceSSL and var.scheme == "http" then return domain._redirect_code end

  local origin = domain.origin
  if origin.host then var.rampart_upstream_host = origin.host end
  local filtered = false
  if domain.settingsId then
    local site = settings.of(domain, gen)
    if site then
      if site.rates then
        local bytes = settings.rate(site, var.uri)
        if bytes then var.limit_rate = bytes end
      end
      filtered = site.filters
    end
  end
  if domain.modules then return "@rampart_modules" end
  if domain.cacheId then
    local location = cached_location(domain, gen, var)
    if location then return filtered and location .. "_site" or location end
  end
  if filtered then return origin.scheme == "http" and "@rampart_site_http" or "@rampart_site_https" end
  if origin.scheme ~= "http" then return "https" end
  return ""
end

local decide

-- set_by_lua on every request (see the top). A firewall's deny ("4030") and a drop ("444") are
-- answered by nginx in this same phase (public-server.ts: `return 403
-- "$rampart_page$rampart_page_id$rampart_page_end"`, `return 444`), without handing the request to
-- @rampart_route and a second Lua phase: a refused flood costs this call and nginx's answer. The
-- page is the one pages.send would send, in its three parts (pages.parts: nginx joins the page,
-- built once, and this request's id; Lua never builds the whole).
function _M.route()
  local var = ngx.var
  local route = decide(var)
  escalate.note(var, route)
  if route == "4030" then
    local head, id, rest = pages.parts(4030)
    var.rampart_page, var.rampart_page_id, var.rampart_page_end = head, id, rest
  end
  return route
end

decide = function(var)
  request_id.next(var)
  local domain, gen = store.lookup(var.host) -- nginx lower-cases the host and strips the port
  if gen == nil then return "503" end
  -- An ACME challenge is answered before anything else of the host: zone limits, firewall, redirects.
  local acme = acme_answer(var, gen)
  if acme then return "!" .. acme end
  -- Zone limits (rampart.limits): one boolean while the unknown-host limit is off.
  if limits.http and limits.refuse(var, domain) then return "444" end
  if domain == nil then return "404" end

  store.request_routed(domain)
  var.rampart_domain_id = domain._id
  if not domain.enabled then return "403" end
  -- The site firewall and the domain's Lua ACL (rampart.firewall, rampart.acl): two field checks
  -- for a domain without either. Before the
  -- forceSSL redirect: a blocked client gets nothing else from the site. A per-second limit may
  -- delay the request: elsewhere() waits, then goes on with the route it would have had.
  local wait
  local whitelisted = false
  if domain.firewallId or domain.aclId then
    local blocked
    blocked, wait = firewall.check(domain, gen, var)
    if blocked then return blocked end
    whitelisted = blocked == false
  end
  -- The WAF (rampart.waf): after the firewall, the Lua ACL and the frequency limits (a whitelisted
  -- request skips it, as it skips the rest of the firewall), before token auth. A request without
  -- a body is inspected here; one with a body goes to elsewhere() ("w"), where nginx lets Lua read it.
  if domain.wafId and not whitelisted then
    if waf.has_body(var) then
      if wait then return "~" .. wait .. "~w" end
      return "w"
    end
    local blocked = waf.check(domain, gen, var, false)
    if blocked then return blocked end
  end
  local route = _M.after_waf(domain, gen, var)
  if wait then return "~" .. wait .. "~" .. route end
  return route
end

-- What follows the WAF: token auth, auth groups and the route onward.
function _M.after_waf(domain, gen, var)
  -- Token auth (rampart.token_auth): one field check for a domain without it. After the firewall
  -- (whose whitelist does not excuse a missing token), before the delay of a per-second limit.
  if domain.tokenAuthId then
    local refused = token_auth.check(domain, gen, var)
    if refused then return refused end
  end
  -- Auth groups (rampart.auth): after the firewall, so a blocked client learns nothing of them,
  -- and after a forceSSL redirect, so no credential is asked for over plain HTTP on such a domain.
  local route
  if domain.auth and not (domain.forceSSL and var.scheme == "http") then route = auth.check(domain, var) end
  return route or onward(domain, gen, var)
end

-- "w": the WAF reads and inspects the body here (rewrite phase), then the route goes on.
local function after_body(var)
  local domain, gen = store.lookup(var.host)
  if gen == nil then return "503" end
  if domain == nil then return "404" end
  if not domain.enabled then return "403" end
  if domain.wafId then
    local blocked = waf.check(domain, gen, var, true)
    if blocked then return blocked end
  end
  return _M.after_waf(domain, gen, var)
end

-- The request's route, in rewrite_by_lua (see elsewhere()).
local function act(var, route)
  if route == "https" then return end
  -- a delayed request, or one whose body the WAF read, for an HTTP origin: proxied from here
  if route == "" then var.rampart_route_pass = "http://rampart_http" return end
  if route:byte(1) == 64 then return ngx.exec(route) end -- "@rampart_cache_...", "@rampart_site_..."
  if route:byte(1) == 99 then return challenge.act(route, var) end -- "c<kind><site>": rampart.challenge
  if route:byte(1) == 62 then return pages.redirect(route:sub(2), 301) end -- ">"<target>: a Lua ACL redirect
  if route:byte(1) == 97 then return auth.refuse(route, pages) end -- "a[b][j]": an auth rule's 401
  if route:byte(1) == 33 then -- "!"<key authorization>: an ACME HTTP-01 challenge's answer
    ngx.header.content_type = "text/plain"
    ngx.print(route:sub(2))
    return ngx.exit(200)
  end
  local status = tonumber(route)
  if status == 444 then return ngx.exit(444) end -- a zone limit or a firewall's drop: close without an answer
  if status and status >= 300 and status < 400 then
    local host, port = var.host, var.rampart_https_port
    local authority = port == "443" and host or (host .. ":" .. port)
    return pages.redirect("https://" .. authority .. var.request_uri, status)
  end
  return pages.send(status or 500)
end

-- rewrite_by_lua in @rampart_route. Returning lets nginx proxy to the HTTPS origin pool.
-- "~<seconds>~<route>": a per-second frequency limit delays the request (rampart.firewall_frequency,
-- nginx's limit_req without nodelay): sleep here, where yielding is allowed, then take the route.
function _M.elsewhere()
  local var = ngx.var
  local route = var.rampart_route
  if route == "https" then return end
  if route:byte(1) == 126 then
    local at = route:find("~", 2, true)
    ngx.sleep(tonumber(route:sub(2, at - 1)))
    route = route:sub(at + 1)
  end
  if route == "w" then route = after_body(var); escalate.note(var, route) end
  return act(var, route)
end

return _M
