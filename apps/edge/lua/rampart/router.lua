-- set_by_lua: Host → domain, then the cheap decisions (unknown, disabled, forceSSL) and the
-- variables the proxy needs. It answers what nginx does next, and nginx.conf acts on it with
-- `if`/`return` (see render.ts):
--   ""                       proxy to the origin (the decoded domain is in ngx.ctx for the balancer)
--   "404", "403", "503"      the edge's own page for that status
--   "301", "302", "307", "308"  redirect to $rampart_redirect
-- set_by_lua runs without a coroutine of its own, which is measurably cheaper per request than
-- rewrite_by_lua (bench/edge.ts); nothing here yields.
local store = require "rampart.store"

local _M = {}

function _M.route()
  local var = ngx.var
  local host = var.host -- nginx lower-cases it and strips the port
  local domain, gen = store.lookup(host)
  if gen == nil then return "503" end
  if domain == nil then return "404" end

  var.rampart_domain_id = domain.id
  if not domain.enabled then return "403" end

  if domain.forceSSL and var.scheme == "http" then
    local port = var.rampart_https_port
    local authority = port == "443" and host or (host .. ":" .. port)
    var.rampart_redirect = "https://" .. authority .. var.request_uri
    return domain._redirect_code
  end

  local origin = domain.origin
  if origin.scheme ~= "http" then var.rampart_origin_scheme = origin.scheme end
  var.rampart_upstream_host = origin.host or host
  ngx.ctx.rampart_domain = domain
  return ""
end

return _M
