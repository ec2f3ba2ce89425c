-- The site firewall's whitelist, blacklist, user-agent rules and frequency limits at the edge
-- (packages/contract/src/routes/firewall-lists.ts, firewall-user-agents.ts, firewall-frequency.ts;
-- docs/decisions.md "Site firewall at the edge") for the domains that carry a firewallId.
--
-- A rule matches when the client address is in its ranges, the method is one of its methods and
-- its `url` pattern (PCRE, unanchored) finds a match in the request's absolute URL
-- `scheme://host[:public port]/path?query` ($rampart_fw_url, a map in render.ts: the port is the
-- one the zone configured, left out when it is the scheme's default). The site's block list
-- (rampart.blocklist) is checked first, before the challenge path and the whitelist: an address a
-- DROP + Blacklist rule blocked is dropped (444, logged as fw_kind blockList with fw_rule empty) on
-- every request to the site until its block expires, whitelisted or not. Then the whitelist: a hit
-- lets the request through and skips every later firewall check. Then the blacklist in its
-- order: the first hit denies (403, the edge's "Access denied" page, key 4030 in rampart.pages),
-- drops (444: the connection closes unanswered), drops and blocks (dropBlacklist: 444, and the
-- address joins the site's block list; so for every kind that may carry it below) or challenges
-- (rampart.challenge: a client with a valid pass for the site is not caught by challenge rules).
-- Then IP trust protection (rampart.firewall_reputation: a client whose address has a score in the
-- operator's reputation list at or above the site's threshold gets the site's mode, logged as
-- fw_kind reputation with the site as fw_rule; a challenge mode lets a client with a pass through).
-- Then the geo rules (rampart.firewall_geo: the client's country or city in the operator's geo
-- database). Then the site's header rules and
-- the domain's anti-referer and anti-header lists (rampart.firewall_headers; a domain with lists
-- has a firewallId). Then the user-agent rules in their order: the first whose URL pattern and
-- (case-insensitive) User-Agent pattern both match denies, drops or challenges.
-- Last the frequency limits (rampart.firewall_frequency): every one that covers the request counts
-- it; the first over its limit denies (929), drops or drops and blocks, and a per-second limit may
-- delay it instead.
--
-- Cost: route() calls check() only for a domain with a firewallId. Each site's rules are compiled
-- once per worker and generation (shared by the site's domains, memoized on each domain entry):
-- address ranges become binary strings searched by bisection against $binary_remote_addr (strings
-- of one length compare byte by byte), methods a set, and the patterns `.*` and `/*`, which match
-- every URL, no pattern at all. Per request: two variable reads, the URL only when a rule's address
-- and method matched and it has a pattern, and three variable writes (for the access log) only when
-- a rule decided; with frequency limits, a shared-dict `incr` per limit that covers the request
-- (a site without them pays one field check); the block list, one shared-dict `get` (and a string
-- concatenation) per request of a site with rules. Runs in set_by_lua: nothing here yields.
local store = require "rampart.store"
local frequency = require "rampart.firewall_frequency"
local challenge = require "rampart.challenge"
local headers = require "rampart.firewall_headers"
local geo = require "rampart.firewall_geo"
local reputation = require "rampart.firewall_reputation"
local blocklist = require "rampart.blocklist"
local ip_ranges = require "rampart.ip_ranges"
local acl = require "rampart.acl"
local request_url = require "rampart.request_url"

local _M = {}

local client_address = challenge.client_address
local get_method = ngx.req.get_method

-- Address ranges (rampart.ip_ranges).
local compile_ranges, contains = ip_ranges.compile, ip_ranges.contains

-- Patterns that match every string: no need to build the URL or run PCRE for them.
local EVERY_URL = { [".*"] = true, ["/*"] = true }

-- The challenge each challenging action serves (rampart.challenge): its letter in the route.
local CHALLENGE_OF = challenge.LETTER

-- What route() answers for a rule that blocks or challenges (rampart.router): "444" drop, "4030"
-- deny, "c<letter><site>" a challenge.
local function route_of(action, site)
  local letter = CHALLENGE_OF[action]
  if letter then return challenge.route(letter, site, 0) end
  return (action == "drop" or action == "dropBlacklist") and "444" or "4030"
end

local function compile_rule(r, site)
  local methods = {}
  for _, m in ipairs(r.methods) do methods[m] = true end
  return {
    id = tostring(r.id),
    url = not EVERY_URL[r.url] and r.url or nil,
    methods = methods,
    [4] = compile_ranges(r.v4),
    [16] = compile_ranges(r.v6),
    action = r.action or "allow",
    -- What route() answers for a blacklist hit (rampart.router); whether a pass lets it through.
    route = site and route_of(r.action, site) or nil,
    challenge = CHALLENGE_OF[r.action] ~= nil,
  }
end

local function compile_user_agent(r, site)
  return {
    id = tostring(r.id),
    url = not EVERY_URL[r.url] and r.url or nil,
    user_agent = r.userAgent,
    action = r.action,
    route = route_of(r.action, site),
    challenge = CHALLENGE_OF[r.action] ~= nil,
  }
end

local function compile(raw)
  local whitelist, blacklist, agents = {}, {}, {}
  local site, challenges = raw.id, false
  for i, r in ipairs(raw.whitelist) do whitelist[i] = compile_rule(r, nil) end
  for i, r in ipairs(raw.blacklist) do
    blacklist[i] = compile_rule(r, site)
    challenges = challenges or blacklist[i].challenge
  end
  for i, r in ipairs(raw.userAgents or {}) do
    agents[i] = compile_user_agent(r, site)
    challenges = challenges or agents[i].challenge
  end
  local limits = frequency.compile(raw)
  local header_rules = headers.compile(raw.headers)
  local geos = geo.compile(raw.geos, site, route_of, CHALLENGE_OF)
  for _, r in ipairs(geos or {}) do challenges = challenges or r.challenge end
  if limits and limits.anti_cc then challenges = true end
  -- IP trust protection: the site is its rule (its id is what the log and a block report name).
  local trust = raw.reputation
  if trust then
    trust = {
      id = tostring(site), threshold = trust.threshold, action = trust.action, route = route_of(trust.action, site),
      challenge = CHALLENGE_OF[trust.action] ~= nil,
    }
    challenges = challenges or trust.challenge
  end
  -- An entry without rules comes for a site whose blocks outlive the rule that made them (the
  -- control plane sends it while the site has a block that has not ended): only the block list acts.
  return {
    -- The key prefix of the site's blocks (rampart.blocklist).
    site = site, block_prefix = blocklist.prefix(site), whitelist = whitelist, blacklist = blacklist, user_agents = agents, frequency = limits,
    headers = header_rules, geos = geos, reputation = trust,
    -- The site has a challenge rule: its requests to the challenge path are answered by the edge,
    -- and each request's pass cookie is checked once.
    challenges = challenges,
  }
end

-- A site without rules of its own, for a domain that has anti-referer or anti-header lists.
local NO_RULES = { whitelist = {}, blacklist = {}, user_agents = {} }

-- Compiled firewalls of one cache epoch (rampart.store: a changed firewall starts a new one), by
-- site id: a site's domains share one copy.
local compiled_epoch, compiled = nil, {}

-- The compiled firewall of `domain` (which has a firewallId) in generation `gen`, or false.
function _M.of(domain, gen)
  local fw = domain._firewall
  if fw ~= nil then return fw end
  if store.epoch ~= compiled_epoch then
    compiled_epoch, compiled = store.epoch, {}
  end
  local id = domain.firewallId
  fw = compiled[id]
  if fw == nil then
    local raw = store.firewall(gen, id)
    fw = raw and compile(raw) or false
    compiled[id] = fw
  end
  domain._firewall = fw
  return fw
end

-- The first rule of `rules` that matches, or nil; and the URL, read once the first time a rule
-- needs it and handed on to the next list. A challenge rule does not match a client that `passed`.
local function first_hit(rules, size, addr, method, var, url, passed)
  for i = 1, #rules do
    local rule = rules[i]
    local set = rule[size]
    if set and rule.methods[method] and not (passed and rule.challenge) and contains(set, addr) then
      local pattern = rule.url
      if pattern == nil then return rule, url end
      -- The URL stays in nginx's memory (rampart.request_url): `url` is its length once read.
      if url == nil then url = request_url.read() end
      -- "jo": compiled once per worker; lua_regex_match_limit bounds backtracking (a failure is no match).
      local from, err = request_url.find(pattern)
      if from then return rule, url end
      if err then ngx.log(ngx.WARN, "rampart firewall: rule ", rule.id, " pattern failed: ", err) end
    end
  end
  return nil, url
end

-- A rule decided: logged (access log), and a DROP + Blacklist rule blocks the client address for
-- the site (rampart.blocklist: the one place every kind's dropBlacklist goes through).
local function decided(var, kind, rule, fw, addr)
  var.rampart_fw_kind = kind
  var.rampart_fw_rule = rule.id
  var.rampart_fw_action = rule.action
  if rule.action == "dropBlacklist" and fw.site then blocklist.block(fw.site, fw.block_prefix, addr, var, kind, rule) end
end

-- For route(): the route of a blocked request ("4030" deny, "444" drop, "929" a frequency limit's
-- deny); false when the whitelist let it through (later firewall checks are skipped); nil when no
-- rule decided, and then the seconds a per-second limit delays the request (nil: none).
function _M.check(domain, gen, var)
  local fw = domain._firewall
  if fw == nil then fw = domain.firewallId and _M.of(domain, gen) or false end
  -- The domain's Lua ACL module (rampart.acl), compiled, or false/nil when it has none.
  local acl_rules = domain._acl
  if acl_rules == nil then acl_rules = domain.aclId and acl.of(domain, gen) or false end
  if not fw then
    if domain.access == nil and not acl_rules then return nil end
    fw = NO_RULES
  end
  -- The client address: nginx's realip module (the zone's trusted proxies) has put the visitor's
  -- in binary_remote_addr; an IPv4 client on an IPv6 socket is matched as IPv4.
  local addr = client_address(var)
  local size = #addr
  -- The site's block list first: a blocked address gets nothing from the site (not even the
  -- challenge path or a whitelist's pass). fw_rule stays empty: the block names no rule now.
  local prefix = fw.block_prefix or (acl_rules and acl_rules.block_prefix)
  if prefix and blocklist.blocked(prefix, addr) then
    var.rampart_fw_kind = "blockList"
    var.rampart_fw_action = "drop"
    return "444"
  end
  -- A site with challenge rules answers its challenge path itself (before any rule: a client that
  -- a rule challenges must reach it), and a valid pass lets its client past those rules.
  local passed = false
  if fw.challenges then
    -- Compared in nginx's memory (rampart.request_url): a path is as long as its client likes.
    request_url.uri.read()
    if request_url.uri.equals(challenge.PATH) then return "cv" .. fw.site end
    passed = challenge.passed(fw.site, var, addr, gen)
  end
  -- The method from the request itself (ngx.req, no variable lookup), as $request_method has it.
  local method = get_method()
  local rule, url = first_hit(fw.whitelist, size, addr, method, var, nil, false)
  if rule then
    decided(var, "whitelist", rule, fw, addr)
    return false
  end
  rule, url = first_hit(fw.blacklist, size, addr, method, var, url, passed)
  if rule then
    decided(var, "blacklist", rule, fw, addr)
    return rule.route
  end
  -- IP trust protection (rampart.firewall_reputation): after the blacklist, before the geo rules.
  local trust = fw.reputation
  if trust and not (passed and trust.challenge) and reputation.score(gen, addr) >= trust.threshold then
    decided(var, "reputation", trust, fw, addr)
    return trust.route
  end
  -- Geo rules (rampart.firewall_geo): after the blacklist, before the header rules.
  if fw.geos then
    rule, url = geo.check(fw.geos, gen, addr, url, passed)
    if rule then
      decided(var, "geo", rule, fw, addr)
      return rule.route
    end
  end
  -- Header rules, then the domain's anti-referer and anti-header lists (rampart.firewall_headers).
  local kind
  rule, kind, url = headers.check(fw, domain, var, url)
  if rule then
    decided(var, kind, rule, fw, addr)
    return route_of(rule.action)
  end
  local agents = fw.user_agents
  if #agents > 0 then
    -- The User-Agent stays in nginx's memory (rampart.request_url; none read as ""), as the URL.
    local agent = request_url.user_agent
    agent.read()
    for i = 1, #agents do
      local r = agents[i]
      local hit = not (passed and r.challenge)
      if hit and r.url then
        if url == nil then url = request_url.read() end
        hit = request_url.find(r.url) == true
      end
      -- "ijo": case-insensitive, compiled once per worker (the contract's user-agent semantics).
      if hit and agent.find(r.user_agent, "ijo") == true then
        decided(var, "userAgent", r, fw, addr)
        return r.route
      end
    end
  end
  -- The Lua ACL (rampart.acl): after the user-agent rules, before the frequency limits. Its allow
  -- ends the ACL only: the frequency limits still count the request.
  if acl_rules then
    local r = acl.check(acl_rules, gen, var, addr)
    if r then
      decided(var, "acl", r, acl_rules, addr)
      if r.route then return r.route end
    end
  end
  local limits = fw.frequency
  if limits == nil then return nil end
  local wait
  rule, kind, wait = frequency.check(limits, var, addr, url, passed)
  if rule then
    decided(var, kind, rule, fw, addr)
    return rule.route
  end
  if wait > 0 then return nil, wait end
  return nil
end

return _M
