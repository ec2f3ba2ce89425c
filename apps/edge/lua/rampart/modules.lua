-- Site modules at the edge (packages/contract/src/routes/site-modules.ts): custom headers, URL
-- redirects, CORS and proxy rewrite. Only domains with a bound module get here: route() sends them
-- to @rampart_modules (render.ts), whose rewrite phase runs rewrite() and whose header filter runs
-- header_filter(); a domain without modules never runs any of this.
--
-- Module entries are decoded and compiled once per worker and data-plane generation (memoized on
-- the cached domain entry, as the router does with cache policies).
local store = require "rampart.store"
local router = require "rampart.router"
local pages = require "rampart.pages"
local request_url = require "rampart.request_url"

local _M = {}

local re_match, unescape, lower, byte = ngx.re.match, ngx.unescape_uri, string.lower, string.byte
local concat, sort = table.concat, table.sort
local EMPTY = {}

-- Path rules (redirect and rewrite): exact rules by path, prefixes longest first, regexes in order.
local function compile_rules(rules, decode_target)
  local exact, prefixes, regexes = {}, {}, {}
  for i, r in ipairs(rules) do
    local rule = { target = decode_target and unescape(r.target) or r.target, code = r.code, keep_query = r.keepQuery }
    if r.match == "exact" then
      local path = unescape(r.source)
      if exact[path] == nil then exact[path] = rule end
    elseif r.match == "prefix" then
      prefixes[#prefixes + 1] = { prefix = unescape(r.source), rule = rule, i = i }
    else
      rule.regex = r.source
      regexes[#regexes + 1] = rule
    end
  end
  sort(prefixes, function(a, b)
    if #a.prefix ~= #b.prefix then return #a.prefix > #b.prefix end
    return a.i < b.i
  end)
  local exact_max = 0
  for path in pairs(exact) do
    if #path > exact_max then exact_max = #path end
  end
  return { exact = exact, exact_max = exact_max, prefixes = prefixes, regexes = regexes }
end

-- Bytes of a decoded path that go back into a URL percent-encoded (CR, LF, space, '%', non-ASCII …).
local function encode(s)
  return (s:gsub("[^A-Za-z0-9._~!$&'()*+,;=:@/-]", function(c) return ("%%%02X"):format(byte(c)) end))
end

-- The rule matching the request path and the target it yields, or nil. `escape` re-encodes the
-- parts taken from the (decoded) request path: for redirects, whose target goes into a Location
-- header. The path is read in place (rampart.request_url): it becomes a Lua string only to look up
-- an exact rule when it is no longer than the longest, or when a rule matched and its target takes
-- part of it.
local function match_rules(set, escape)
  local uri = request_url.uri
  local len = uri.read() or 0
  if len <= set.exact_max then
    local rule = set.exact[uri.string()]
    if rule then return rule, rule.target end
  end
  for _, p in ipairs(set.prefixes) do
    if uri.starts(p.prefix) then
      local rest = uri.string():sub(#p.prefix + 1)
      return p.rule, p.rule.target .. (escape and encode(rest) or rest)
    end
  end
  for _, r in ipairs(set.regexes) do
    -- "jo": compiled once per worker and cached; lua_regex_match_limit bounds backtracking, and a
    -- pattern that hits it counts as no match. Matched in place first; the captures only on a match.
    local found, err = uri.find(r.regex, "jo")
    local m = found and re_match(uri.string(), r.regex, "jo")
    if m then
      local target = r.target:gsub("%$(%d)", function(d)
        local group = m[tonumber(d)] or ""
        return escape and encode(group) or group
      end)
      return r, target
    end
    if err then ngx.log(ngx.WARN, "rampart modules: regex ", r.regex, " failed: ", err) end
  end
  return nil
end
_M.compile_rules, _M.match_rules = compile_rules, match_rules -- for the tests

local function compile_cors(c)
  local exact, wildcards, any = {}, {}, false
  for _, o in ipairs(c.origins) do
    if o == "*" then
      any = true
    else
      local star = o:find("*.", 1, true)
      if star then
        wildcards[#wildcards + 1] = { before = o:sub(1, star - 1), after = o:sub(star + 1) }
      else
        exact[o] = true
      end
    end
  end
  local allow_any_header = false
  for _, h in ipairs(c.allowHeaders) do
    if h == "*" then allow_any_header = true end
  end
  return {
    exact = exact, wildcards = wildcards, any = any, credentials = c.credentials,
    methods = concat(c.methods, ", "),
    allow_headers = #c.allowHeaders > 0 and concat(c.allowHeaders, ", ") or nil,
    allow_any_header = allow_any_header,
    expose_headers = #c.exposeHeaders > 0 and concat(c.exposeHeaders, ", ") or nil,
    max_age = tostring(c.maxAge),
  }
end

local ORIGIN_RE = [[^https?://[a-z0-9.-]{1,253}(:[0-9]{1,5})?\z]]

-- The Access-Control-Allow-Origin value for `origin`, or nil when the module does not allow it.
local function allowed_origin(cors, origin)
  if origin == nil or #origin > 300 then return nil end
  origin = lower(origin)
  if cors.exact[origin] then return origin end
  for _, w in ipairs(cors.wildcards) do
    if #origin > #w.before + #w.after and origin:sub(1, #w.before) == w.before
      and origin:sub(-#w.after) == w.after then
      local middle = origin:sub(#w.before + 1, -#w.after - 1)
      if not middle:find("[^a-z0-9.-]") then return origin end
    end
  end
  if cors.any then
    -- "*" cannot go with credentials: the origin is echoed then, and only a well-formed one.
    if not cors.credentials then return "*" end
    if ngx.re.find(origin, ORIGIN_RE, "jo") then return origin end
  end
  return nil
end

local function compile(domain, gen)
  local refs = domain.modules
  local function load(id)
    if id == nil then return nil end
    return store.module(gen, id)
  end
  local compiled = {}
  local headers = load(refs.customHeader)
  if headers then
    compiled.request_headers = headers.request
    compiled.response_headers = headers.response
  end
  local redirect = load(refs.urlRedirect)
  if redirect and #redirect.rules > 0 then compiled.redirects = compile_rules(redirect.rules, false) end
  local cors = load(refs.cors)
  if cors then compiled.cors = compile_cors(cors) end
  local rewrite = load(refs.proxyRewrite)
  if rewrite then
    compiled.rewrite = {
      host = rewrite.host,
      set = rewrite.setHeaders,
      remove = rewrite.removeHeaders,
      rules = #rewrite.rules > 0 and compile_rules(rewrite.rules, true) or nil,
    }
  end
  return compiled
end

-- The routed domain and its compiled modules (nil when the domain has none any more).
local function current(var)
  local domain, gen = store.lookup(var.host)
  if domain == nil or domain.modules == nil then return nil, domain, gen end
  local compiled = domain._modules
  if compiled == nil then
    compiled = compile(domain, gen)
    domain._modules = compiled
  end
  return compiled, domain, gen
end

local function add_vary_origin()
  local vary = ngx.header["Vary"]
  if vary == nil then
    ngx.header["Vary"] = "Origin"
  elseif type(vary) == "string" and not lower(vary):find("origin", 1, true) then
    ngx.header["Vary"] = vary .. ", Origin"
  end
end

-- The CORS headers of every response to an allowed origin.
local function cors_headers(cors, allow)
  local h = ngx.header
  h["Access-Control-Allow-Origin"] = allow
  if cors.credentials then h["Access-Control-Allow-Credentials"] = "true" end
  if cors.expose_headers then h["Access-Control-Expose-Headers"] = cors.expose_headers end
  if allow ~= "*" then add_vary_origin() end
end

local PREFLIGHT_HEADERS_RE = [[^[A-Za-z0-9, -]{0,1024}\z]]

-- rewrite_by_lua in @rampart_modules: redirects, CORS preflights, then the request to the origin.
function _M.rewrite()
  local var = ngx.var
  local m, domain, gen = current(var)
  if domain == nil then return pages.send(gen == nil and 503 or 404) end
  -- A push disabled the domain between route() and here.
  if not domain.enabled then return pages.send(403) end
  local pass = domain.origin.scheme == "http" and "http://rampart_http" or "https://rampart_https"
  if m == nil then
    -- A push removed the domain's modules between route() and here: proxy as usual.
    var.rampart_cache_pass = pass
    return
  end
  if m.redirects then
    local rule, target = match_rules(m.redirects, true)
    if rule then
      local args = var.args
      if rule.keep_query and args and args ~= "" then
        target = target .. (target:find("?", 1, true) and "&" or "?") .. args
      end
      return pages.redirect(target, rule.code)
    end
  end

  local cors = m.cors
  if cors and var.request_method == "OPTIONS" and var.http_access_control_request_method then
    local allow = allowed_origin(cors, var.http_origin)
    if allow then
      cors_headers(cors, allow)
      local h = ngx.header
      h["Access-Control-Allow-Methods"] = cors.methods
      local asked = var.http_access_control_request_headers
      if cors.allow_any_header and asked and ngx.re.find(asked, PREFLIGHT_HEADERS_RE, "jo") then
        h["Access-Control-Allow-Headers"] = asked -- "*" is not honoured with credentials; echo instead
      elseif cors.allow_headers then
        h["Access-Control-Allow-Headers"] = cors.allow_headers
      end
      h["Access-Control-Max-Age"] = cors.max_age
      return ngx.exit(204)
    end
  end

  -- Cache rules match the client's path, before any rewrite.
  local cache_location = domain.cacheId and router.cached_location(domain, gen, var)

  for _, h in ipairs(m.request_headers or EMPTY) do
    if h.value == "" then ngx.req.clear_header(h.name) else ngx.req.set_header(h.name, h.value) end
  end
  local rewrite = m.rewrite
  if rewrite then
    for _, name in ipairs(rewrite.remove) do ngx.req.clear_header(name) end
    for _, h in ipairs(rewrite.set) do ngx.req.set_header(h.name, h.value) end
    if rewrite.host then var.rampart_upstream_host = rewrite.host end
    if rewrite.rules then
      local rule, target = match_rules(rewrite.rules, false)
      if rule then ngx.req.set_uri(target) end
    end
  end

  if cache_location then return ngx.exec(cache_location .. "_site") end
  var.rampart_cache_pass = pass
end

-- Part of the header filter (rampart.filters) of @rampart_modules and the cache locations' `_site` twins.
function _M.header_filter()
  local var = ngx.var
  local m = current(var)
  if m == nil then return end
  for _, h in ipairs(m.response_headers or EMPTY) do
    ngx.header[h.name] = h.value ~= "" and h.value or nil
  end
  local cors = m.cors
  if cors then
    local allow = allowed_origin(cors, var.http_origin)
    if allow then cors_headers(cors, allow) end
  end
end

return _M
