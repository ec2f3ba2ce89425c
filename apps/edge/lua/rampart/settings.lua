-- Site settings at the edge (packages/contract/src/routes/site-settings.ts): bandwidth limits,
-- compression and error pages of the sites whose domains carry a settingsId.
--
-- Cost: route() asks for a domain's settings only when the domain has a settingsId; the compiled
-- settings are memoized on the per-worker domain entry (one per generation). Rate limits are set
-- from route() itself ($limit_rate, kept through the internal redirects). Compression and pages
-- need filters, so only sites that have either are routed to the locations with them (render.ts
-- siteLocations and the `_site` cache locations): header_filter() there vetoes compression nginx's
-- gzip filter (which runs after it) would otherwise apply, and swaps the body of an error status
-- the site has a page for; body_filter() sends that page instead of the origin's body.
local store = require "rampart.store"

local _M = {}

local unescape, lower = ngx.unescape_uri, string.lower

local function compile_rate(rule)
  local pattern, bytes = rule.pattern, rule.kbps * 1024
  local star = pattern:find("*", 1, true)
  if not star then return { exact = unescape(pattern), bytes = bytes } end
  local prefix, suffix = unescape(pattern:sub(1, star - 1)), unescape(pattern:sub(star + 1))
  return { prefix = prefix, suffix = suffix, min = #prefix + #suffix, bytes = bytes }
end

local function compile(raw)
  local rates = nil
  if #raw.rates > 0 then
    rates = {}
    for i, rule in ipairs(raw.rates) do rates[i] = compile_rate(rule) end
  end
  local gzip = nil
  if raw.gzip then
    local types = {}
    for _, t in ipairs(raw.gzip.types) do types[t] = true end
    gzip = { types = types, min_length = raw.gzip.minLength }
  end
  local pages, any_page = {}, false
  for _, page in ipairs(raw.pages) do
    pages[page.status] = page.body
    any_page = true
  end
  return { rates = rates, gzip = gzip, pages = pages, language = raw.language, filters = gzip ~= nil or any_page }
end

-- The compiled settings of `domain` (which has a settingsId) in generation `gen`, or false.
function _M.of(domain, gen)
  local site = domain._settings
  if site == nil then
    local raw = store.site_settings(gen, domain.settingsId)
    site = raw and compile(raw) or false
    domain._settings = site
  end
  return site
end

-- The settings of the domain this request was routed to, or nil (the edge's own pages).
function _M.for_request()
  local host = ngx.var.host
  if host == nil or host == "" then return nil end
  local domain = store.routed(host)
  if domain == nil or not domain.settingsId then return nil end
  local gen = store.generation()
  if gen == nil then return nil end
  return _M.of(domain, gen) or nil
end

-- Bytes per second for a request path: the lowest rate of the matching rules, or nil.
function _M.rate(site, uri)
  local best = nil
  for _, r in ipairs(site.rates) do
    local hit
    if r.exact then
      hit = uri == r.exact
    else
      hit = #uri >= r.min and uri:sub(1, #r.prefix) == r.prefix and (r.suffix == "" or uri:sub(-#r.suffix) == r.suffix)
    end
    if hit and (best == nil or r.bytes < best) then best = r.bytes end
  end
  return best
end

-- Part of the header filter (rampart.filters) of the site locations, @rampart_modules and the `_site` cache twins.
function _M.header_filter()
  local site = _M.for_request()
  -- A domain here for its modules only: gzip is on in these locations, the site did not ask for it.
  if not site then return ngx.req.clear_header("Accept-Encoding") end
  local header = ngx.header
  local page = site.pages[ngx.status]
  if page then
    ngx.ctx.rampart_page = page
    header["Content-Type"] = "text/html; charset=utf-8"
    header["Content-Length"] = #page
    header["Content-Encoding"] = nil
    header["Content-Range"] = nil
    header["ETag"] = nil
    header["Last-Modified"] = nil
    header["Cache-Control"] = "no-store"
  end
  local gzip = site.gzip
  if gzip then
    local ctype = header["Content-Type"]
    if type(ctype) == "string" then
      local semi = ctype:find(";", 1, true)
      ctype = lower(semi and ctype:sub(1, semi - 1) or ctype):gsub("%s+$", "")
      if gzip.types[ctype] then
        local length = tonumber(header["Content-Length"])
        if length == nil or length >= gzip.min_length then return end
      end
    end
  end
  -- No compression for this response: nginx's gzip filter, next in the chain, compresses only
  -- what a client said it accepts.
  ngx.req.clear_header("Accept-Encoding")
end

-- body_filter_by_lua in the site locations: the site's page instead of the origin's body.
function _M.body_filter()
  local ctx = ngx.ctx
  local page = ctx.rampart_page
  if page == nil then return end
  if page == false then
    ngx.arg[1] = nil
    return
  end
  ngx.arg[1] = page
  ngx.arg[2] = true
  ctx.rampart_page = false
end

return _M
